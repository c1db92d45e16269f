// Tests of parsing the measurement modes.

use super::*;

fn modes(vars: &[(&str, &str)]) -> Result<Modes, String> {
    Modes::parse(|name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    })
}

#[test]
fn parses_every_mode() {
    let m = modes(&[("BEE_BENCH_PACE_FD", "3"), ("BEE_BENCH_COUNT", "1")]).unwrap();
    assert_eq!(m.pace_fd, Some(3));
    assert!(m.count && !m.allocs);
    let m = modes(&[("BEE_BENCH_ALLOCS", "1"), ("BEE_BENCH_COUNT", "0")]).unwrap();
    assert!(m.allocs && !m.count);
    let none = modes(&[]).unwrap();
    assert!(!none.count && !none.allocs && none.pace_fd.is_none());
    assert_eq!(
        modes(&[("BEE_BENCH_PACE_FD", "0")]).unwrap().pace_fd,
        Some(0)
    );
}

#[test]
fn rejects_malformed_values_naming_the_variable() {
    for (name, bad) in [("BEE_BENCH_COUNT", "yes"), ("BEE_BENCH_ALLOCS", "2")] {
        assert!(modes(&[(name, bad)]).unwrap_err().starts_with(name));
    }
    let both = modes(&[("BEE_BENCH_COUNT", "1"), ("BEE_BENCH_ALLOCS", "1")]);
    assert!(both.unwrap_err().contains("one measuring mode"));
    for bad in ["-1", "+3", "3.0", " 3", "fd3", "99999999999"] {
        assert!(
            modes(&[("BEE_BENCH_PACE_FD", bad)])
                .unwrap_err()
                .starts_with("BEE_BENCH_PACE_FD"),
            "{bad}"
        );
    }
}
