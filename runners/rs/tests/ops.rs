//! `bee-bench-rs ops` as a driver sees it: a process fed one JSON line at a time, against a fake
//! Bee node (tests/fake_bee). Each answer is awaited before the next line is written, so an
//! answer left unflushed would stall the test (bounded: 60 s per answer).

mod fake_bee;

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use fake_bee::{BATCH, FakeBee, HANG};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const BIN: &str = env!("CARGO_BIN_EXE_bee-bench-rs");
const ANSWER_WITHIN: Duration = Duration::from_secs(60);

struct Ops {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Ops {
    fn start(bee: &FakeBee) -> Self {
        let mut child = Command::new(BIN)
            .args(["ops", "--bee-url", &bee.url, "--batch-id", BATCH])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
        }
    }

    fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(ANSWER_WITHIN)
            .expect("an answer line within 60 s");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    /// Write one raw line and read its answer.
    fn send(&mut self, line: &str) -> Value {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        self.next()
    }

    fn ask(&mut self, op: Value) -> Value {
        self.send(&op.to_string())
    }

    /// Close stdin; the exit status, 30 s at most.
    fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "ops did not exit at EOF");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Ops {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The payload rule, written out here on its own: the first `size` bytes of
/// SHA-256(seed ‖ u64be(0)) ‖ SHA-256(seed ‖ u64be(1)) ‖ …
fn expected_payload(seed_hex: &str, size: usize) -> Vec<u8> {
    let seed = hex::decode(seed_hex).unwrap();
    let mut out = Vec::new();
    let mut i = 0u64;
    while out.len() < size {
        let mut block = seed.clone();
        block.extend_from_slice(&i.to_be_bytes());
        out.extend_from_slice(&Sha256::digest(&block));
        i += 1;
    }
    out.truncate(size);
    out
}

fn ok_with_ms(answer: &Value, id: &str) {
    assert_eq!(answer["id"], id, "{answer}");
    assert_eq!(answer["ok"], true, "{answer}");
    assert!(
        answer["ms"].as_f64().is_some_and(|ms| ms >= 0.0),
        "{answer}"
    );
}

#[test]
fn ready_then_an_upload_and_its_download_round_trip() {
    let bee = FakeBee::start();
    let mut ops = Ops::start(&bee);
    let ready = ops.next();
    assert_eq!(ready["ready"], true);
    assert_eq!(ready["runner"], "rs");
    assert_eq!(ready["client"]["name"], "bee-rs");
    assert!(
        ready["client"]["version"]
            .as_str()
            .is_some_and(|v| !v.is_empty())
    );

    let seed = "ab".repeat(32);
    let up = ops.ask(json!({ "op": "upload", "id": "u17", "size": 10000, "seed": seed }));
    ok_with_ms(&up, "u17");
    assert_eq!(up["tag"], 77);
    let payload = expected_payload(&seed, 10000);
    // Python's hashlib, for the same seed and size.
    assert_eq!(
        hex::encode(Sha256::digest(&payload)),
        "eaefe05f1479ef85a5deff13f1e3faa485bcb09288b50f099d4d4b8337e4b5dc"
    );
    // The fake's reference is the SHA-256 of the body it received.
    assert_eq!(up["reference"], hex::encode(Sha256::digest(&payload)));
    let sent = bee.requests().pop().unwrap();
    assert_eq!(
        (sent.method.as_str(), sent.path.as_str()),
        ("POST", "/bytes")
    );
    assert_eq!(sent.body, payload);
    for absent in ["swarm-redundancy-level", "swarm-deferred-upload"] {
        assert_eq!(sent.header(absent), None, "absent params send no {absent}");
    }

    let reference = up["reference"].as_str().unwrap();
    let down = ops.ask(
        json!({ "op": "download", "id": "d3", "reference": reference,
                              "timeout_ms": 60000 }),
    );
    ok_with_ms(&down, "d3");
    assert_eq!(down["bytes"], 10000);
    assert_eq!(down["sha256"], hex::encode(Sha256::digest(&payload)));
    assert!(down.get("error").is_none(), "{down}");

    assert!(ops.finish().success());
}

#[test]
fn params_reach_the_node_through_bee_rs() {
    let bee = FakeBee::start();
    let mut ops = Ops::start(&bee);
    ops.next();
    let seed = "01".repeat(32);
    let up = ops.ask(
        json!({ "op": "upload", "id": "u", "size": 70, "seed": seed, "level": 2,
                            "deferred": true, "endpoint": "bzz" }),
    );
    ok_with_ms(&up, "u");
    let sent = bee.requests().pop().unwrap();
    assert_eq!(sent.path, "/bzz?name=payload.bin");
    assert_eq!(
        sent.header("content-type"),
        Some("application/octet-stream")
    );
    assert_eq!(sent.header("swarm-redundancy-level"), Some("2"));
    assert_eq!(sent.header("swarm-deferred-upload"), Some("true"));
    assert_eq!(sent.header("swarm-postage-batch-id"), Some(BATCH));

    let reference = up["reference"].as_str().unwrap();
    let down = ops.ask(json!({ "op": "download", "id": "d", "reference": reference,
                              "endpoint": "bzz", "strategy": "RACE", "fallback": false }));
    ok_with_ms(&down, "d");
    assert_eq!(down["bytes"], 70);
    let got = bee.requests().pop().unwrap();
    assert_eq!(got.path, format!("/bzz/{reference}"));
    assert_eq!(got.header("swarm-redundancy-strategy"), Some("3"));
    assert_eq!(got.header("swarm-redundancy-fallback-mode"), Some("false"));
}

#[test]
fn bad_lines_are_answered_and_the_next_line_still_runs() {
    let bee = FakeBee::start();
    let mut ops = Ops::start(&bee);
    ops.next();
    let answer = ops.send("this is not json");
    assert_eq!(answer["id"], Value::Null);
    assert_eq!(answer["ok"], false);
    assert!(
        answer["error"].as_str().unwrap().starts_with("bad op: "),
        "{answer}"
    );

    let answer = ops.ask(json!({ "op": "frobnicate", "id": "f1" }));
    assert_eq!(answer["id"], "f1");
    assert_eq!(answer["ok"], false);
    let error = answer["error"].as_str().unwrap();
    assert!(
        error.starts_with("bad op: ") && error.contains("frobnicate"),
        "{answer}"
    );

    let answer = ops.ask(json!({ "op": "upload", "id": "u9", "size": 1, "seed": "00",
                                "level": 7 }));
    assert_eq!(
        (answer["id"].as_str(), answer["ok"].as_bool()),
        (Some("u9"), Some(false))
    );
    assert!(
        answer["error"].as_str().unwrap().starts_with("bad op: "),
        "{answer}"
    );

    let answer = ops.ask(json!({ "op": "download", "id": "d9", "reference": "xyz" }));
    assert_eq!(answer["ok"], false);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .starts_with("bad op: reference"),
        "{answer}"
    );

    let up = ops.ask(json!({ "op": "upload", "id": "u10", "size": 5, "seed": "00".repeat(32) }));
    ok_with_ms(&up, "u10");
    assert!(ops.finish().success());
}

#[test]
fn a_download_past_its_timeout_is_aborted() {
    let bee = FakeBee::start();
    let mut ops = Ops::start(&bee);
    ops.next();
    let answer = ops.ask(json!({ "op": "download", "id": "slow", "reference": HANG,
                                "timeout_ms": 300 }));
    assert_eq!(answer["id"], "slow");
    assert_eq!(answer["ok"], false);
    assert_eq!(answer["error"], "timeout after 300 ms");
    // A timer cannot fire early (no upper bound: that would be a timing assertion).
    assert!(answer["ms"].as_f64().unwrap() >= 300.0, "{answer}");
    // The process goes on.
    let up = ops.ask(json!({ "op": "upload", "id": "after", "size": 1, "seed": "00".repeat(32) }));
    ok_with_ms(&up, "after");
}

#[test]
fn a_non_2xx_answer_is_a_failure_with_its_status() {
    let bee = FakeBee::start();
    let mut ops = Ops::start(&bee);
    ops.next();
    let missing = "cd".repeat(32);
    let answer = ops.ask(json!({ "op": "download", "id": "gone", "reference": missing }));
    assert_eq!(answer["ok"], false);
    assert!(answer["ms"].as_f64().is_some(), "{answer}");
    assert_eq!(
        answer["error"],
        format!("Bee answered 404 to GET /bytes/{missing}: Not Found")
    );

    let answer = ops.ask(json!({ "op": "upload", "id": "direct", "size": 10,
                                "seed": "00".repeat(32), "deferred": false }));
    assert_eq!(answer["ok"], false);
    assert_eq!(
        answer["error"],
        "Bee answered 400 to POST /bytes: operation not supported in dev mode"
    );
    assert_eq!(
        bee.requests()
            .pop()
            .unwrap()
            .header("swarm-deferred-upload"),
        Some("false")
    );
}

#[test]
fn ops_without_its_node_flags_exits_2() {
    let out = Command::new(BIN)
        .args(["ops", "--bee-url", "http://127.0.0.1:9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--batch-id"));
}
