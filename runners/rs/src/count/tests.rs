// Tests of reading this process's callgrind dumps: the newest one, instructions and estimated
// cycles.
use super::*;

/// The counted slowdown reads the step's count from this process's newest dump: the highest
/// n of callgrind.out.<pid>.<n>, never another process's dump nor the final unnumbered file.
#[test]
fn last_dump_reads_this_process_newest_dump() {
    let dir = std::env::temp_dir().join(format!("bee-bench-count-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid = std::process::id();
    let write = |name: String, totals: u64| {
        std::fs::write(
            dir.join(name),
            format!("desc: Trigger: Client Request: x\ntotals: {totals}\n"),
        )
        .unwrap();
    };
    write(format!("callgrind.out.{pid}.2"), 200);
    write(format!("callgrind.out.{pid}.10"), 1000);
    write(format!("callgrind.out.{pid}"), 5);
    write(format!("callgrind.out.{}.99", pid + 1), 9900);
    let got = last_dump(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(got.unwrap(), 1000);
}

/// A cycles run's dump (cache simulation on): the slowdown sizes on the estimated cycles,
/// Ir + 10 x L1 misses + 100 x last-level misses; a plain dump on its instruction count.
#[test]
fn dump_cost_is_estimated_cycles_with_cache_events() {
    let cached =
        "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\ntotals: 1000 400 200 3 5 2 1 1 0\n";
    assert_eq!(dump_cost(cached), Some(1000 + 10 * (3 + 5 + 2) + 100 * 2));
    // Trailing zeros may be left out of a totals line.
    let short = "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\ntotals: 1000 400 200 3\n";
    assert_eq!(dump_cost(short), Some(1030));
    assert_eq!(dump_cost("events: Ir\ntotals: 777\n"), Some(777));
    assert_eq!(dump_cost("totals: 5\n"), Some(5));
    assert_eq!(dump_cost("events: Ir\n"), None);
}
