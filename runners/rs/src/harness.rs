//! The timing rules of runners/README.md: per plan unit, untimed setup and digest, warmup,
//! timed iterations (wall and process CPU time read right around the operation), peak RSS, one
//! timeout over all of it, failures contained to the case, and the result file rewritten
//! atomically after every case. With BEE_BENCH_PACE_FD each iteration first waits its turn.

use std::io::Write as _;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, bail};
use futures_util::FutureExt as _;
use sha2::{Digest, Sha256};
use tokio::time::Instant;

use crate::alloc::{Allocs, Region};
use crate::cases::{self, Bench, Context, Sink, Skip};
use crate::count;
use crate::measure::{self, PeakRss, Sample, Stopwatch};
use crate::modes::Modes;
use crate::pace::Pacer;
use crate::plan::{DigestForm, Fault, Kind, Plan, Unit};
use crate::result::{CaseResult, RunResult, Status, now_rfc3339, write_atomic};

pub const NO_NODE: &str = "no Bee node given (--bee-url and --batch-id)";

/// Iterations slower than this get their own progress line.
const SLOW_ITERATION: Duration = Duration::from_secs(1);

/// A plan and how this process runs it.
pub struct Run {
    pub plan: Plan,
    pub modes: Modes,
    /// BEE_BENCH_PACE_FD; idle when the mode is not set.
    pub pace: Pacer,
    pub out: PathBuf,
}

/// The runtime the units run on. CPU iterations run on the blocking pool; its idle threads are
/// kept rather than retired after tokio's default 10 s, so that no thread exits or starts while
/// an iteration is being counted (under valgrind an iteration can take that long, and a thread's
/// teardown in the timed region moved its count by 0.05%). While counting instructions or
/// allocations, one blocking thread runs every setup and iteration: each thread has its own
/// malloc arena and cache, and an iteration landing on another thread than the last one moved
/// its instruction count by up to 2% (bee-rs `manifest.lookup-large`); a thread's first use of
/// a lazily allocated thread-local would likewise land in some iteration instead of the warmup.
pub fn runtime(modes: &Modes) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder
        .enable_all()
        .thread_keep_alive(Duration::from_secs(24 * 3600));
    if modes.count || modes.allocs {
        builder.max_blocking_threads(1);
    }
    builder.build()
}

/// Run every unit in plan order, writing `result` after each one.
pub async fn run(run: &Run, cx: &Context, result: &mut RunResult) -> std::io::Result<()> {
    write_atomic(&run.out, result)?;
    let n = run.plan.units.len();
    for (k, unit) in run.plan.units.iter().enumerate() {
        let mut progress = Progress::start(k + 1, n, unit);
        let outcome = run_unit(run, cx, unit, &mut progress).await;
        progress.finish(&outcome);
        result.cases.push(outcome);
        measure::release_memory();
        write_atomic(&run.out, result)?;
    }
    result.finished_at = Some(now_rfc3339());
    write_atomic(&run.out, result)
}

async fn run_unit(run: &Run, cx: &Context, unit: &Unit, progress: &mut Progress) -> CaseResult {
    let counting_allocs = run.modes.allocs && unit.kind == Kind::Cpu;
    let mut r = CaseResult {
        id: unit.id.clone(),
        kind: unit.kind,
        param: unit.param.clone(),
        status: Status::Ok,
        skip_reason: None,
        error: None,
        warmup: 0,
        samples_ns: Vec::new(),
        cpu_ns: Vec::new(),
        peak_rss_bytes: None,
        work: unit.work.clone(),
        digest: None,
        allocs: counting_allocs.then(Vec::new),
        alloc_bytes: counting_allocs.then(Vec::new),
    };
    if unit.kind == Kind::Net && cx.node().is_none() {
        r.status = Status::Skipped;
        r.skip_reason = Some(NO_NODE.into());
        return r;
    }

    let steps = Steps {
        unit,
        pace: &run.pace,
        count: run.modes.count && unit.kind == Kind::Cpu,
        allocs: counting_allocs,
    };
    crate::panics::take();
    let rss = PeakRss::start();
    let timeout = unit.timeout();
    let outcome =
        tokio::time::timeout_at(Instant::now() + timeout, steps.run(cx, &mut r, progress)).await;
    r.peak_rss_bytes = rss.finish();
    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(e)) => match e.downcast_ref::<Skip>() {
            Some(skip) => {
                r.status = Status::Skipped;
                r.skip_reason = Some(skip.0.clone());
                r.peak_rss_bytes = None;
                r.allocs = None;
                r.alloc_bytes = None;
            }
            None => fail(&mut r, format!("{e:#}")),
        },
        Err(_) => {
            let done = format!(
                "{} of {} timed iterations done",
                r.samples_ns.len(),
                unit.iters
            );
            fail(
                &mut r,
                format!("timed out after {} s ({done})", timeout.as_secs_f64()),
            );
        }
    }
    r
}

fn fail(r: &mut CaseResult, error: String) {
    r.status = Status::Failed;
    r.error = Some(if error.is_empty() {
        "failed without a message".into()
    } else {
        error
    });
}

/// What one unit runs, in order.
struct Steps<'a> {
    unit: &'a Unit,
    pace: &'a Pacer,
    /// BEE_BENCH_COUNT: bracket each timed iteration of a CPU unit with callgrind requests.
    count: bool,
    /// BEE_BENCH_ALLOCS: count the allocations of each timed iteration of a CPU unit.
    allocs: bool,
}

impl Steps<'_> {
    /// Setup, digest, warmup, timed iterations. Samples go into `r` as they are taken, so a
    /// timeout that drops this future keeps them.
    async fn run(
        &self,
        cx: &Context,
        r: &mut CaseResult,
        progress: &mut Progress,
    ) -> anyhow::Result<()> {
        let u = self.unit;
        let mut bench = contained(cases::setup(&u.id, cx, &u.param)).await?;

        r.digest = digest(u, cx, &mut bench).await?;

        for w in 0..u.warmup {
            self.pace.wait(u.unit, w);
            iterate(&mut bench, Sink::discard(), Timing::default()).await?;
            detached_panic()?;
            r.warmup += 1;
        }

        for i in 0..u.iters {
            let step = u.warmup + i;
            self.pace.wait(u.unit, step);
            if i == 0 {
                inject_fault(u.fault).await?;
            }
            let timing = Timing {
                slowdown: u.slowdown,
                counted: self.count.then_some((u.unit, step)),
                alloc_extra: self.allocs.then_some(u.alloc_extra),
            };
            let done = iterate(&mut bench, Sink::discard(), timing).await?;
            let sample = done.sample;
            r.samples_ns.push(sample.wall_ns);
            r.cpu_ns.push(sample.cpu_ns);
            if let (Some(a), Some(allocs), Some(bytes)) =
                (done.allocs, &mut r.allocs, &mut r.alloc_bytes)
            {
                allocs.push(a.count);
                bytes.push(a.bytes);
            }
            detached_panic()?;
            // Counting runs are slow and few: every iteration is said, so none looks skipped.
            if self.count || sample.wall_ns >= SLOW_ITERATION.as_nanos() as u64 {
                progress.iteration(i + 1, u.iters, sample);
            }
        }
        Ok(())
    }
}

async fn inject_fault(fault: Option<Fault>) -> anyhow::Result<()> {
    match fault {
        None => {}
        Some(Fault::Throw) => bail!("BEE_BENCH_FAULT: injected error in the timed iteration"),
        Some(Fault::Hang) => std::future::pending::<()>().await,
        Some(Fault::Reject) => crate::panics::leak_from_detached_task().await,
    }
    Ok(())
}

/// The unit's digest: one untimed evaluation on the plan's digest param, reusing the unit's own
/// setup when the two params are the same.
async fn digest(unit: &Unit, cx: &Context, bench: &mut Bench) -> anyhow::Result<Option<String>> {
    let Some(plan) = &unit.digest else {
        return Ok(None);
    };
    if let Bench::Net(net) = &*bench
        && net.output.is_none()
    {
        return Ok(None);
    }
    let output = if plan.param == unit.param {
        run_collecting(bench).await?
    } else {
        run_collecting(&mut contained(cases::setup(&unit.id, cx, &plan.param)).await?).await?
    };
    Ok(Some(match plan.form {
        DigestForm::Value => hex::encode(output),
        DigestForm::Sha256Concat => hex::encode(Sha256::digest(&output)),
    }))
}

/// A future's panic as an error of the case.
async fn contained<T>(f: impl Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
    AssertUnwindSafe(f)
        .catch_unwind()
        .await
        .map_err(|p| anyhow!("panic: {}", crate::panics::payload_message(p.as_ref())))?
}

/// A panic in a task the case detached fails the case, as an unhandled rejection would.
fn detached_panic() -> anyhow::Result<()> {
    match crate::panics::take() {
        Some(message) => bail!("panic in a detached task: {message}"),
        None => Ok(()),
    }
}

/// The operation once, untimed, with its outputs collected for the digest; a net case's output
/// is its own untimed evaluation (e.g. the reference of an unsalted upload).
async fn run_collecting(bench: &mut Bench) -> anyhow::Result<Vec<u8>> {
    if let Bench::Net(net) = bench
        && let Some(output) = &mut net.output
    {
        return contained(output()).await;
    }
    let done = iterate(bench, Sink::collect(), Timing::default()).await?;
    done.sink
        .into_output()
        .ok_or_else(|| anyhow!("the operation collected no output"))
}

/// What a timed iteration adds around the operation; the default (warmups, digests) adds nothing.
#[derive(Clone, Copy, Debug, Default)]
struct Timing {
    /// `slowdown`: spin this fraction of the operation's own time (or count) inside the region.
    slowdown: f64,
    /// BEE_BENCH_COUNT: the (unit, step) under which callgrind dumps exactly this region.
    counted: Option<(usize, u32)>,
    /// BEE_BENCH_ALLOCS: count the region's allocations, padded by this fraction (`alloc_extra`).
    alloc_extra: Option<f64>,
}

struct Iteration {
    sample: Sample,
    allocs: Option<Allocs>,
    sink: Sink,
}

/// One iteration: the clocks are read immediately around the operation (and the slowdown
/// spin, which the hook places inside the timed region); allocations are counted over the same
/// region. Net units are only timed.
async fn iterate(bench: &mut Bench, sink: Sink, t: Timing) -> anyhow::Result<Iteration> {
    match bench {
        Bench::Cpu(op) => {
            let op = op.clone();
            tokio::task::spawn_blocking(move || {
                let mut sink = sink;
                if t.counted.is_some() {
                    count::settle();
                    count::start();
                }
                let region = t.alloc_extra.map(|_| Region::open());
                let clock = Stopwatch::start();
                let done = op(&mut sink);
                let extra = region.as_ref().zip(t.alloc_extra).map(|(r, f)| r.extra(f));
                if t.counted.is_none() {
                    slow_down(&clock, t.slowdown);
                }
                let sample = clock.stop();
                let allocs = region.map(Region::close);
                drop(extra);
                if let Some((unit, step)) = t.counted {
                    count::stop(unit, step);
                    if t.slowdown > 0.0 {
                        count::slow_down(t.slowdown, unit, step)?;
                    }
                }
                done?;
                Ok(Iteration {
                    sample,
                    allocs,
                    sink,
                })
            })
            .await
            .map_err(crate::panics::join_error)?
        }
        Bench::Net(net) => {
            let operation = (net.op)();
            let clock = Stopwatch::start();
            contained(operation).await?;
            slow_down(&clock, t.slowdown);
            Ok(Iteration {
                sample: clock.stop(),
                allocs: None,
                sink,
            })
        }
    }
}

fn slow_down(clock: &Stopwatch, fraction: f64) {
    if fraction > 0.0 {
        measure::spin(clock.elapsed().mul_f64(fraction));
    }
}

/// Progress on stderr: `[k/n] <id> <label> ...` then the outcome on the same line, with a line
/// of its own for each iteration over a second.
struct Progress {
    head: String,
    open: bool,
}

impl Progress {
    fn start(k: usize, n: usize, unit: &Unit) -> Self {
        let head = format!("[{k}/{n}] {} {}", unit.id, unit.label());
        eprint!("{head} ...");
        let _ = std::io::stderr().flush();
        Self { head, open: true }
    }

    fn iteration(&mut self, i: u32, n: u32, s: Sample) {
        if std::mem::take(&mut self.open) {
            eprintln!();
        }
        eprintln!("    iteration {i}/{n}: {}", ms(s.wall_ns));
    }

    fn finish(&mut self, r: &CaseResult) {
        let outcome = match r.status {
            Status::Ok => {
                let mut sorted = r.samples_ns.clone();
                sorted.sort_unstable();
                // The median as the engine's report takes it (mean of the two middles), in ns.
                let mid = sorted.len() / 2;
                let median = match sorted.len() {
                    0 => "-".into(),
                    n if n % 2 == 1 => format!("{} ns", sorted[mid]),
                    _ => format!(
                        "{:.1} ns",
                        (sorted[mid - 1] as f64 + sorted[mid] as f64) / 2.0
                    ),
                };
                format!("ok, {} iterations, median {median}", sorted.len())
            }
            Status::Skipped => format!("skipped: {}", r.skip_reason.as_deref().unwrap_or("")),
            Status::Failed => format!("FAILED: {}", r.error.as_deref().unwrap_or("")),
        };
        if self.open {
            eprintln!(" {outcome}");
        } else {
            eprintln!("{} ... {outcome}", self.head);
        }
    }
}

fn ms(ns: u64) -> String {
    format!("{:.3} ms", ns as f64 / 1e6)
}

#[cfg(test)]
mod tests;
