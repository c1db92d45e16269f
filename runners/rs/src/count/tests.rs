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
