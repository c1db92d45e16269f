//! The timing rules of runners/README.md: per case and param, untimed setup and digest, warmup,
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

use crate::cases::{self, Bench, Context, Sink, Skip};
use crate::count;
use crate::hooks::{Fault, Hooks};
use crate::measure::{self, PeakRss, Sample, Stopwatch};
use crate::pace::Pacer;
use crate::result::{CaseResult, RunResult, Status, now_rfc3339, write_atomic};
use crate::spec::{
    Case, DigestForm, Kind, Param, Profile, Spec, digest_param, effective_param, label,
};

pub const NO_NODE: &str = "no Bee node given (--bee-url and --batch-id)";

/// Iterations slower than this get their own progress line.
const SLOW_ITERATION: Duration = Duration::from_secs(1);

pub struct Plan<'a> {
    pub spec: &'a Spec,
    pub cases: Vec<&'a Case>,
    pub profile: Profile,
    pub large: bool,
    pub hooks: Hooks,
    /// BEE_BENCH_PACE_FD; idle when the hook is not set.
    pub pace: Pacer,
    pub out: PathBuf,
}

/// The budget of one case and param: the hook's override or the profile's case_timeout_s.
pub fn case_timeout(hooks: &Hooks, spec: &Spec, profile: Profile) -> Duration {
    hooks
        .case_timeout
        .unwrap_or_else(|| Duration::from_secs_f64(spec.profiles.get(profile).case_timeout_s))
}

/// Run every selected case and param in spec order, writing `result` after each one.
pub async fn run(plan: &Plan<'_>, cx: &Context, result: &mut RunResult) -> std::io::Result<()> {
    let entries: Vec<(&Case, &Param)> = plan
        .cases
        .iter()
        .flat_map(|c| c.params(plan.profile, plan.large).map(move |p| (*c, p)))
        .collect();
    write_atomic(&plan.out, result)?;
    for (k, (case, param)) in entries.iter().enumerate() {
        let mut progress = Progress::start(k + 1, entries.len(), case, param);
        let outcome = run_case(plan, cx, k, case, param, &mut progress).await;
        progress.finish(&outcome);
        result.cases.push(outcome);
        measure::release_memory();
        write_atomic(&plan.out, result)?;
    }
    result.finished_at = Some(now_rfc3339());
    write_atomic(&plan.out, result)
}

async fn run_case(
    plan: &Plan<'_>,
    cx: &Context,
    unit: usize,
    case: &Case,
    spec_param: &Param,
    progress: &mut Progress,
) -> CaseResult {
    let param = effective_param(spec_param);
    let mut r = CaseResult {
        id: case.id.clone(),
        kind: case.kind,
        work: case.work(&param).into(),
        param,
        status: Status::Ok,
        skip_reason: None,
        error: None,
        warmup: 0,
        samples_ns: Vec::new(),
        cpu_ns: Vec::new(),
        peak_rss_bytes: None,
        digest: None,
    };
    if case.kind == Kind::Net && cx.node().is_none() {
        r.status = Status::Skipped;
        r.skip_reason = Some(NO_NODE.into());
        return r;
    }

    let profile = plan.spec.profiles.get(plan.profile);
    let timeout = case_timeout(&plan.hooks, plan.spec, plan.profile);
    let steps = Steps {
        case,
        spec_param,
        unit,
        pace: &plan.pace,
        warmup: match case.kind {
            Kind::Cpu => profile.warmup.cpu,
            Kind::Net => profile.warmup.net,
        },
        iters: plan
            .hooks
            .iters
            .unwrap_or_else(|| case.iters(plan.spec, plan.profile)),
        fault: plan.hooks.fault(&case.id),
        slowdown: plan.hooks.slowdown(&case.id),
        count: plan.hooks.count && case.kind == Kind::Cpu,
    };

    crate::panics::take();
    let rss = PeakRss::start();
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
            }
            None => fail(&mut r, format!("{e:#}")),
        },
        Err(_) => {
            let done = format!(
                "{} of {} timed iterations done",
                r.samples_ns.len(),
                steps.iters
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

/// What one case and param runs, in order.
struct Steps<'a> {
    case: &'a Case,
    spec_param: &'a Param,
    /// This case/param's index in the plan, for pacing.
    unit: usize,
    pace: &'a Pacer,
    warmup: u32,
    iters: u32,
    fault: Option<Fault>,
    slowdown: f64,
    /// BEE_BENCH_COUNT: bracket each timed iteration of a CPU case with callgrind requests.
    count: bool,
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
        let id = self.case.id.as_str();
        let mut bench = contained(cases::setup(id, cx, &r.param)).await?;

        r.digest = digest(self.case, self.spec_param, cx, &r.param, &mut bench).await?;

        for w in 0..self.warmup {
            self.pace.wait(self.unit, w);
            iterate(&mut bench, Sink::discard(), 0.0, None).await?;
            detached_panic()?;
            r.warmup += 1;
        }

        for i in 0..self.iters {
            self.pace.wait(self.unit, self.warmup + i);
            if i == 0 {
                self.inject_fault().await?;
            }
            let counted = self.count.then_some((self.unit, self.warmup + i));
            let (sample, _) = iterate(&mut bench, Sink::discard(), self.slowdown, counted).await?;
            r.samples_ns.push(sample.wall_ns);
            r.cpu_ns.push(sample.cpu_ns);
            detached_panic()?;
            if sample.wall_ns >= SLOW_ITERATION.as_nanos() as u64 {
                progress.iteration(i + 1, self.iters, sample);
            }
        }
        Ok(())
    }

    async fn inject_fault(&self) -> anyhow::Result<()> {
        match self.fault {
            None => {}
            Some(Fault::Throw) => bail!("BEE_BENCH_FAULT: injected error in the timed iteration"),
            Some(Fault::Hang) => std::future::pending::<()>().await,
            Some(Fault::Reject) => crate::panics::leak_from_detached_task().await,
        }
        Ok(())
    }
}

/// The case's digest: one untimed evaluation on the digest param (the effective param with
/// `digest_with` over it), reusing the case's own setup when the two params are the same.
async fn digest(
    case: &Case,
    spec_param: &Param,
    cx: &Context,
    param: &Param,
    bench: &mut Bench,
) -> anyhow::Result<Option<String>> {
    let Some(spec) = &case.digest else {
        return Ok(None);
    };
    if let Bench::Net(net) = &*bench
        && net.output.is_none()
    {
        return Ok(None);
    }
    let input = digest_param(spec_param);
    let output = if &input == param {
        run_collecting(bench).await?
    } else {
        run_collecting(&mut contained(cases::setup(&case.id, cx, &input)).await?).await?
    };
    Ok(Some(match spec.form {
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
    let (_, sink) = iterate(bench, Sink::collect(), 0.0, None).await?;
    sink.into_output()
        .ok_or_else(|| anyhow!("the operation collected no output"))
}

/// One iteration: the clocks are read immediately around the operation (and the slowdown
/// spin, which the hook places inside the timed region). `counted`: the (unit, step) under
/// which callgrind dumps the instructions of exactly that region.
async fn iterate(
    bench: &mut Bench,
    sink: Sink,
    slowdown: f64,
    counted: Option<(usize, u32)>,
) -> anyhow::Result<(Sample, Sink)> {
    match bench {
        Bench::Cpu(op) => {
            let op = op.clone();
            tokio::task::spawn_blocking(move || {
                let mut sink = sink;
                if counted.is_some() {
                    count::settle();
                    count::start();
                }
                let clock = Stopwatch::start();
                let done = op(&mut sink);
                if counted.is_none() {
                    slow_down(&clock, slowdown);
                }
                let sample = clock.stop();
                if let Some((unit, step)) = counted {
                    count::stop(unit, step);
                    if slowdown > 0.0 {
                        count::slow_down(slowdown, unit, step)?;
                    }
                }
                done?;
                Ok((sample, sink))
            })
            .await
            .map_err(crate::panics::join_error)?
        }
        Bench::Net(net) => {
            let operation = (net.op)();
            let clock = Stopwatch::start();
            contained(operation).await?;
            slow_down(&clock, slowdown);
            Ok((clock.stop(), sink))
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
    fn start(k: usize, n: usize, case: &Case, param: &Param) -> Self {
        let head = format!("[{k}/{n}] {} {}", case.id, label(param));
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
                format!(
                    "ok, {} iterations, median {}",
                    sorted.len(),
                    sorted.get(sorted.len() / 2).map_or("-".into(), |m| ms(*m))
                )
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
mod tests {
    use super::*;
    use crate::fixtures::Fixtures;
    use crate::spec::Kind;

    /// The quick-profile digests. Keccak, chunk addresses, the BMT root and the signer
    /// addresses equal runners/go's, whose values were reproduced by an independent Python
    /// implementation; the manifest root is bee-rs's own (bee-rs's offline manifest carries no
    /// per-file metadata, bee-go's carries Content-Type and Filename).
    const QUICK_DIGESTS: [(&str, &str); 9] = [
        (
            "cpu.keccak.chunk-hash",
            "07ca447bd3881f0650284426136a85d1cdf876c6c707249058042f5e540b3f1d",
        ),
        (
            "cpu.keccak.parallel",
            "07ca447bd3881f0650284426136a85d1cdf876c6c707249058042f5e540b3f1d",
        ),
        (
            "cpu.keccak.bulk",
            "89f6e8a44741ac138d37f0f6ccf6a684831fef105455c88603008f8fbc72ea6c",
        ),
        (
            "cpu.bmt.file-root",
            "4dd8436c25ddfaf5074f5364b7698a3c080350a14ec52840e8ba6fe777c54363",
        ),
        (
            "cpu.ecdsa.sign-1000",
            "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c",
        ),
        (
            "cpu.ecdsa.verify-1000",
            "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c",
        ),
        (
            "cpu.identity.create",
            "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c",
        ),
        (
            "cpu.manifest.hash-50files",
            "0b94b65ea96d381135c3c2604fc33bcc75ea8d366427d28080a20c8839adc550",
        ),
        (
            "cpu.manifest.lookup-large",
            "4c84884022e699851abfbf93b321433aa298a4f5d10a0eac20c23e058e317226",
        ),
    ];

    #[tokio::test(flavor = "multi_thread")]
    async fn quick_profile_digests() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/bench-spec.json");
        let spec = crate::spec::load(&path).unwrap().spec;
        let cx = Context::new(Fixtures::new(spec.fixtures.clone()), None);
        let mut seen = 0;
        for case in spec
            .cases
            .iter()
            .filter(|c| c.kind == Kind::Cpu && c.digest.is_some())
        {
            let Some((_, want)) = QUICK_DIGESTS.iter().find(|(id, _)| *id == case.id) else {
                // The one digest case every runner skips.
                assert_eq!(case.id, "cpu.bmt.encrypted-file-root");
                continue;
            };
            let spec_param = &case.params.quick[0];
            let input = digest_param(spec_param);
            // Set up on the digest param itself: the quick counts are slow in a debug build.
            let mut bench = cases::setup(&case.id, &cx, &input).await.unwrap();
            let got = digest(case, spec_param, &cx, &input, &mut bench)
                .await
                .unwrap();
            assert_eq!(got.as_deref(), Some(*want), "{}", case.id);
            seen += 1;
        }
        assert_eq!(seen, QUICK_DIGESTS.len());
    }
}
