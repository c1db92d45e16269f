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

/// A small plan in the shape `bee-bench plan --runner rs` prints, whose units run in
/// milliseconds. Its unit numbers are a shard's: neither from 0 nor contiguous.
fn mini_plan() -> Value {
    let unit = |unit: u32, id: &str, param: Value, digest: Value, work: Value| {
        let kind = &id[..3];
        json!({ "unit": unit, "id": id, "kind": kind, "param": param, "digest": digest,
                "work": work, "warmup": 1, "iters": 3, "timeout_s": 60 })
    };
    json!({
        "schema": "bee-bench/plan@1",
        "runner": "rs",
        "profile": "quick",
        "spec_hash": "dfb34ccd80e5c37f1fd0c649040b6bf1916b18cee3883d753e59d85300a94d40",
        "fixtures": { "data_label": "bee-bench/fixture", "key_label": "bee-bench/key",
                      "digest_label": "bee-bench/digest", "chunk_payload_bytes": 4096 },
        "units": [
            unit(3, "cpu.harness.noop", json!({ "label": "empty", "count": 1 }), Value::Null, json!({ "ops": 1 })),
            unit(5, "cpu.keccak.bulk", json!({ "label": "1 KiB", "bytes": 2048 }),
                 json!({ "form": "value", "param": { "label": "1 KiB", "bytes": 1048576 } }), json!({ "bytes": 2048 })),
            unit(8, "cpu.identity.create", json!({ "label": "2", "count": 2 }),
                 json!({ "form": "sha256-concat", "param": { "label": "2", "count": 4 } }), json!({ "ops": 2 })),
            unit(13, "net.stamps.list", json!({ "label": "1 call", "count": 1 }), Value::Null, json!({ "ops": 1 })),
        ]
    })
}

/// The mini plan's units whose id matches `keep`.
fn only(mut plan: Value, keep: impl Fn(&str) -> bool) -> Value {
    plan["units"]
        .as_array_mut()
        .unwrap()
        .retain(|u| keep(u["id"].as_str().unwrap()));
    plan
}

/// The unit of `plan` with this id.
fn unit<'a>(plan: &'a mut Value, id: &str) -> &'a mut Value {
    plan["units"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|u| u["id"] == id)
        .unwrap_or_else(|| panic!("{id} missing"))
}

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("bee-bench-rs-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    /// `plan` written into the folder.
    fn plan(&self, plan: &Value) -> PathBuf {
        let path = self.0.join("plan.json");
        std::fs::write(&path, serde_json::to_vec_pretty(plan).unwrap()).unwrap();
        path
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

fn run(dir: &Dir, plan: &Value, args: &[&str], env: &[(&str, &str)]) -> Output {
    command(dir, plan, args, env).output().unwrap()
}

/// `run --plan <plan> --out <out> <args>`, with none of the engine's variables but `env`.
fn command(dir: &Dir, plan: &Value, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("run")
        .arg("--plan")
        .arg(dir.plan(plan))
        .arg("--out")
        .arg(dir.out())
        .args(args);
    for var in [
        "BEE_BENCH_PACE_FD",
        "BEE_BENCH_COUNT",
        "BEE_BENCH_COUNT_DIR",
        "BEE_BENCH_ALLOCS",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    cmd
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Run with BEE_BENCH_PACE_FD on one end of a socket pair, as the engine does, granting
/// `turns` turns (all of them when None) and then closing our end for writing. Returns the
/// lines read and the run's output.
fn run_paced(dir: &Dir, plan: &Value, turns: Option<usize>) -> (Vec<String>, Output) {
    let (ours, theirs) = UnixStream::pair().unwrap();
    let fd = theirs.as_raw_fd();
    let mut cmd = command(dir, plan, &[], &[("BEE_BENCH_PACE_FD", &fd.to_string())]);
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

fn len(c: &Value, key: &str) -> usize {
    c[key].as_array().map_or(0, Vec::len)
}

#[test]
fn a_plan_runs_into_the_result_contract() {
    let dir = Dir::new("full");
    let out = run(&dir, &mini_plan(), &[], &[]);
    ok(&out);
    let r = result(&dir.out());
    assert_eq!(r["schema"], "bee-bench/result@1");
    assert_eq!(r["runner"], "rs");
    assert_eq!(r["client"]["name"], "bee-rs");
    assert!(r["bee"].is_null());
    assert_eq!(
        r["spec"],
        json!({ "hash": mini_plan()["spec_hash"], "profile": "quick" })
    );
    assert!(r["finished_at"].is_string());
    assert!(r.get("alloc_counter").is_none(), "not in allocation mode");
    let ids: Vec<_> = r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "cpu.harness.noop",
            "cpu.keccak.bulk",
            "cpu.identity.create",
            "net.stamps.list"
        ],
        "one case per unit, in plan order"
    );

    let bulk = case(&r, "cpu.keccak.bulk");
    assert_eq!(bulk["status"], "ok");
    assert_eq!(bulk["param"], json!({ "label": "1 KiB", "bytes": 2048 }));
    assert_eq!(bulk["work"], json!({ "bytes": 2048 }));
    assert_eq!(bulk["warmup"], 1);
    assert_eq!(len(bulk, "samples_ns"), 3);
    assert_eq!(len(bulk, "cpu_ns"), 3);
    assert!(bulk.get("allocs").is_none() && bulk.get("alloc_bytes").is_none());
    assert!(bulk["peak_rss_bytes"].as_u64().unwrap() > 0);
    // Keccak-256 of the first 1 MiB of the data fixture (the digest param), whatever the timed size.
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
        let mut plan = only(mini_plan(), |id| id.starts_with("cpu."));
        for u in plan["units"].as_array_mut().unwrap() {
            u["timeout_s"] = json!(1);
        }
        unit(&mut plan, "cpu.keccak.bulk")["fault"] = json!(fault);
        let out = run(&dir, &plan, &[], &[]);
        ok(&out);
        let r = result(&dir.out());
        assert!(r["finished_at"].is_string(), "{fault}");
        assert_eq!(len(&r, "cases"), 3, "{fault}");
        let bulk = case(&r, "cpu.keccak.bulk");
        assert_eq!(bulk["status"], "failed", "{fault}");
        assert!(
            bulk["error"].as_str().unwrap().contains(error),
            "{fault}: {}",
            bulk["error"]
        );
        assert_eq!(len(bulk, "samples_ns"), len(bulk, "cpu_ns"));
        assert_eq!(case(&r, "cpu.harness.noop")["status"], "ok", "{fault}");
        assert_eq!(
            case(&r, "cpu.identity.create")["status"],
            "ok",
            "{fault}: the case after the broken one"
        );
    }
}

#[test]
fn iterations_and_slowdown_come_from_the_plan() {
    let dir = Dir::new("hooks");
    let mut plan = only(mini_plan(), |id| {
        id == "cpu.keccak.bulk" || id == "cpu.identity.create"
    });
    unit(&mut plan, "cpu.keccak.bulk")["iters"] = json!(7);
    unit(&mut plan, "cpu.keccak.bulk")["slowdown"] = json!(1000);
    ok(&run(&dir, &plan, &[], &[]));
    let r = result(&dir.out());
    let bulk = case(&r, "cpu.keccak.bulk");
    assert_eq!(len(bulk, "samples_ns"), 7);
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
    let identity = case(&r, "cpu.identity.create");
    assert_eq!(len(identity, "samples_ns"), 3);
    assert!(
        min(identity, "samples_ns") < 1000 * 1000,
        "no slowdown on the unit without one"
    );
}

#[test]
fn pacing_names_the_plan_unit_numbers() {
    let dir = Dir::new("pace");
    let plan = only(mini_plan(), |id| id != "cpu.keccak.bulk");
    let (lines, out) = run_paced(&dir, &plan, None);
    ok(&out);
    // Units 3 (noop) and 8 (identity): one warmup and three timed iterations each; unit 13 is
    // skipped (no node) and runs no iteration.
    let want: Vec<String> = [3, 8]
        .iter()
        .flat_map(|unit| (0..4).map(move |step| format!("ready {unit} {step}\n")))
        .collect();
    assert_eq!(lines, want);
    assert_eq!(
        len(
            case(&result(&dir.out()), "cpu.identity.create"),
            "samples_ns"
        ),
        3
    );

    // The engine lets go after two turns: the runner runs on by itself.
    let dir = Dir::new("pace-eof");
    let (lines, out) = run_paced(&dir, &plan, Some(2));
    ok(&out);
    assert_eq!(lines, want[..3]);
    let r = result(&dir.out());
    for id in ["cpu.harness.noop", "cpu.identity.create"] {
        assert_eq!(case(&r, id)["status"], "ok", "{id}");
        assert_eq!(len(case(&r, id), "samples_ns"), 3, "{id}");
    }
}

/// Under callgrind (when valgrind is installed; otherwise the test says so and passes), each
/// timed iteration of a CPU unit is dumped as `bee-bench <unit> <step>` with the plan's unit
/// number, and nothing else is.
#[test]
fn counting_dumps_name_the_plan_unit_numbers() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        eprintln!("valgrind is not installed: counting dumps not checked");
        return;
    }
    let dir = Dir::new("count");
    let dumps = dir.0.join("dumps");
    std::fs::create_dir_all(&dumps).unwrap();
    let plan = only(mini_plan(), |id| id != "cpu.keccak.bulk");
    let mut cmd = Command::new("valgrind");
    cmd.args(["--tool=callgrind", "--instr-atstart=no", "--quiet"])
        .arg(format!(
            "--callgrind-out-file={}/callgrind.out.%p",
            dumps.display()
        ))
        .arg(BIN)
        .args(["run", "--plan"])
        .arg(dir.plan(&plan))
        .arg("--out")
        .arg(dir.out())
        .env("BEE_BENCH_COUNT", "1")
        .env("GLIBC_TUNABLES", "glibc.malloc.arena_max=1");
    ok(&cmd.output().unwrap());
    let mut triggers: Vec<String> = std::fs::read_dir(&dumps)
        .unwrap()
        .filter_map(|e| {
            let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
            text.lines()
                .find_map(|l| l.strip_prefix("desc: Trigger: Client Request: "))
                .map(str::to_string)
        })
        .collect();
    triggers.sort();
    // Steps 1-3 are the timed iterations (step 0 is the warmup).
    let want: Vec<String> = [3, 8]
        .iter()
        .flat_map(|unit| (1..4).map(move |step| format!("bee-bench {unit} {step}")))
        .collect();
    assert_eq!(triggers, want);
}

#[test]
fn allocation_mode_counts_cpu_iterations_repeatably() {
    let mut plan = only(mini_plan(), |id| id != "cpu.keccak.bulk");
    let file_root = json!({ "unit": 9, "id": "cpu.bmt.file-root", "kind": "cpu",
        "param": { "label": "40 KiB", "bytes": 40960 }, "digest": null, "work": { "bytes": 40960 },
        "warmup": 1, "iters": 3, "timeout_s": 60 });
    plan["units"].as_array_mut().unwrap().insert(2, file_root);
    let counted = |plan: &Value| {
        let dir = Dir::new("allocs");
        ok(&run(&dir, plan, &[], &[("BEE_BENCH_ALLOCS", "1")]));
        result(&dir.out())
    };
    let r = counted(&plan);
    assert!(
        r["alloc_counter"]["method"]
            .as_str()
            .unwrap()
            .contains("global_allocator")
    );
    for id in [
        "cpu.harness.noop",
        "cpu.identity.create",
        "cpu.bmt.file-root",
    ] {
        let c = case(&r, id);
        assert_eq!(len(c, "allocs"), len(c, "samples_ns"), "{id}");
        assert_eq!(len(c, "alloc_bytes"), len(c, "samples_ns"), "{id}");
    }
    assert_eq!(case(&r, "cpu.harness.noop")["allocs"][0], 0);
    let net = case(&r, "net.stamps.list");
    assert!(net.get("allocs").is_none(), "net units are never counted");

    let root = case(&r, "cpu.bmt.file-root");
    let (allocs, bytes) = (
        root["allocs"][0].as_u64().unwrap(),
        root["alloc_bytes"][0].as_u64().unwrap(),
    );
    assert!(
        allocs > 0 && bytes > 40960,
        "a chunk tree is built: {allocs} / {bytes}"
    );
    for i in 0..3 {
        assert_eq!(root["allocs"][i], allocs, "iteration {i}");
        assert_eq!(root["alloc_bytes"][i], bytes, "iteration {i}");
    }
    let again = counted(&plan);
    for id in ["cpu.identity.create", "cpu.bmt.file-root"] {
        assert_eq!(case(&again, id)["allocs"], case(&r, id)["allocs"], "{id}");
        assert_eq!(
            case(&again, id)["alloc_bytes"],
            case(&r, id)["alloc_bytes"],
            "{id}"
        );
    }

    unit(&mut plan, "cpu.bmt.file-root")["alloc_extra"] = json!(0.25);
    let padded = counted(&plan);
    let padded_root = case(&padded, "cpu.bmt.file-root");
    assert_eq!(padded_root["allocs"][0], allocs + 1);
    assert_eq!(
        padded_root["alloc_bytes"][0],
        bytes + (bytes as f64 * 0.25).round() as u64
    );
    assert_eq!(
        case(&padded, "cpu.identity.create")["alloc_bytes"],
        case(&r, "cpu.identity.create")["alloc_bytes"],
        "alloc_extra pads its own unit only"
    );
}

#[test]
fn alloc_extra_does_nothing_outside_allocation_mode() {
    let dir = Dir::new("alloc-extra-off");
    let mut plan = only(mini_plan(), |id| id == "cpu.identity.create");
    unit(&mut plan, "cpu.identity.create")["alloc_extra"] = json!(0.5);
    ok(&run(&dir, &plan, &[], &[]));
    let r = result(&dir.out());
    assert!(r.get("alloc_counter").is_none());
    assert!(case(&r, "cpu.identity.create").get("allocs").is_none());
}

/// Each kind of plan the runner cannot read: exit 2, the file and the field named.
#[test]
fn a_bad_plan_exits_2_naming_the_field() {
    let dir = Dir::new("bad-plan");
    type Edit = fn(&mut Value);
    // One line per plan fault: what, the edit, what stderr names after `bad plan FILE: `.
    #[rustfmt::skip]
    // Enums are types; the spec_hash pattern, id/kind match and param labels are the engine's.
    let cases: [(&str, Edit, &str); 14] = [
        ("schema", |p| p["schema"] = json!("bee-bench/plan@2"), "schema: expected \"bee-bench/plan@1\""),
        ("runner", |p| p["runner"] = json!("go"), "runner: the plan is for runner \"go\""),
        ("profile", |p| p["profile"] = json!("slow"), "profile: unknown variant `slow`"),
        ("top-level field", |p| p["extra"] = json!(1), "extra: unknown field `extra`"),
        ("fixtures", |p| p["fixtures"]["chunk_payload_bytes"] = json!(-1), "fixtures.chunk_payload_bytes: invalid value: integer `-1`, expected usize"),
        ("iters 0", |p| p["units"][3]["iters"] = json!(0), "units[3].iters: must be a positive integer"),
        ("iters text", |p| p["units"][1]["iters"] = json!("3"), "units[1].iters: invalid type: string \"3\", expected u32"),
        ("warmup", |p| p["units"][1]["warmup"] = json!(-1), "units[1].warmup: invalid value: integer `-1`, expected u32"),
        ("timeout", |p| p["units"][1]["timeout_s"] = json!(-1), "units[1].timeout_s: must be a positive number of seconds"),
        ("missing field", |p| drop(p["units"][2].as_object_mut().unwrap().remove("timeout_s")), "units[2]: missing field `timeout_s`"),
        ("digest is required", |p| drop(p["units"][0].as_object_mut().unwrap().remove("digest")), "units[0]: missing field `digest`"),
        ("unit field", |p| p["units"][2]["frob"] = json!(true), "units[2].frob: unknown field `frob`"),
        ("unit order", |p| p["units"][2]["unit"] = json!(5), "units[2].unit: unit numbers must increase (5 then 5)"),
        ("fault", |p| p["units"][1]["fault"] = json!("explode"), "units[1].fault: unknown variant `explode`"),
    ];
    for (what, edit, needle) in cases {
        let mut plan = mini_plan();
        edit(&mut plan);
        let out = run(&dir, &plan, &[], &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
        let file = dir.plan(&plan);
        assert!(
            stderr.contains(&format!("bad plan {}: {needle}", file.display())),
            "{what}: {stderr}"
        );
    }
    std::fs::write(dir.plan(&mini_plan()), "{ not json").unwrap();
    let out = Command::new(BIN)
        .args(["run", "--out"])
        .arg(dir.out())
        .arg("--plan")
        .arg(dir.0.join("plan.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad plan"));
    assert!(!dir.out().exists(), "nothing is written for a bad plan");
}

#[test]
fn bad_arguments_exit_2_naming_the_flag() {
    let dir = Dir::new("usage");
    let plan = mini_plan();
    for (args, needle) in [
        (
            vec!["--spec", "spec/bench-spec.json"],
            "--spec is not a runner flag",
        ),
        (
            vec!["--case", "cpu.*"],
            "pass --plan FILE, made by `bee-bench plan --runner rs`",
        ),
        (vec!["--profile", "full"], "--profile is not a runner flag"),
        (vec!["--large"], "--large is not a runner flag"),
        (
            vec!["--bee-url", "http://127.0.0.1:1633"],
            "--bee-url and --batch-id",
        ),
        (vec!["--frob"], "--frob"),
    ] {
        let out = run(&dir, &plan, &args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(needle),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = Command::new(BIN)
        .args(["run", "--out"])
        .arg(dir.out())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--plan is required"));
    for (var, value) in [("BEE_BENCH_PACE_FD", "-1"), ("BEE_BENCH_ALLOCS", "yes")] {
        let out = run(&dir, &plan, &[], &[(var, value)]);
        assert_eq!(out.status.code(), Some(2), "{var}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("{var}={value}")));
    }
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
