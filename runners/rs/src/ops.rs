//! `bee-bench-rs ops --bee-url URL --batch-id HEX`: single uploads and downloads driven one JSON
//! line at a time (the experiment of issue 37 drives a runner through it; runners/README.md,
//! "ops"). After a `ready` line, every line read from stdin is answered by exactly one line on
//! stdout, in order, flushed at once; the process exits 0 at the end of its input. Progress and
//! problems of the process itself go to stderr.
//!
//! - upload `{"op":"upload","id","size","seed","level"?,"deferred"?,"endpoint"?}`: the payload
//!   (the first `size` bytes of SHA-256(seed ‖ u64be(0)) ‖ SHA-256(seed ‖ u64be(1)) ‖ …) is
//!   built before the clock starts; `ms` runs from the request until the reference is known.
//! - download `{"op":"download","id","reference","endpoint"?,"strategy"?,"fallback"?,"timeout_ms"?}`:
//!   the body is SHA-256-hashed as it arrives, never held; `ms` runs from the request to its last
//!   byte; past `timeout_ms` the download is dropped (its connection closed) and answered
//!   `timeout after N ms`.
//! - a line that is not JSON, names no known op or carries a bad or unknown field is answered
//!   `{"id":…,"ok":false,"error":"bad op: …"}`, and the next line is read.

use std::io::{BufRead as _, Write as _};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::anyhow;
use bee::swarm::Reference;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::cases::{Node, describe};
use crate::result::ClientInfo;
use crate::transfer::{self, Endpoint, Level, Strategy};

/// The single file name of a `/bzz` upload.
const FILE_NAME: &str = "payload.bin";

/// One input line.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Op {
    Upload(UploadOp),
    Download(DownloadOp),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UploadOp {
    id: String,
    size: u64,
    seed: Seed,
    #[serde(default)]
    level: Option<Level>,
    #[serde(default)]
    deferred: Option<bool>,
    #[serde(default)]
    endpoint: Endpoint,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DownloadOp {
    id: String,
    reference: String,
    #[serde(default)]
    endpoint: Endpoint,
    #[serde(default)]
    strategy: Option<Strategy>,
    #[serde(default)]
    fallback: Option<bool>,
    #[serde(default)]
    timeout_ms: Option<u64>,
}

/// 32 bytes given as 64 hex digits.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
struct Seed([u8; 32]);

impl TryFrom<String> for Seed {
    type Error = String;

    fn try_from(s: String) -> Result<Self, String> {
        let bytes = hex::decode(&s).map_err(|e| format!("a seed is 64 hex digits: {e}"))?;
        let bytes = bytes
            .try_into()
            .map_err(|b: Vec<u8>| format!("a seed is 64 hex digits, got {}", 2 * b.len()))?;
        Ok(Self(bytes))
    }
}

/// One output line; absent fields are omitted.
#[derive(Debug, Default, Serialize)]
struct Answer {
    id: Value,
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reference: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tag: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sha256: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl Answer {
    fn bad(id: Value, problem: impl std::fmt::Display) -> Self {
        Self {
            id,
            error: Some(format!("bad op: {problem}")),
            ..Default::default()
        }
    }

    fn failed(id: String, took: Duration, e: anyhow::Error) -> Self {
        Self {
            id: Value::String(id),
            ms: Some(ms(took)),
            error: Some(format!("{:#}", describe(e))),
            ..Default::default()
        }
    }
}

/// Milliseconds as a float, to the microsecond.
fn ms(d: Duration) -> f64 {
    (d.as_nanos() as f64 / 1e3).round() / 1e3
}

/// The first `size` bytes of SHA-256(seed ‖ u64be(0)) ‖ SHA-256(seed ‖ u64be(1)) ‖ …; an
/// error when that much memory cannot be had.
fn payload(seed: &[u8; 32], size: u64) -> anyhow::Result<Vec<u8>> {
    let size = usize::try_from(size).map_err(|_| anyhow!("size {size} is too large here"))?;
    let mut out = Vec::new();
    out.try_reserve_exact(size)
        .map_err(|e| anyhow!("cannot hold a payload of {size} bytes: {e}"))?;
    for i in 0u64.. {
        let left = size - out.len();
        if left == 0 {
            break;
        }
        let block = Sha256::new()
            .chain_update(seed)
            .chain_update(i.to_be_bytes())
            .finalize();
        out.extend_from_slice(&block[..left.min(block.len())]);
    }
    Ok(out)
}

/// Run the protocol on stdin/stdout until the end of stdin. Err: the arguments (exit 2).
pub fn run(url: &str, batch: &str) -> Result<ExitCode, String> {
    let node = Node::new(url, batch, None).map_err(|e| format!("{e:#}"))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the tokio runtime: {e}"))?;
    let served = serve(&runtime, &node);
    runtime.shutdown_background();
    Ok(match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bee-bench-rs ops: {e:#}");
            ExitCode::FAILURE
        }
    })
}

/// Lines are read on this thread, one at a time, and each is answered on the runtime before
/// the next is read: one operation at a time, timed alone.
fn serve(runtime: &tokio::runtime::Runtime, node: &Node) -> anyhow::Result<()> {
    let client = ClientInfo::of_build();
    let ready = serde_json::json!({
        "ready": true,
        "runner": crate::plan::RUNNER,
        "client": { "name": client.name, "version": client.version },
    });
    write_line(&ready)?;
    let mut stdin = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        if stdin.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let answer = runtime.block_on(answer(node, &line));
        write_line(&answer)?;
    }
}

/// One line to stdout, flushed: the driver reads each answer as soon as it is made.
fn write_line(value: &impl Serialize) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, value)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}

/// The answer to one input line (with or without its newline).
async fn answer(node: &Node, line: &[u8]) -> Answer {
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return Answer::bad(Value::Null, format!("not a JSON line: {e}")),
    };
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    match serde_json::from_value::<Op>(value) {
        Ok(Op::Upload(op)) => upload(node, op).await,
        Ok(Op::Download(op)) => download(node, op).await,
        Err(e) => Answer::bad(id, e),
    }
}

async fn upload(node: &Node, op: UploadOp) -> Answer {
    let body = match payload(&op.seed.0, op.size) {
        Ok(body) => body,
        Err(e) => return Answer::bad(Value::String(op.id), e),
    };
    let params = transfer::Upload {
        redundancy_level: op.level,
        deferred: op.deferred,
        encrypt: false,
    };
    let start = Instant::now();
    let uploaded = transfer::upload(
        &node.client,
        &node.batch,
        op.endpoint,
        body.into(),
        FILE_NAME,
        &params,
    )
    .await;
    let took = start.elapsed();
    match uploaded {
        Ok(u) => Answer {
            id: Value::String(op.id),
            ok: true,
            ms: Some(ms(took)),
            reference: Some(u.reference.to_hex()),
            tag: u.tag_uid,
            ..Default::default()
        },
        Err(e) => Answer::failed(op.id, took, e.into()),
    }
}

async fn download(node: &Node, op: DownloadOp) -> Answer {
    let reference = match Reference::from_hex(&op.reference) {
        Ok(r) => r,
        Err(e) => return Answer::bad(Value::String(op.id), format!("reference: {e}")),
    };
    if op.timeout_ms == Some(0) {
        return Answer::bad(Value::String(op.id), "timeout_ms must be positive");
    }
    let params = transfer::Download {
        redundancy_level: None,
        strategy: op.strategy,
        fallback: op.fallback,
    };
    let options = params.options();
    let start = Instant::now();
    let transfer = async {
        let mut response =
            transfer::download(&node.client, op.endpoint, &reference, &options).await?;
        let (mut hash, mut len) = (Sha256::new(), 0u64);
        while let Some(chunk) = response.chunk().await? {
            len += chunk.len() as u64;
            hash.update(&chunk);
        }
        anyhow::Ok((len, hash.finalize()))
    };
    let outcome = match op.timeout_ms {
        None => transfer.await,
        Some(limit) => tokio::time::timeout(Duration::from_millis(limit), transfer)
            .await
            .unwrap_or_else(|_| Err(anyhow!("timeout after {limit} ms"))),
    };
    let took = start.elapsed();
    match outcome {
        Ok((len, sha256)) => Answer {
            id: Value::String(op.id),
            ok: true,
            ms: Some(ms(took)),
            bytes: Some(len),
            sha256: Some(hex::encode(sha256)),
            ..Default::default()
        },
        Err(e) => Answer::failed(op.id, took, e),
    }
}

#[cfg(test)]
mod tests;
