//! The real-node params of the upload and download cases (`redundancy_level`, `deferred`,
//! `strategy`, `fallback`) in a `run`, against a fake Bee node (tests/fake_bee): what reaches the
//! node, the digest at the unit's level, the direct-upload skip in the node's words, and the
//! byte-for-byte check before a download case's timing.

mod fake_bee;

use std::path::PathBuf;
use std::process::Command;

use fake_bee::{BATCH, FakeBee};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const BIN: &str = env!("CARGO_BIN_EXE_bee-bench-rs");

fn plan(units: Vec<(&str, Value, bool)>) -> Value {
    let units: Vec<Value> = units
        .into_iter()
        .enumerate()
        .map(|(i, (id, param, digest))| {
            let digest = if digest {
                json!({ "form": "value", "param": param })
            } else {
                Value::Null
            };
            json!({ "unit": i, "id": id, "kind": "net", "param": param, "digest": digest,
                    "work": { "bytes": param["bytes"] }, "warmup": 1, "iters": 2, "timeout_s": 60 })
        })
        .collect();
    json!({
        "schema": "bee-bench/plan@1", "runner": "rs", "profile": "quick",
        "spec_hash": "0".repeat(64),
        "fixtures": { "data_label": "bee-bench/fixture", "key_label": "bee-bench/key",
                      "digest_label": "bee-bench/digest", "chunk_payload_bytes": 4096 },
        "units": units,
    })
}

/// Run `plan` against `bee`; the result's cases.
fn run(bee: &FakeBee, name: &str, plan: &Value) -> Vec<Value> {
    let dir = std::env::temp_dir().join(format!("bee-bench-rs-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (plan_file, out): (PathBuf, PathBuf) = (dir.join("plan.json"), dir.join("result.json"));
    std::fs::write(&plan_file, plan.to_string()).unwrap();
    let status = Command::new(BIN)
        .arg("run")
        .arg("--plan")
        .arg(&plan_file)
        .arg("--out")
        .arg(&out)
        .args(["--bee-url", &bee.url, "--batch-id", BATCH])
        .env_remove("BEE_BENCH_PACE_FD")
        .status()
        .unwrap();
    assert!(status.success());
    let result: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    result["cases"].as_array().unwrap().clone()
}

#[test]
fn upload_params_reach_the_node_and_the_digest_is_that_levels_reference() {
    let bee = FakeBee::start();
    let cases = run(
        &bee,
        "upload-params",
        &plan(vec![
            (
                "net.bytes.upload",
                json!({ "label": "L2", "bytes": 5000, "redundancy_level": 2 }),
                true,
            ),
            (
                "net.bzz.upload",
                json!({ "label": "L4", "bytes": 3000, "redundancy_level": 4, "deferred": true }),
                true,
            ),
        ]),
    );
    for c in &cases {
        assert_eq!(c["status"], "ok", "{c}");
    }
    let requests = bee.requests();
    let posts = |path: &str| -> Vec<&fake_bee::Request> {
        requests
            .iter()
            .filter(|r| r.method == "POST" && r.path.starts_with(path))
            .collect()
    };
    // The digest upload, the warmup and two timed iterations, all at the unit's level.
    let bytes = posts("/bytes");
    assert_eq!(bytes.len(), 4);
    for r in &bytes {
        assert_eq!(r.header("swarm-redundancy-level"), Some("2"));
        assert_eq!(r.header("swarm-deferred-upload"), None, "absent: no header");
    }
    let bzz = posts("/bzz");
    assert_eq!(bzz.len(), 4);
    for r in &bzz {
        assert_eq!(r.header("swarm-redundancy-level"), Some("4"));
        assert_eq!(r.header("swarm-deferred-upload"), Some("true"));
    }
    // The digest is what the node answered to the unsalted upload (the fake's reference is the
    // SHA-256 of the body).
    let unsalted = bytes
        .iter()
        .find(|r| r.body.len() == 5000)
        .expect("the unsalted upload");
    assert_eq!(
        cases[0]["digest"],
        hex::encode(Sha256::digest(&unsalted.body))
    );
}

#[test]
fn a_refused_direct_upload_is_skipped_in_the_nodes_words() {
    let bee = FakeBee::start();
    let cases = run(
        &bee,
        "direct",
        &plan(vec![
            (
                "net.bytes.upload",
                json!({ "label": "direct", "bytes": 100, "deferred": false }),
                true,
            ),
            (
                "net.bzz.upload",
                json!({ "label": "direct", "bytes": 100, "deferred": false }),
                true,
            ),
        ]),
    );
    for c in &cases {
        assert_eq!(c["status"], "skipped", "{c}");
        assert_eq!(
            c["skip_reason"],
            format!(
                "the node refuses direct uploads: Bee answered 400 to POST {}: operation not supported in dev mode",
                if c["id"] == "net.bytes.upload" {
                    "/bytes"
                } else {
                    "/bzz"
                }
            )
        );
    }
    // One probe each, nothing more.
    assert_eq!(
        bee.requests().iter().filter(|r| r.method == "POST").count(),
        2
    );
}

#[test]
fn download_cases_check_the_content_before_timing_with_the_units_params() {
    let bee = FakeBee::start();
    let units = || {
        plan(vec![
            (
                "net.bytes.download",
                json!({ "label": "L1 DATA", "bytes": 3000, "redundancy_level": 1,
                                          "strategy": "DATA", "fallback": true }),
                false,
            ),
            (
                "net.bzz.download",
                json!({ "label": "L3 PROX", "bytes": 2500, "redundancy_level": 3,
                                        "strategy": "PROX", "fallback": false }),
                false,
            ),
        ])
    };
    let cases = run(&bee, "download-params", &units());
    for c in &cases {
        assert_eq!(c["status"], "ok", "{c}");
        assert_eq!(c["samples_ns"].as_array().unwrap().len(), 2);
    }
    let requests = bee.requests();
    let up = |path: &str| {
        requests
            .iter()
            .find(|r| r.method == "POST" && r.path.starts_with(path))
            .unwrap()
    };
    assert_eq!(up("/bytes").header("swarm-redundancy-level"), Some("1"));
    assert_eq!(up("/bytes").header("swarm-deferred-upload"), Some("true"));
    assert_eq!(up("/bzz").header("swarm-redundancy-level"), Some("3"));
    let gets = |path: &str| -> Vec<&fake_bee::Request> {
        requests
            .iter()
            .filter(|r| r.method == "GET" && r.path.starts_with(path))
            .collect()
    };
    // The verification download, the warmup and two timed iterations.
    let bytes = gets("/bytes/");
    assert_eq!(bytes.len(), 4);
    for r in &bytes {
        assert_eq!(r.header("swarm-redundancy-strategy"), Some("1"));
        assert_eq!(r.header("swarm-redundancy-fallback-mode"), Some("true"));
    }
    let bzz = gets("/bzz/");
    assert_eq!(bzz.len(), 4);
    for r in &bzz {
        assert_eq!(r.header("swarm-redundancy-strategy"), Some("2"));
        assert_eq!(r.header("swarm-redundancy-fallback-mode"), Some("false"));
    }

    // A wrong byte fails the unit before any timing.
    bee.corrupt(true);
    let cases = run(&bee, "download-corrupt", &units());
    for (c, call, len) in [
        (&cases[0], "GET /bytes", 3008),
        (&cases[1], "GET /bzz", 2508),
    ] {
        assert_eq!(c["status"], "failed", "{c}");
        let error = c["error"].as_str().unwrap();
        assert!(
            error.contains(&format!("content mismatch on {call}: got {len} bytes")),
            "{error}"
        );
        assert!(
            error.ends_with(&format!("first difference at byte {}", len - 1)),
            "{error}"
        );
        assert_eq!(c["samples_ns"].as_array().unwrap().len(), 0);
    }
}

#[test]
fn a_bad_param_value_fails_the_unit_naming_the_param() {
    let bee = FakeBee::start();
    let cases = run(
        &bee,
        "bad-param",
        &plan(vec![(
            "net.bytes.download",
            json!({ "label": "x", "bytes": 10, "strategy": "FAST" }),
            false,
        )]),
    );
    assert_eq!(cases[0]["status"], "failed");
    let error = cases[0]["error"].as_str().unwrap();
    assert!(
        error.starts_with("param \"strategy\": unknown variant `FAST`"),
        "{error}"
    );
    assert!(
        bee.requests().iter().all(|r| r.method != "POST"),
        "nothing uploaded"
    );
}
