//! Test and calibration hooks from the environment, identical in all runners
//! (runners/README.md): BEE_BENCH_FAULT, BEE_BENCH_SLOWDOWN, BEE_BENCH_ITERS,
//! BEE_BENCH_CASE_TIMEOUT_S and BEE_BENCH_PACE_FD (the pacing itself is `pace.rs`).

use std::os::fd::RawFd;
use std::time::Duration;

use crate::spec::glob_match;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Return an error inside the timed iteration.
    Throw,
    /// Never finish the timed iteration.
    Hang,
    /// Panic in a detached task (the Rust form of an unhandled promise rejection).
    Reject,
}

#[derive(Debug, Default)]
pub struct Hooks {
    fault: Option<(String, Fault)>,
    slowdown: Option<(String, f64)>,
    pub iters: Option<u32>,
    pub case_timeout: Option<Duration>,
    /// The inherited descriptor to take turns on.
    pub pace_fd: Option<RawFd>,
    /// BEE_BENCH_COUNT=1: callgrind requests around each timed CPU iteration (count.rs).
    pub count: bool,
}

impl Hooks {
    pub fn from_env() -> Result<Self, String> {
        Self::parse(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
    }

    fn parse(var: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let mut hooks = Self::default();
        if let Some(v) = var("BEE_BENCH_FAULT") {
            let (glob, kind) = split(&v, "BEE_BENCH_FAULT", "<glob>:<throw|hang|reject>")?;
            let fault = match kind {
                "throw" => Fault::Throw,
                "hang" => Fault::Hang,
                "reject" => Fault::Reject,
                _ => {
                    return Err(format!(
                        "BEE_BENCH_FAULT={v}: the fault is one of throw, hang, reject"
                    ));
                }
            };
            hooks.fault = Some((glob.to_string(), fault));
        }
        if let Some(v) = var("BEE_BENCH_SLOWDOWN") {
            let (glob, fraction) = split(&v, "BEE_BENCH_SLOWDOWN", "<glob>:<fraction>")?;
            let fraction: f64 = fraction
                .parse()
                .ok()
                .filter(|f: &f64| f.is_finite() && *f >= 0.0)
                .ok_or_else(|| {
                    format!("BEE_BENCH_SLOWDOWN={v}: the fraction must be a non-negative number")
                })?;
            hooks.slowdown = Some((glob.to_string(), fraction));
        }
        if let Some(v) = var("BEE_BENCH_ITERS") {
            let n = v.parse().ok().filter(|n| *n > 0);
            hooks.iters =
                Some(n.ok_or_else(|| format!("BEE_BENCH_ITERS={v}: must be a positive integer"))?);
        }
        if let Some(v) = var("BEE_BENCH_CASE_TIMEOUT_S") {
            let s = v
                .parse::<f64>()
                .ok()
                .and_then(|s| Duration::try_from_secs_f64(s).ok())
                .filter(|d| !d.is_zero());
            hooks.case_timeout = Some(s.ok_or_else(|| {
                format!("BEE_BENCH_CASE_TIMEOUT_S={v}: must be a positive number of seconds")
            })?);
        }
        if let Some(v) = var("BEE_BENCH_PACE_FD") {
            let fd = Some(&v)
                .filter(|v| v.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|v| v.parse().ok());
            hooks.pace_fd = Some(fd.ok_or_else(|| {
                format!("BEE_BENCH_PACE_FD={v}: must be a non-negative integer (a file descriptor)")
            })?);
        }
        if let Some(v) = var("BEE_BENCH_COUNT") {
            hooks.count = match v.as_str() {
                "1" => true,
                "0" => false,
                _ => return Err(format!("BEE_BENCH_COUNT={v}: must be 1 or 0")),
            };
        }
        Ok(hooks)
    }

    pub fn fault(&self, id: &str) -> Option<Fault> {
        self.fault
            .as_ref()
            .filter(|(g, _)| glob_match(g, id))
            .map(|(_, f)| *f)
    }

    pub fn slowdown(&self, id: &str) -> f64 {
        self.slowdown
            .as_ref()
            .filter(|(g, _)| glob_match(g, id))
            .map_or(0.0, |(_, f)| *f)
    }
}

fn split<'a>(v: &'a str, name: &str, shape: &str) -> Result<(&'a str, &'a str), String> {
    v.rsplit_once(':')
        .filter(|(g, k)| !g.is_empty() && !k.is_empty())
        .ok_or_else(|| format!("{name}={v}: expected {shape}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hooks(vars: &[(&str, &str)]) -> Result<Hooks, String> {
        Hooks::parse(|name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn parses_every_hook() {
        let h = hooks(&[
            ("BEE_BENCH_FAULT", "cpu.keccak.*:hang"),
            ("BEE_BENCH_SLOWDOWN", "*.bulk:0.25"),
            ("BEE_BENCH_ITERS", "3"),
            ("BEE_BENCH_CASE_TIMEOUT_S", "1.5"),
            ("BEE_BENCH_PACE_FD", "3"),
            ("BEE_BENCH_COUNT", "1"),
        ])
        .unwrap();
        assert_eq!(h.fault("cpu.keccak.bulk"), Some(Fault::Hang));
        assert_eq!(h.fault("cpu.bmt.file-root"), None);
        assert_eq!(h.slowdown("cpu.keccak.bulk"), 0.25);
        assert_eq!(h.slowdown("cpu.harness.noop"), 0.0);
        assert_eq!(h.iters, Some(3));
        assert_eq!(h.case_timeout, Some(Duration::from_millis(1500)));
        assert_eq!(h.pace_fd, Some(3));
        assert!(h.count);
        assert!(!hooks(&[]).unwrap().count);
        assert_eq!(
            hooks(&[("BEE_BENCH_PACE_FD", "0")]).unwrap().pace_fd,
            Some(0)
        );
        assert_eq!(hooks(&[]).unwrap().pace_fd, None);
    }

    #[test]
    fn rejects_malformed_values_naming_the_variable() {
        assert!(
            hooks(&[("BEE_BENCH_COUNT", "yes")])
                .unwrap_err()
                .starts_with("BEE_BENCH_COUNT")
        );
        assert!(
            hooks(&[("BEE_BENCH_FAULT", "cpu.*:explode")])
                .unwrap_err()
                .starts_with("BEE_BENCH_FAULT")
        );
        assert!(
            hooks(&[("BEE_BENCH_FAULT", "throw")])
                .unwrap_err()
                .starts_with("BEE_BENCH_FAULT")
        );
        assert!(
            hooks(&[("BEE_BENCH_SLOWDOWN", "cpu.*:-1")])
                .unwrap_err()
                .starts_with("BEE_BENCH_SLOWDOWN")
        );
        assert!(
            hooks(&[("BEE_BENCH_ITERS", "0")])
                .unwrap_err()
                .starts_with("BEE_BENCH_ITERS")
        );
        assert!(
            hooks(&[("BEE_BENCH_CASE_TIMEOUT_S", "soon")])
                .unwrap_err()
                .starts_with("BEE_BENCH_CASE_TIMEOUT_S")
        );
        for bad in ["-1", "+3", "3.0", " 3", "fd3", "99999999999"] {
            assert!(
                hooks(&[("BEE_BENCH_PACE_FD", bad)])
                    .unwrap_err()
                    .starts_with("BEE_BENCH_PACE_FD"),
                "{bad}"
            );
        }
    }
}
