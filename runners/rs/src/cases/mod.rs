//! The cases: one small function per spec case id, dispatched by id in [`setup`] (the same shape
//! as the JS and Go runners). A case function does the untimed setup and returns the operation
//! the harness times; a client that lacks the API answers [`Skip`].

mod cpu;
mod net;

pub use net::{bee_message, describe};

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::anyhow;
use bee::swarm::BatchId;
use serde_json::Value;

use crate::fixtures::Fixtures;
use crate::plan::Param;

/// Set a case up for `param`; the harness times what it returns.
pub async fn setup(id: &str, cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let bench = setup_case(id, cx, p).await;
    if id.starts_with("net.") {
        bench.map_err(net::describe)
    } else {
        bench
    }
}

async fn setup_case(id: &str, cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    match id {
        "cpu.harness.noop" => blocking(cx, p, cpu::noop).await,
        "cpu.keccak.chunk-hash" => blocking(cx, p, cpu::chunk_hash).await,
        "cpu.keccak.parallel" => blocking(cx, p, cpu::chunk_hash_parallel).await,
        "cpu.keccak.bulk" => blocking(cx, p, cpu::keccak_bulk).await,
        "cpu.bmt.file-root" => blocking(cx, p, cpu::file_root).await,
        "cpu.bmt.encrypted-file-root" => Err(skip(
            "no offline encrypting chunker in bee-rs (encryption lives in the upload path)",
        )),
        "cpu.ecdsa.sign" => blocking(cx, p, cpu::sign).await,
        "cpu.ecdsa.verify" => blocking(cx, p, cpu::verify).await,
        "cpu.identity.create" => blocking(cx, p, cpu::identity).await,
        "cpu.manifest.hash" => blocking(cx, p, cpu::manifest_hash).await,
        "cpu.manifest.lookup-large" => blocking(cx, p, cpu::manifest_lookup).await,
        "net.stamps.list" => net::stamps_list(cx, p).await,
        "net.stamps.concurrent" => net::stamps_concurrent(cx, p).await,
        "net.feed.write-read.fresh" => net::feed_fresh(cx, p).await,
        "net.feed.write-read.warm" => net::feed_warm(cx, p).await,
        "net.bzz.upload" => net::bzz_upload(cx, p, false).await,
        "net.bzz.upload.encrypted" => net::bzz_upload(cx, p, true).await,
        "net.bzz.upload-from-disk" => Err(skip(
            "bee-rs has no streaming upload body (uploads take impl Into<Bytes>)",
        )),
        "net.bytes.upload" => net::bytes_upload(cx, p).await,
        "net.tags.upload-with-tag" => net::tags_upload(cx, p).await,
        "net.bzz.download" => net::bzz_download(cx, p).await,
        "net.bytes.download" => net::bytes_download(cx, p).await,
        "net.bytes.head" => net::bytes_head(cx, p).await,
        "net.bytes.download.range" => net::bytes_range(cx, p).await,
        "net.pin.add-list" => net::pin_add_list(cx, p).await,
        "net.chunks.upload" => net::chunks_upload(cx, p).await,
        "net.stream-dir.upload" => net::stream_dir_upload(cx, p).await,
        "net.soc.upload" => net::soc_upload(cx, p).await,
        _ => Err(skip(format!("runners/rs has no implementation of {id}"))),
    }
}

/// CPU work, run on a blocking thread so a timeout can abandon it. Outputs go to the sink.
pub type CpuOp = Arc<dyn Fn(&mut Sink) -> anyhow::Result<()> + Send + Sync>;

/// Client calls. Calling the closure prepares one iteration, untimed (salted buffers, pre-built
/// chunks); awaiting the future it returns is the timed operation.
pub type NetOp =
    Box<dyn FnMut() -> Pin<Box<dyn Future<Output = anyhow::Result<()>> + Send>> + Send>;

/// The untimed evaluation of a net case's digest output.
pub type NetOutput =
    Box<dyn FnMut() -> Pin<Box<dyn Future<Output = anyhow::Result<Vec<u8>>> + Send>> + Send>;

/// A net case's operation and, when the spec gives it a digest, how to evaluate its output.
pub struct NetBench {
    pub op: NetOp,
    pub output: Option<NetOutput>,
}

/// What a case's setup hands the harness.
pub enum Bench {
    Cpu(CpuOp),
    Net(NetBench),
}

impl Bench {
    fn cpu(
        op: impl Fn(&mut Sink) -> anyhow::Result<()> + Send + Sync + 'static,
    ) -> anyhow::Result<Self> {
        Ok(Self::Cpu(Arc::new(op)))
    }

    /// A net operation; its errors are worded as in the other runners (net::describe).
    fn net<F, Fut>(mut prepare: F) -> anyhow::Result<Self>
    where
        F: FnMut() -> Fut + Send + 'static,
        Fut: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        let op: NetOp = Box::new(move || {
            let operation = prepare();
            Box::pin(async move { operation.await.map_err(net::describe) })
        });
        Ok(Self::Net(NetBench { op, output: None }))
    }

    /// Adds the digest output evaluation to a net bench.
    fn with_output<F, Fut>(self, mut output: F) -> anyhow::Result<Self>
    where
        F: FnMut() -> Fut + Send + 'static,
        Fut: Future<Output = anyhow::Result<Vec<u8>>> + Send + 'static,
    {
        let Self::Net(net) = self else {
            return Err(anyhow!("only a net bench takes a digest output"));
        };
        let output: NetOutput = Box::new(move || {
            let evaluation = output();
            Box::pin(async move { evaluation.await.map_err(net::describe) })
        });
        Ok(Self::Net(NetBench {
            output: Some(output),
            ..net
        }))
    }
}

/// Where an operation's outputs go: collected (raw, in index order) for the untimed digest
/// evaluation; in timed iterations only made observable, so the work is not optimised away.
pub struct Sink(Option<Vec<u8>>);

impl Sink {
    pub fn discard() -> Self {
        Self(None)
    }

    pub fn collect() -> Self {
        Self(Some(Vec::new()))
    }

    pub fn collecting(&self) -> bool {
        self.0.is_some()
    }

    pub fn push(&mut self, output: &[u8]) {
        match &mut self.0 {
            Some(all) => all.extend_from_slice(output),
            None => {
                std::hint::black_box(output);
            }
        }
    }

    pub fn into_output(self) -> Option<Vec<u8>> {
        self.0
    }
}

/// The client (or node) cannot run the case; the reason names the limitation.
#[derive(Debug)]
pub struct Skip(pub String);

/// The error that makes the harness report the case `skipped` with this reason.
pub fn skip(reason: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Skip(reason.into()))
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Skip {}

/// What every case can reach: fixtures, the Bee node (net cases) and the run's salts.
#[derive(Clone)]
pub struct Context(Arc<Shared>);

struct Shared {
    fixtures: Fixtures,
    node: Option<Node>,
    nonce: u64,
    uploads: AtomicU64,
}

/// The Bee node given by --bee-url and --batch-id.
pub struct Node {
    pub url: String,
    pub client: bee::Client,
    pub batch: BatchId,
    /// Each call to the node may take this long (half the case timeout), so a frozen node fails
    /// a case with "no answer in N s" before the case timeout cuts it off. None in `ops`, whose
    /// lines carry their own bounds.
    call_timeout: Option<Duration>,
}

/// The run's call timeout, for error messages (reqwest's timeout error does not carry it).
static CALL_TIMEOUT: OnceLock<Duration> = OnceLock::new();

pub fn call_timeout() -> Option<Duration> {
    CALL_TIMEOUT.get().copied()
}

impl Node {
    pub fn new(url: &str, batch_hex: &str, call_timeout: Option<Duration>) -> anyhow::Result<Self> {
        if let Some(timeout) = call_timeout {
            CALL_TIMEOUT.get_or_init(|| timeout);
        }
        let batch =
            BatchId::from_hex(batch_hex).map_err(|e| anyhow!("--batch-id {batch_hex}: {e}"))?;
        let client = bee::Client::with_http_client(
            url,
            http_client(reqwest::header::HeaderMap::new(), call_timeout)?,
        )
        .map_err(|e| anyhow!("--bee-url {url}: {e}"))?;
        Ok(Self {
            url: url.to_string(),
            client,
            batch,
            call_timeout,
        })
    }

    /// A second client on the same node whose requests all carry `headers`.
    fn client_with(&self, headers: reqwest::header::HeaderMap) -> anyhow::Result<bee::Client> {
        Ok(bee::Client::with_http_client(
            &self.url,
            http_client(headers, self.call_timeout)?,
        )?)
    }

    /// `version` of GET /health.
    pub async fn version(&self) -> anyhow::Result<String> {
        Ok(self.client.debug().health().await?.version)
    }
}

/// bee-rs's default HTTP client, minus proxies from the environment (the figures are client
/// <-> Bee, never through a proxy), with each call bounded by `timeout` when given.
fn http_client(
    headers: reqwest::header::HeaderMap,
    timeout: Option<Duration>,
) -> anyhow::Result<reqwest::Client> {
    let builder = reqwest::Client::builder()
        .no_proxy()
        .default_headers(headers);
    let builder = match timeout {
        Some(timeout) => builder.timeout(timeout),
        None => builder,
    };
    Ok(builder.build()?)
}

impl Context {
    pub fn new(fixtures: Fixtures, node: Option<Node>) -> Self {
        Self(Arc::new(Shared {
            fixtures,
            node,
            nonce: run_nonce(),
            uploads: AtomicU64::new(0),
        }))
    }

    pub fn fixtures(&self) -> &Fixtures {
        &self.0.fixtures
    }

    pub fn node(&self) -> Option<&Node> {
        self.0.node.as_ref()
    }

    /// The salt of the next unique upload: u64le(run_nonce + upload_counter), wrapping; the
    /// counter counts every upload of the run, warmups included.
    pub fn salt(&self) -> [u8; 8] {
        self.0
            .nonce
            .wrapping_add(self.0.uploads.fetch_add(1, Ordering::Relaxed))
            .to_le_bytes()
    }
}

/// A per-run nonce, so two runs against one node never upload the same bytes.
fn run_nonce() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let seed = format!("{}:{}", now.as_nanos(), std::process::id());
    u64::from_le_bytes(
        crate::fixtures::block(&seed, 0)[..8]
            .try_into()
            .expect("8 bytes"),
    )
}

/// Run a synchronous CPU setup on a blocking thread, so a case timeout can abandon it.
async fn blocking(
    cx: &Context,
    p: &Param,
    f: fn(&Context, &Param) -> anyhow::Result<Bench>,
) -> anyhow::Result<Bench> {
    let (cx, p) = (cx.clone(), p.clone());
    tokio::task::spawn_blocking(move || f(&cx, &p))
        .await
        .map_err(crate::panics::join_error)?
}

/// A non-negative integer param value, as a count or a size.
fn uint(p: &Param, key: &str) -> anyhow::Result<usize> {
    p.get(key)
        .and_then(Value::as_u64)
        .and_then(|v| usize::try_from(v).ok())
        .ok_or_else(|| anyhow!("param \"{key}\" is missing or not a non-negative integer"))
}
