//! The runner as the engine sees it: a process, its exit code and its result file.

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::Shutdown;
use std::os::fd::AsRawFd as _;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_bee-bench-rs");

/// A small spec in the shape of spec/bench-spec.json whose cases run in milliseconds.
fn mini_spec() -> Value {
    let cpu = |id: &str, work: Value, digest: Value, param: Value| {
        json!({ "id": id, "kind": "cpu", "group": "cpu", "doc": "d", "work": work, "digest": digest,
                "params": { "quick": [param.clone()], "full": [param] } })
    };
    json!({
        "schema": "bee-bench/spec@1",
        "profiles": {
            "quick": { "iters": 3, "warmup": { "cpu": 1, "net": 1 }, "case_timeout_s": 60 },
            "full": { "iters": 3, "warmup": { "cpu": 1, "net": 1 }, "case_timeout_s": 60 }
        },
        "fixtures": { "data_label": "bee-bench/fixture", "key_label": "bee-bench/key",
                      "digest_label": "bee-bench/digest", "chunk_payload_bytes": 4096 },
        "groups": [{ "id": "cpu", "title": "CPU", "note": "n" }, { "id": "net", "title": "Net", "note": "n" }],
        "cases": [
            cpu("cpu.harness.noop", json!({ "ops": ["count"] }), Value::Null, json!({ "label": "empty", "count": 1 })),
            cpu("cpu.keccak.bulk", json!({ "ops": [], "bytes": ["bytes"] }), json!({ "doc": "d", "form": "value" }),
                json!({ "label": "1 KiB", "bytes": 1024, "per_runner": { "rs": { "bytes": 2048 } }, "digest_with": { "bytes": 1048576 } })),
            cpu("cpu.identity.create", json!({ "ops": ["count"] }), json!({ "doc": "d", "form": "sha256-concat" }),
                json!({ "label": "2", "count": 2, "digest_with": { "count": 4 } })),
            { "id": "net.stamps.list", "kind": "net", "group": "net", "doc": "d", "work": { "ops": ["count"] },
              "digest": null, "params": { "quick": [{ "label": "1 call", "count": 1 }], "full": [{ "label": "1 call", "count": 1 }] } }
        ]
    })
}

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("bee-bench-rs-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("spec.json"),
            serde_json::to_vec_pretty(&mini_spec()).unwrap(),
        )
        .unwrap();
        Self(dir)
    }

    fn spec(&self) -> PathBuf {
        self.0.join("spec.json")
    }

    fn out(&self) -> PathBuf {
        self.0.join("out/result.json")
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(dir: &Dir, args: &[&str], env: &[(&str, &str)]) -> Output {
    command(dir, args, env).output().unwrap()
}

fn command(dir: &Dir, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("run")
        .arg("--spec")
        .arg(dir.spec())
        .arg("--out")
        .arg(dir.out())
        .args(args);
    for var in [
        "BEE_BENCH_FAULT",
        "BEE_BENCH_SLOWDOWN",
        "BEE_BENCH_ITERS",
        "BEE_BENCH_CASE_TIMEOUT_S",
        "BEE_BENCH_PACE_FD",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    cmd
}

/// Run with BEE_BENCH_PACE_FD on one end of a socket pair, as the engine does, granting
/// `turns` turns (all of them when None) and then closing our end for writing. Returns the
/// lines read and the run's output.
fn run_paced(dir: &Dir, args: &[&str], turns: Option<usize>) -> (Vec<String>, Output) {
    let (ours, theirs) = UnixStream::pair().unwrap();
    let fd = theirs.as_raw_fd();
    let mut cmd = command(dir, args, &[("BEE_BENCH_PACE_FD", &fd.to_string())]);
    // SAFETY: fcntl is async-signal-safe; it clears close-on-exec on the child's copy only.
    unsafe {
        cmd.pre_exec(move || match libc::fcntl(fd, libc::F_SETFD, 0) {
            -1 => Err(std::io::Error::last_os_error()),
            _ => Ok(()),
        });
    }
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(theirs);
    let mut lines = Vec::new();
    let mut reader = BufReader::new(ours.try_clone().unwrap());
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        lines.push(line);
        if turns.is_some_and(|n| lines.len() > n) {
            ours.shutdown(Shutdown::Write).unwrap();
        } else {
            (&ours).write_all(b"g").unwrap();
        }
    }
    (lines, child.wait_with_output().unwrap())
}

fn result(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn case<'a>(r: &'a Value, id: &str) -> &'a Value {
    r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("{id} missing"))
}

#[test]
fn a_full_run_writes_the_result_contract() {
    let dir = Dir::new("full");
    let out = run(&dir, &[], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = result(&dir.out());
    assert_eq!(r["schema"], "bee-bench/result@1");
    assert_eq!(r["runner"], "rs");
    assert_eq!(r["client"]["name"], "bee-rs");
    assert!(r["bee"].is_null());
    assert_eq!(r["spec"]["profile"], "quick");
    assert_eq!(r["spec"]["hash"].as_str().unwrap().len(), 64);
    assert!(r["finished_at"].is_string());

    let bulk = case(&r, "cpu.keccak.bulk");
    assert_eq!(bulk["status"], "ok");
    assert_eq!(
        bulk["param"],
        json!({ "label": "1 KiB", "bytes": 2048 }),
        "per_runner.rs merged, digest_with not"
    );
    assert_eq!(bulk["work"], json!({ "bytes": 2048 }));
    assert_eq!(bulk["warmup"], 1);
    assert_eq!(bulk["samples_ns"].as_array().unwrap().len(), 3);
    assert_eq!(bulk["cpu_ns"].as_array().unwrap().len(), 3);
    assert!(bulk["peak_rss_bytes"].as_u64().unwrap() > 0);
    // Keccak-256 of the first 1 MiB of the data fixture, whatever the timed size.
    assert_eq!(
        bulk["digest"],
        "89f6e8a44741ac138d37f0f6ccf6a684831fef105455c88603008f8fbc72ea6c"
    );
    assert_eq!(
        case(&r, "cpu.identity.create")["digest"],
        "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c"
    );

    let noop = case(&r, "cpu.harness.noop");
    assert!(noop.get("digest").is_none());
    assert_eq!(noop["work"], json!({ "ops": 1 }));

    let net = case(&r, "net.stamps.list");
    assert_eq!(net["status"], "skipped");
    assert_eq!(
        net["skip_reason"],
        "no Bee node given (--bee-url and --batch-id)"
    );
    assert!(net["peak_rss_bytes"].is_null());
}

#[test]
fn a_broken_case_does_not_lose_the_others() {
    for (fault, error) in [
        ("throw", "injected error"),
        ("hang", "timed out after 1 s"),
        ("reject", "panic in a detached task"),
    ] {
        let dir = Dir::new(fault);
        let env = [
            ("BEE_BENCH_FAULT", &*format!("cpu.keccak.*:{fault}")),
            ("BEE_BENCH_CASE_TIMEOUT_S", "1"),
        ];
        let out = run(&dir, &["--case", "cpu.*"], &env);
        assert!(
            out.status.success(),
            "{fault}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r = result(&dir.out());
        assert!(r["finished_at"].is_string(), "{fault}");
        assert_eq!(
            r["cases"].as_array().unwrap().len(),
            3,
            "{fault}: only the cpu.* cases"
        );
        let bulk = case(&r, "cpu.keccak.bulk");
        assert_eq!(bulk["status"], "failed", "{fault}");
        assert!(
            bulk["error"].as_str().unwrap().contains(error),
            "{fault}: {}",
            bulk["error"]
        );
        assert_eq!(
            bulk["samples_ns"].as_array().unwrap().len(),
            bulk["cpu_ns"].as_array().unwrap().len()
        );
        assert_eq!(case(&r, "cpu.harness.noop")["status"], "ok", "{fault}");
        assert_eq!(
            case(&r, "cpu.identity.create")["status"],
            "ok",
            "{fault}: the case after the broken one"
        );
    }
}

#[test]
fn iteration_override_and_slowdown() {
    let dir = Dir::new("hooks");
    let env = [
        ("BEE_BENCH_ITERS", "7"),
        ("BEE_BENCH_SLOWDOWN", "cpu.keccak.bulk:1000"),
    ];
    let out = run(
        &dir,
        &["--case", "cpu.keccak.bulk", "--case", "cpu.identity.*"],
        &env,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = result(&dir.out());
    let bulk = case(&r, "cpu.keccak.bulk");
    let identity = case(&r, "cpu.identity.create");
    assert_eq!(bulk["samples_ns"].as_array().unwrap().len(), 7);
    let min = |c: &Value, key: &str| {
        c[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .min()
            .unwrap()
    };
    // A 2 KiB Keccak takes microseconds; 1000 times that again is spun on the CPU, inside timing.
    assert!(
        min(bulk, "samples_ns") > 1000 * 1000,
        "{}",
        bulk["samples_ns"]
    );
    assert!(min(bulk, "cpu_ns") > 0);
    assert_eq!(identity["samples_ns"].as_array().unwrap().len(), 7);
}

#[test]
fn pacing_announces_every_iteration_and_waits_for_its_turn() {
    let dir = Dir::new("pace");
    let args = [
        "--case",
        "cpu.harness.noop",
        "--case",
        "net.*",
        "--case",
        "cpu.identity.create",
    ];
    let (lines, out) = run_paced(&dir, &args, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Plan: noop (unit 0), identity (1), net.stamps.list (2, skipped: no iterations); one
    // warmup and three timed iterations each.
    let want: Vec<String> = [0, 1]
        .iter()
        .flat_map(|unit| (0..4).map(move |step| format!("ready {unit} {step}\n")))
        .collect();
    assert_eq!(lines, want);
    let r = result(&dir.out());
    assert_eq!(
        case(&r, "cpu.identity.create")["samples_ns"]
            .as_array()
            .unwrap()
            .len(),
        3
    );

    // The engine lets go after two turns: the runner runs on by itself.
    let dir = Dir::new("pace-eof");
    let (lines, out) = run_paced(&dir, &args, Some(2));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(lines, want[..3]);
    let r = result(&dir.out());
    for id in ["cpu.harness.noop", "cpu.identity.create"] {
        assert_eq!(case(&r, id)["status"], "ok", "{id}");
        assert_eq!(
            case(&r, id)["samples_ns"].as_array().unwrap().len(),
            3,
            "{id}"
        );
    }
}

#[test]
fn bad_arguments_exit_2_naming_the_flag() {
    let dir = Dir::new("usage");
    for (args, needle) in [
        (vec!["--case", "cpu.nope*"], "--case cpu.nope*"),
        (
            vec!["--bee-url", "http://127.0.0.1:1633"],
            "--bee-url and --batch-id",
        ),
        (vec!["--profile", "slow"], "--profile"),
        (vec!["--frob"], "--frob"),
    ] {
        let out = run(&dir, &args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(needle),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = run(&dir, &[], &[("BEE_BENCH_ITERS", "none")]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&dir, &[], &[("BEE_BENCH_PACE_FD", "-1")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("BEE_BENCH_PACE_FD=-1"));
    assert!(!dir.out().exists(), "nothing is written on a usage error");
}

#[test]
fn info_names_runner_client_runtime_and_host() {
    let out = Command::new(BIN).arg("info").output().unwrap();
    assert!(out.status.success());
    let info: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["runner"], "rs");
    assert_eq!(info["client"]["name"], "bee-rs");
    assert!(["registry", "path"].contains(&info["client"]["source"].as_str().unwrap()));
    assert!(info["runtime"].as_str().unwrap().starts_with("rustc "));
    assert!(info["host"]["cpus"].as_u64().unwrap() >= 1);
}
