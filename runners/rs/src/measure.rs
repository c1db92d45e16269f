//! Clocks and memory: wall time (monotonic), process CPU time (getrusage user+sys) and peak RSS.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// User + system CPU time of the whole process so far, in ns.
pub fn process_cpu_ns() -> u64 {
    // SAFETY: getrusage only writes the struct we hand it.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return 0;
        }
        usage
    };
    let ns = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1_000;
    ns(usage.ru_utime) + ns(usage.ru_stime)
}

/// One timed iteration: both clocks read immediately before and after the operation.
pub struct Stopwatch {
    wall: Instant,
    cpu: u64,
}

/// What one iteration measured.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub wall_ns: u64,
    pub cpu_ns: u64,
}

impl Stopwatch {
    pub fn start() -> Self {
        let cpu = process_cpu_ns();
        Self {
            wall: Instant::now(),
            cpu,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.wall.elapsed()
    }

    pub fn stop(self) -> Sample {
        let wall_ns = self.wall.elapsed().as_nanos() as u64;
        let cpu_ns = process_cpu_ns().saturating_sub(self.cpu);
        Sample { wall_ns, cpu_ns }
    }
}

/// Busy-spin (CPU work, not sleep) for `d`: the BEE_BENCH_SLOWDOWN hook.
pub fn spin(d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        std::hint::spin_loop();
    }
}

/// Peak resident set size over a case: on Linux the kernel's high-water mark (VmHWM) reset
/// through /proc/self/clear_refs at the start; where that is refused, sampling every 10 ms.
pub enum PeakRss {
    HighWaterMark,
    Sampled(Sampler),
    Unavailable,
}

impl PeakRss {
    pub fn start() -> Self {
        if std::fs::write("/proc/self/clear_refs", "5").is_ok() && vm_hwm().is_some() {
            Self::HighWaterMark
        } else if current_rss().is_some() {
            Self::Sampled(Sampler::spawn(Duration::from_millis(10)))
        } else {
            Self::Unavailable
        }
    }

    pub fn finish(self) -> Option<u64> {
        match self {
            Self::HighWaterMark => vm_hwm(),
            Self::Sampled(s) => Some(s.stop()),
            Self::Unavailable => None,
        }
    }
}

pub struct Sampler {
    stop: Arc<AtomicBool>,
    peak: Arc<AtomicU64>,
    thread: JoinHandle<()>,
}

impl Sampler {
    fn spawn(every: Duration) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let peak = Arc::new(AtomicU64::new(current_rss().unwrap_or(0)));
        let (s, p) = (stop.clone(), peak.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                p.fetch_max(current_rss().unwrap_or(0), Ordering::Relaxed);
                std::thread::sleep(every);
            }
        });
        Self { stop, peak, thread }
    }

    fn stop(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
        self.peak
            .load(Ordering::Relaxed)
            .max(current_rss().unwrap_or(0))
    }
}

/// VmHWM of /proc/self/status, in bytes.
fn vm_hwm() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line["VmHWM:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// Current RSS from /proc/self/statm, in bytes.
fn current_rss() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no memory effects.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * if page > 0 { page as u64 } else { 4096 })
}

/// Hand freed heap back to the OS between cases so one case's garbage does not count in the
/// next one's RSS (the counterpart of the JS and Go runners' GC between cases).
pub fn release_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator to the kernel.
    unsafe {
        libc::malloc_trim(0);
    }
}
