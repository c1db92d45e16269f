//! bee-bench runner for bee-rs. The contract (command line, result file, timing rules, hooks)
//! is runners/README.md, shared with runners/js and runners/go.

mod cases;
mod count;
mod fixtures;
mod harness;
mod hooks;
mod measure;
mod pace;
mod panics;
mod result;
mod spec;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::cases::{Context, Node};
use crate::fixtures::Fixtures;
use crate::harness::Plan;
use crate::hooks::Hooks;
use crate::pace::Pacer;
use crate::result::{BeeInfo, ClientInfo, Host, RunResult, SpecRef};
use crate::spec::Profile;

const USAGE: &str = "\
usage: bee-bench-rs run --spec FILE [--case GLOB]... [--profile quick|full] [--large]
                        [--fixtures DIR] [--bee-url URL --batch-id HEX] --out FILE
       bee-bench-rs info";

/// Exit 2: bad arguments or a bad spec.
struct Usage(String);

struct RunArgs {
    spec: PathBuf,
    cases: Vec<String>,
    profile: Profile,
    large: bool,
    fixtures: Option<PathBuf>,
    node: Option<(String, String)>,
    out: PathBuf,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("info") if args.len() == 1 => info(),
        Some("run") => parse_run(&args[1..]).and_then(run),
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
        "runner": spec::RUNNER,
        "client": ClientInfo::of_build(),
        "runtime": result::runtime(),
        "host": Host::current(),
    });
    println!("{info}");
    Ok(ExitCode::SUCCESS)
}

fn parse_run(args: &[String]) -> Result<RunArgs, Usage> {
    let (mut spec, mut out, mut fixtures, mut bee_url, mut batch_id) =
        (None, None, None, None, None);
    let (mut cases, mut profile, mut large) = (Vec::new(), Profile::Quick, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        if flag == "--large" {
            if inline.is_some() {
                return Err(Usage("--large takes no value".into()));
            }
            large = true;
            continue;
        }
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| Usage(format!("{flag} needs a value")))
        };
        match flag {
            "--spec" => spec = Some(PathBuf::from(value()?)),
            "--case" => cases.push(value()?),
            "--profile" => {
                let v = value()?;
                profile = Profile::parse(&v)
                    .ok_or_else(|| Usage(format!("--profile {v}: expected quick or full")))?;
            }
            "--fixtures" => fixtures = Some(PathBuf::from(value()?)),
            "--bee-url" => bee_url = Some(value()?),
            "--batch-id" => batch_id = Some(value()?),
            "--out" => out = Some(PathBuf::from(value()?)),
            _ => return Err(Usage(format!("unknown argument {arg:?}"))),
        }
    }
    let node = match (bee_url, batch_id) {
        (Some(url), Some(batch)) => Some((url, batch)),
        (None, None) => None,
        _ => return Err(Usage("--bee-url and --batch-id go together".into())),
    };
    Ok(RunArgs {
        spec: spec.ok_or_else(|| Usage("--spec is required".into()))?,
        out: out.ok_or_else(|| Usage("--out is required".into()))?,
        cases,
        profile,
        large,
        fixtures,
        node,
    })
}

fn run(args: RunArgs) -> Result<ExitCode, Usage> {
    let hooks = Hooks::from_env().map_err(Usage)?;
    // Before anything else is opened: see Pacer::inherit.
    let pace = hooks.pace_fd.map_or_else(Pacer::default, Pacer::inherit);
    let loaded = spec::load(&args.spec).map_err(|e| Usage(format!("bad spec: {e}")))?;
    let selected = spec::select(&loaded.spec, &args.cases).map_err(Usage)?;
    if let Some(dir) = &args.fixtures {
        // Only net.bzz.upload-from-disk writes here, and bee-rs skips it; the folder is still
        // made so a bad path is reported the same way in every runner.
        std::fs::create_dir_all(dir)
            .map_err(|e| Usage(format!("--fixtures {}: {e}", dir.display())))?;
    }
    let call_timeout = harness::case_timeout(&hooks, &loaded.spec, args.profile) / 2;
    let node = match &args.node {
        Some((url, batch)) => {
            Some(Node::new(url, batch, call_timeout).map_err(|e| Usage(format!("{e:#}")))?)
        }
        None => None,
    };

    panics::install_hook();
    // CPU iterations run on the blocking pool; its idle threads are kept rather than retired
    // after tokio's default 10 s, so that no thread exits or starts while an iteration is being
    // counted (under valgrind an iteration can take that long, and a thread's teardown in the
    // timed region moved its count by 0.05%).
    // While counting, one blocking thread runs every setup and iteration: each thread has its
    // own malloc arena and cache, and an iteration landing on another thread than the last one
    // moved its count by up to 2% (bee-rs `manifest.lookup-large`).
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder
        .enable_all()
        .thread_keep_alive(Duration::from_secs(24 * 3600));
    if hooks.count {
        builder.max_blocking_threads(1);
    }
    let runtime = builder.build().expect("tokio runtime");
    let plan = Plan {
        spec: &loaded.spec,
        cases: selected,
        profile: args.profile,
        large: args.large,
        hooks,
        pace,
        out: args.out,
    };
    let written = runtime.block_on(async {
        let bee = match &node {
            Some(node) => Some(BeeInfo {
                url: node.url.clone(),
                version: bee_version(node).await,
            }),
            None => None,
        };
        let mut result = RunResult {
            schema: result::SCHEMA,
            runner: spec::RUNNER,
            client: ClientInfo::of_build(),
            bee,
            spec: SpecRef {
                hash: loaded.hash.clone(),
                profile: args.profile.as_str(),
            },
            host: Host::current(),
            started_at: result::now_rfc3339(),
            finished_at: None,
            cases: Vec::new(),
        };
        let cx = Context::new(Fixtures::new(loaded.spec.fixtures.clone()), node);
        harness::run(&plan, &cx, &mut result).await
    });
    // Abandoned (timed-out) blocking work must not hold the exit.
    runtime.shutdown_background();
    match written {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("bee-bench-rs: cannot write {}: {e}", plan.out.display());
            Ok(ExitCode::FAILURE)
        }
    }
}

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
