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
mod tests;
