//! BEE_BENCH_PACE_FD (runners/README.md): take turns with another runner process, one iteration
//! at a time, so the engine can interleave base and head within a round. Before each warmup and
//! timed iteration the runner writes `ready <unit> <step>\n` to the inherited descriptor and
//! blocks until it reads one byte; end of file or an error ends the pacing for good.
//!
//! The wait is a plain blocking call made by the harness future, outside the timed region. That
//! future runs on the thread of `Runtime::block_on`, which is not one of the runtime's workers,
//! so the workers (timers, sockets, tasks a case detached) run on while it blocks. The case
//! timeout cannot interrupt a wait: the time spent waiting counts against the case's deadline,
//! which fires at the next await once the turn is granted. A wait is never abandoned half-way,
//! so a `ready` line is always followed by its own read before the next one is written.

use std::fs::File;
use std::io::{Read as _, Write as _};
use std::os::fd::{FromRawFd as _, RawFd};
use std::sync::{Mutex, PoisonError};

/// The pacing channel; without one (or once it has ended) every wait returns at once.
#[derive(Debug, Default)]
pub struct Pacer {
    channel: Mutex<Option<File>>,
}

impl Pacer {
    /// Pace on an already opened channel (one end of a socket pair).
    pub fn on(channel: File) -> Self {
        Self {
            channel: Mutex::new(Some(channel)),
        }
    }

    /// Take over descriptor `fd`, inherited from the parent under BEE_BENCH_PACE_FD. Call it
    /// before the process opens anything of its own, so that `fd`, if the parent did not pass
    /// it, is not some other file of this process. A descriptor that is not open: no pacing.
    pub fn inherit(fd: RawFd) -> Self {
        // SAFETY: F_GETFD only reads the descriptor flags of `fd`, whatever it is.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            eprintln!(
                "bee-bench-rs: BEE_BENCH_PACE_FD={fd}: descriptor not open ({}); not pacing",
                std::io::Error::last_os_error()
            );
            return Self::default();
        }
        // SAFETY: `fd` is open, and the contract gives it to this process for pacing alone:
        // nothing else in the process uses or closes it, so the File may own it.
        Self::on(unsafe { File::from_raw_fd(fd) })
    }

    /// Announce iteration `step` (warmups first) of plan entry `unit` and block until the other
    /// side answers with one byte. End of file or an error ends the pacing (the channel is
    /// closed); later calls return at once and write nothing.
    pub fn wait(&self, unit: usize, step: u32) {
        let mut channel = self.channel.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(file) = channel.as_mut() else {
            return;
        };
        let turn = file
            .write_all(format!("ready {unit} {step}\n").as_bytes())
            .and_then(|()| file.read_exact(&mut [0u8]));
        if turn.is_err() {
            *channel = None;
        }
    }
}

#[cfg(test)]
mod tests;
