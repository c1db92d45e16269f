//! Instruction counting of the timed region (BEE_BENCH_COUNT=1, runners/README.md): callgrind
//! client requests around each timed iteration. The engine runs the runner under
//! `valgrind --tool=callgrind --instr-atstart=no`, so nothing outside these brackets (start-up,
//! fixtures, digest, warmup, teardown) is counted, and each iteration's count is dumped under the
//! name `bee-bench <unit> <step>`. Outside valgrind a client request is a few register rotations
//! that change nothing. The request sequence is valgrind.h's for x86-64 (the magic rotations of
//! rdi then `xchg rbx, rbx`, arguments at rax, result in rdx); written here rather than taken from
//! a crate because the crates that wrap it (crabgrind) compile valgrind.h, which would make
//! building this runner need valgrind's headers everywhere. Elsewhere counting is unavailable.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{Context, anyhow};

/// Callgrind's requests: VG_USERREQ_TOOL_BASE('C', 'T') + n (callgrind.h).
const CALLGRIND_BASE: usize = (b'C' as usize) << 24 | (b'T' as usize) << 16;
const DUMP_STATS_AT: usize = CALLGRIND_BASE + 3;
const ZERO_STATS: usize = CALLGRIND_BASE + 1;
const START_INSTRUMENTATION: usize = CALLGRIND_BASE + 4;
const STOP_INSTRUMENTATION: usize = CALLGRIND_BASE + 5;

#[cfg(target_arch = "x86_64")]
fn client_request(request: usize, arg1: usize) -> usize {
    let args: [usize; 6] = [request, arg1, 0, 0, 0, 0];
    let mut result: usize = 0;
    // SAFETY: natively the rotations add up to 128 bits and leave rdi as it was, and the xchg
    // swaps rbx with itself; under valgrind the sequence is a request that reads `args`.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51", "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") args.as_ptr(),
            inout("rdi") 0usize => _,
            options(nostack, preserves_flags, readonly),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request(_request: usize, _arg1: usize) -> usize {
    0
}

/// `/proc/self/task/<tid>/syscall` of the thread that runs `Runtime::block_on` (the harness
/// future's), noted before the runtime starts.
static HARNESS_THREAD: OnceLock<CString> = OnceLock::new();

/// Notes the calling thread as the harness's (main, before `block_on`).
pub fn note_harness_thread() {
    // SAFETY: gettid has no preconditions.
    let tid = unsafe { libc::gettid() };
    let _ =
        HARNESS_THREAD.set(CString::new(format!("/proc/self/task/{tid}/syscall")).expect("no NUL"));
}

/// How long `settle` waits at most for the harness thread to park; past it the count starts anyway.
const SETTLE_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Right before a counted iteration, outside its region: waits until the harness thread, which
/// handed this iteration to the blocking thread and goes on to poll its join handle and park, is
/// parked (in a futex wait), and the runtime's workers have gone back to sleep. Otherwise their
/// last instructions landed inside the region of some iterations and not others: the noop case read
/// 918 or 1395 instructions, and on a loaded machine a fixed 5 ms sleep was not always enough for
/// the harness thread to park (its tokio poll and park, ~40 functions, in one process's region).
pub fn settle() {
    std::thread::sleep(std::time::Duration::from_millis(5));
    let Some(path) = HARNESS_THREAD.get() else {
        return;
    };
    let started = std::time::Instant::now();
    while !in_futex_wait(path) && started.elapsed() < SETTLE_LIMIT {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Whether the thread is blocked in `futex` (tokio parks a thread there; under valgrind a thread
/// waiting for valgrind's scheduler lock reads a pipe instead). Read with libc into a stack buffer,
/// so the wait leaves the heap as it found it whatever the number of polls. An unreadable file
/// (no procfs) counts as parked: the 5 ms sleep is all there is then.
fn in_futex_wait(path: &CString) -> bool {
    let mut buf = [0u8; 32];
    // SAFETY: a NUL-terminated path; the descriptor is closed on every path below.
    let n = unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return true;
        }
        let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
        libc::close(fd);
        n
    };
    if n <= 0 {
        return true;
    }
    let text = &buf[..n as usize];
    let number = text.split(|b| *b == b' ').next().unwrap_or_default();
    std::str::from_utf8(number)
        .ok()
        .and_then(|s| s.parse::<libc::c_long>().ok())
        == Some(libc::SYS_futex)
}

/// Start counting: zero the counters, switch instrumentation on.
pub fn start() {
    client_request(ZERO_STATS, 0);
    client_request(START_INSTRUMENTATION, 0);
}

/// Stop counting, then dump this iteration's count as `bee-bench <unit> <step>`: the name is
/// formatted after the region closes, so its allocation is not counted (bee-go's tiny allocator
/// put one such allocation's refill into one step or another, runners/go/harness/count).
pub fn stop(unit: usize, step: u32) {
    client_request(STOP_INSTRUMENTATION, 0);
    dump_as(&format!("bee-bench {unit} {step}"));
}

fn stop_as(name: &str) {
    client_request(STOP_INSTRUMENTATION, 0);
    dump_as(name);
}

/// Dumps what the last region counted under `name` (instrumentation is already off).
fn dump_as(name: &str) {
    let name = CString::new(name).expect("no NUL in the name");
    client_request(DUMP_STATS_AT, name.as_ptr() as usize);
}

/// BEE_BENCH_SLOWDOWN while counting: right after the step's dump, counted spins adding up to
/// `fraction` x that step's own instruction count, each dumped as `bee-bench-spin <unit> <step>`
/// (the engine adds a step's dumps), so the injected share of the count is the fraction, as it
/// is of the wall time natively. Each spin's size comes from the instructions per pass the last
/// one measured, and the spins go on until the target is reached (a few hundred instructions
/// over at most). Reading dumps happens outside the counted regions.
pub fn slow_down(fraction: f64, unit: usize, step: u32) -> anyhow::Result<()> {
    let dir = dump_dir()?;
    let target = fraction * last_dump(dir)? as f64;
    let name = format!("bee-bench-spin {unit} {step}");
    let (mut spun, mut passes) = (0.0, FIRST_SPIN_PASSES);
    for _ in 0..MAX_SPINS {
        if spun >= target {
            break;
        }
        start();
        spin_passes(passes);
        stop_as(&name);
        let got = last_dump(dir)? as f64;
        if got == 0.0 {
            anyhow::bail!(
                "BEE_BENCH_SLOWDOWN: a spin counted no instructions (not under callgrind?)"
            );
        }
        spun += got;
        passes = ((target - spun) / (got / passes as f64)).ceil().max(1.0) as u64;
    }
    Ok(())
}

/// The first spin's passes: small, so a cheap step is not overshot by much.
const FIRST_SPIN_PASSES: u64 = 1000;
/// Spins per step at most (it takes about four: each one's overhead is topped up by the next).
const MAX_SPINS: usize = 8;

/// A fixed number of passes of a simple loop the optimiser cannot drop.
#[inline(never)]
fn spin_passes(passes: u64) {
    let mut x = 1u64;
    for _ in 0..std::hint::black_box(passes) {
        x = std::hint::black_box(
            x.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407),
        );
    }
    std::hint::black_box(x);
}

/// Callgrind's dump folder (the engine passes it, runners/README.md).
fn dump_dir() -> anyhow::Result<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| std::env::var_os("BEE_BENCH_COUNT_DIR").map(PathBuf::from))
        .as_deref()
        .ok_or_else(|| anyhow!("BEE_BENCH_SLOWDOWN with BEE_BENCH_COUNT=1 needs BEE_BENCH_COUNT_DIR, callgrind's dump folder (the engine sets it)"))
}

/// The total of this process's newest dump: callgrind writes `callgrind.out.<pid>.<n>`, n
/// counting up from 1.
fn last_dump(dir: &Path) -> anyhow::Result<u64> {
    let prefix = format!("callgrind.out.{}.", std::process::id());
    let newest = std::fs::read_dir(dir)
        .with_context(|| format!("BEE_BENCH_COUNT_DIR {}", dir.display()))?
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .to_str()?
                .strip_prefix(&prefix)?
                .parse::<u64>()
                .ok()
        })
        .max()
        .ok_or_else(|| anyhow!("no callgrind dump of this process in {}", dir.display()))?;
    let path = dir.join(format!("{prefix}{newest}"));
    let text = std::fs::read_to_string(&path).with_context(|| path.display().to_string())?;
    dump_cost(&text).ok_or_else(|| anyhow!("{}: no `totals:` line", path.display()))
}

/// What a slowdown sizes its spins on: the dump's estimated cycles when callgrind simulates the
/// caches (its events carry the misses: Ir + 10 x L1 misses + 100 x last-level misses, as the
/// engine reads a cycles run), its instruction count (Ir) otherwise; None without a total.
fn dump_cost(text: &str) -> Option<u64> {
    let events: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("events: "))
        .map_or_else(|| vec!["Ir"], |e| e.split_whitespace().collect());
    let totals: Vec<u64> = text
        .lines()
        .find_map(|l| l.strip_prefix("totals: "))?
        .split_whitespace()
        .map(|n| n.parse().ok())
        .collect::<Option<_>>()?;
    let at = |name: &str| {
        events
            .iter()
            .position(|e| *e == name)
            .map(|i| totals.get(i).copied().unwrap_or(0))
    };
    let mut cycles = at("Ir").unwrap_or(*totals.first()?);
    for (names, weight) in [
        (["I1mr", "D1mr", "D1mw"], 10),
        (["ILmr", "DLmr", "DLmw"], 100),
    ] {
        for name in names {
            match at(name) {
                Some(n) => cycles += weight * n,
                None => return totals.first().copied(),
            }
        }
    }
    Some(cycles)
}

#[cfg(test)]
mod tests;
