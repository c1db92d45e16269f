//! Modes and channels from the environment (runners/README.md "Hooks"): BEE_BENCH_PACE_FD,
//! BEE_BENCH_COUNT and BEE_BENCH_ALLOCS. The test and calibration hooks are plan fields.

use std::os::fd::RawFd;

#[derive(Debug, Default)]
pub struct Modes {
    /// The inherited descriptor to take turns on (pace.rs).
    pub pace_fd: Option<RawFd>,
    /// BEE_BENCH_COUNT=1: callgrind requests around each timed CPU iteration (count.rs).
    pub count: bool,
    /// BEE_BENCH_ALLOCS=1: allocations counted in each timed CPU iteration (alloc.rs).
    pub allocs: bool,
}

impl Modes {
    pub fn from_env() -> Result<Self, String> {
        Self::parse(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
    }

    fn parse(var: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let switch = |name: &str| match var(name).as_deref() {
            None | Some("0") => Ok(false),
            Some("1") => Ok(true),
            Some(v) => Err(format!("{name}={v}: must be 1 or 0")),
        };
        let mut modes = Self {
            count: switch("BEE_BENCH_COUNT")?,
            allocs: switch("BEE_BENCH_ALLOCS")?,
            ..Self::default()
        };
        if modes.count && modes.allocs {
            return Err(
                "BEE_BENCH_COUNT=1 and BEE_BENCH_ALLOCS=1: one measuring mode per process".into(),
            );
        }
        if let Some(v) = var("BEE_BENCH_PACE_FD") {
            let fd = Some(&v)
                .filter(|v| v.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|v| v.parse().ok());
            modes.pace_fd = Some(fd.ok_or_else(|| {
                format!("BEE_BENCH_PACE_FD={v}: must be a non-negative integer (a file descriptor)")
            })?);
        }
        Ok(modes)
    }
}

#[cfg(test)]
mod tests {
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
}
