//! bee-bench runner for bee-rs. The contract (command line, result file, timing rules, hooks)
//! is runners/README.md, shared with runners/js and runners/go.

mod alloc;
mod cases;
mod count;
mod fixtures;
mod harness;
mod measure;
mod modes;
mod ops;
mod pace;
mod panics;
mod plan;
mod result;
mod transfer;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::cases::{Context, Node};
use crate::fixtures::Fixtures;
use crate::harness::Run;
use crate::modes::Modes;
use crate::pace::Pacer;
use crate::result::{AllocCounter, BeeInfo, ClientInfo, Host, RunResult, SpecRef};

// Counts only inside a region of allocation mode; otherwise the system allocator (alloc.rs).
#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

const USAGE: &str = "\
usage: bee-bench-rs run --plan FILE --out FILE [--fixtures DIR] [--bee-url URL --batch-id HEX]
       bee-bench-rs ops --bee-url URL --batch-id HEX   (JSON lines on stdin, answers on stdout)
       bee-bench-rs info
The plan is made by `bee-bench plan --runner rs [--profile P] [--case GLOB]... [--large]`.";

/// Exit 2: bad arguments or a bad plan.
struct Usage(String);

struct RunArgs {
    plan: PathBuf,
    fixtures: Option<PathBuf>,
    node: Option<(String, String)>,
    out: PathBuf,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("info") if args.len() == 1 => info(),
        Some("run") => parse_run(&args[1..]).and_then(run),
        Some("ops") => {
            parse_ops(&args[1..]).and_then(|(url, batch)| ops::run(&url, &batch).map_err(Usage))
        }
        Some("info") => Err(Usage("info takes no arguments".into())),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        Some(other) => Err(Usage(format!("unknown command {other:?}"))),
        None => Err(Usage("missing command".into())),
    };
    outcome.unwrap_or_else(|Usage(message)| {
        eprintln!("bee-bench-rs: {message}\n{USAGE}");
        ExitCode::from(2)
    })
}

fn info() -> Result<ExitCode, Usage> {
    let info = serde_json::json!({
        "runner": plan::RUNNER,
        "client": ClientInfo::of_build(),
        "runtime": result::runtime(),
        "host": Host::current(),
    });
    println!("{info}");
    Ok(ExitCode::SUCCESS)
}

fn parse_run(args: &[String]) -> Result<RunArgs, Usage> {
    let (mut plan, mut out, mut fixtures, mut bee_url, mut batch_id) =
        (None, None, None, None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| Usage(format!("{flag} needs a value")))
        };
        match flag {
            "--plan" => plan = Some(PathBuf::from(value()?)),
            "--fixtures" => fixtures = Some(PathBuf::from(value()?)),
            "--bee-url" => bee_url = Some(value()?),
            "--batch-id" => batch_id = Some(value()?),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--spec" | "--case" | "--profile" | "--large" => {
                return Err(Usage(format!(
                    "{flag} is not a runner flag any more: pass --plan FILE, made by `bee-bench plan --runner rs` (which takes --profile, --case and --large)"
                )));
            }
            _ => return Err(Usage(format!("unknown argument {arg:?}"))),
        }
    }
    let node = match (bee_url, batch_id) {
        (Some(url), Some(batch)) => Some((url, batch)),
        (None, None) => None,
        _ => return Err(Usage("--bee-url and --batch-id go together".into())),
    };
    Ok(RunArgs {
        plan: plan.ok_or_else(|| Usage("--plan is required".into()))?,
        out: out.ok_or_else(|| Usage("--out is required".into()))?,
        fixtures,
        node,
    })
}

/// `ops --bee-url URL --batch-id HEX`, both required.
fn parse_ops(args: &[String]) -> Result<(String, String), Usage> {
    let (mut bee_url, mut batch_id) = (None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let slot = match flag {
            "--bee-url" => &mut bee_url,
            "--batch-id" => &mut batch_id,
            _ => return Err(Usage(format!("ops: unknown argument {arg:?}"))),
        };
        let value = inline
            .or_else(|| it.next().cloned())
            .ok_or_else(|| Usage(format!("{flag} needs a value")))?;
        *slot = Some(value);
    }
    match (bee_url, batch_id) {
        (Some(url), Some(batch)) => Ok((url, batch)),
        _ => Err(Usage("ops needs --bee-url and --batch-id".into())),
    }
}

fn run(args: RunArgs) -> Result<ExitCode, Usage> {
    let modes = Modes::from_env().map_err(Usage)?;
    // Before anything else is opened: see Pacer::inherit.
    let pace = modes.pace_fd.map_or_else(Pacer::default, Pacer::inherit);
    let plan = plan::load(&args.plan).map_err(Usage)?;
    if let Some(dir) = &args.fixtures {
        // Only net.bzz.upload-from-disk writes here, and bee-rs skips it; the folder is still
        // made so a bad path is reported the same way in every runner.
        std::fs::create_dir_all(dir)
            .map_err(|e| Usage(format!("--fixtures {}: {e}", dir.display())))?;
    }
    let node = match &args.node {
        Some((url, batch)) => Some(
            Node::new(url, batch, Some(call_timeout(&plan)))
                .map_err(|e| Usage(format!("{e:#}")))?,
        ),
        None => None,
    };

    panics::install_hook();
    if modes.count {
        count::note_harness_thread();
    }
    let runtime = harness::runtime(&modes).expect("tokio runtime");
    let cx = Context::new(Fixtures::new(plan.fixtures.clone()), node);
    let mut result = RunResult {
        schema: result::SCHEMA,
        runner: plan::RUNNER,
        client: ClientInfo::of_build(),
        bee: None,
        spec: SpecRef {
            hash: plan.spec_hash.clone(),
            profile: plan.profile,
        },
        host: Host::current(),
        started_at: result::now_rfc3339(),
        finished_at: None,
        cases: Vec::new(),
        alloc_counter: modes.allocs.then_some(AllocCounter {
            method: alloc::METHOD,
        }),
    };
    let run = Run {
        plan,
        modes,
        pace,
        out: args.out,
    };
    let written = runtime.block_on(async {
        if let Some(node) = cx.node() {
            result.bee = Some(BeeInfo {
                url: node.url.clone(),
                version: bee_version(node).await,
            });
        }
        harness::run(&run, &cx, &mut result).await
    });
    // Abandoned (timed-out) blocking work must not hold the exit.
    runtime.shutdown_background();
    match written {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("bee-bench-rs: cannot write {}: {e}", run.out.display());
            Ok(ExitCode::FAILURE)
        }
    }
}

/// Every call to the node is bounded by half the case budget. The engine gives every unit the
/// same budget; should they differ, the smallest of the net units' bounds every call.
fn call_timeout(plan: &plan::Plan) -> Duration {
    let net = plan.units.iter().filter(|u| u.kind == plan::Kind::Net);
    net.map(plan::Unit::timeout)
        .min()
        .map_or(NO_NET_CALL_TIMEOUT, |t| t / 2)
}

/// Without net units the only call is the version check, which waits 10 s at most anyway.
const NO_NET_CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// The node's version from GET /health; a node that does not answer still gets a result file,
/// its net cases failing one by one.
async fn bee_version(node: &Node) -> String {
    match tokio::time::timeout(Duration::from_secs(10), node.version()).await {
        Ok(Ok(version)) => version,
        Ok(Err(e)) => {
            eprintln!("bee-bench-rs: GET /health on {}: {e:#}", node.url);
            "unknown".into()
        }
        Err(_) => {
            eprintln!(
                "bee-bench-rs: GET /health on {} did not answer in 10 s",
                node.url
            );
            "unknown".into()
        }
    }
}
