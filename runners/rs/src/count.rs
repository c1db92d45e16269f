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

/// Start counting: zero the counters, switch instrumentation on.
pub fn start() {
    client_request(ZERO_STATS, 0);
    client_request(START_INSTRUMENTATION, 0);
}

/// Stop counting and dump this iteration's count as `bee-bench <unit> <step>`.
pub fn stop(unit: usize, step: u32) {
    client_request(STOP_INSTRUMENTATION, 0);
    let name = CString::new(format!("bee-bench {unit} {step}")).expect("no NUL in the name");
    client_request(DUMP_STATS_AT, name.as_ptr() as usize);
}
