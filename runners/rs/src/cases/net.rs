//! Network cases: bee-rs against the Bee node of --bee-url / --batch-id. Uploads are salted
//! (unique per iteration), downloads drain the body into a counting sink. Per-iteration inputs
//! are built in the untimed half of each closure, the client calls are the returned future.

use anyhow::{Context as _, anyhow, bail, ensure};
use bee::api::{CollectionUploadOptions, RedundantUploadOptions, UploadOptions};
use bee::file::CollectionEntry;
use bee::swarm::{BatchId, Identifier, PrivateKey, Reference, Topic, make_content_addressed_chunk};
use bytes::Bytes;
use futures_util::future::try_join_all;
use sha2::{Digest, Sha256};

use super::{Bench, Context, Node, skip, uint};
use crate::plan::Param;
use crate::transfer::{self, Endpoint};

const FILE_NAME: &str = "bench.bin";
/// Range of net.bytes.download.range: bytes=0-65535.
const RANGE_BYTES: u64 = 65536;

fn node(cx: &Context) -> anyhow::Result<&Node> {
    cx.node().ok_or_else(|| anyhow!("no Bee node"))
}

/// salt || data: a buffer no earlier upload of any run has had.
fn salted(salt: [u8; 8], data: &[u8]) -> Bytes {
    let mut buf = Vec::with_capacity(8 + data.len());
    buf.extend_from_slice(&salt);
    buf.extend_from_slice(data);
    buf.into()
}

/// The first `len` bytes of the data fixture, generated off the async workers.
async fn data(cx: &Context, len: usize) -> anyhow::Result<Bytes> {
    let cx = cx.clone();
    tokio::task::spawn_blocking(move || cx.fixtures().data(len))
        .await
        .map_err(crate::panics::join_error)
}

/// One write under a fresh 32-byte name (feed topic, SOC identifier), from the next salt:
/// name = SHA-256(salt), payload = salt || data[0, len - 8), `len` bytes in all.
fn salted_write(cx: &Context, fixture: &[u8], len: usize) -> ([u8; 32], Bytes) {
    let salt = cx.salt();
    (
        Sha256::digest(salt).into(),
        salted(salt, &fixture[..len - 8]),
    )
}

/// A feed update's payload: the salt then data[0, 24).
const FEED_PAYLOAD_BYTES: usize = 32;

/// A known limitation of the node (a dev node answers 501 to SOC and feed writes) as a skip,
/// worded as in the other runners.
fn node_limitation(e: bee::Error, what: &str) -> anyhow::Error {
    match e.status() {
        Some(501) => skip(format!(
            "the Bee node answers 501 Not Implemented to {what}: a dev node (bee dev) has no single-owner-chunk (SOC) or feed writes"
        )),
        _ => anyhow::Error::new(e).context(format!("setup: {what}")),
    }
}

/// A node error worded as in the other runners, keeping the context the case added around it:
/// "Bee answered 404 to POST /bytes: <Bee's own message>", "no answer in 60 s to /stamps",
/// "cannot connect to the Bee node (ECONNREFUSED) for /stamps".
pub fn describe(e: anyhow::Error) -> anyhow::Error {
    if e.downcast_ref::<super::Skip>().is_some() {
        return e;
    }
    let mut parts = Vec::new();
    let mut reworded = false;
    for cause in e.chain() {
        let uniform = match (
            cause.downcast_ref::<bee::Error>(),
            cause.downcast_ref::<reqwest::Error>(),
        ) {
            (
                Some(bee::Error::Response {
                    method,
                    url,
                    status,
                    body,
                    ..
                }),
                _,
            ) => {
                let message = bee_message(body);
                Some(format!(
                    "Bee answered {status} to {method} {}{}",
                    path_of(url),
                    if message.is_empty() {
                        String::new()
                    } else {
                        format!(": {message}")
                    }
                ))
            }
            (Some(bee::Error::Transport(r)), _) | (None, Some(r)) => transport(r),
            _ => None,
        };
        match uniform {
            Some(u) => {
                parts.push(u);
                reworded = true;
                break;
            }
            None => parts.push(cause.to_string()),
        }
    }
    if !reworded {
        return e;
    }
    // As anyhow's alternate form, the chain joined with ": ", ending at the node error.
    anyhow!(parts.join(": "))
}

fn transport(r: &reqwest::Error) -> Option<String> {
    let path = r.url().map(|u| u.path().to_string()).unwrap_or_default();
    if r.is_timeout() {
        let secs = super::call_timeout().map_or(0.0, |d| d.as_secs_f64());
        return Some(format!("no answer in {secs} s to {path}"));
    }
    if r.is_connect() {
        let refused = std::iter::successors(std::error::Error::source(r), |e| e.source())
            .filter_map(|e| e.downcast_ref::<std::io::Error>())
            .any(|e| e.kind() == std::io::ErrorKind::ConnectionRefused);
        let why = if refused {
            "ECONNREFUSED"
        } else {
            "connect error"
        };
        return Some(format!("cannot connect to the Bee node ({why}) for {path}"));
    }
    None
}

fn path_of(url: &str) -> String {
    reqwest::Url::parse(url).map_or_else(|_| url.to_string(), |u| u.path().to_string())
}

/// Bee's own message from an error body ({"code":404,"message":"..."}), else the body's start.
pub fn bee_message(body: &[u8]) -> String {
    if let Ok(serde_json::Value::Object(m)) = serde_json::from_slice(body)
        && let Some(serde_json::Value::String(message)) = m.get("message")
    {
        return message.clone();
    }
    String::from_utf8_lossy(&body[..body.len().min(200)])
        .trim()
        .to_string()
}

/// The uploads of the cases without an upload-mode param are deferred (the Bee default, sent
/// explicitly as the other runners do); the upload cases take `deferred` from their param.
fn deferred() -> UploadOptions {
    UploadOptions {
        deferred: Some(true),
        ..Default::default()
    }
}

fn tagged(uid: u32) -> UploadOptions {
    UploadOptions {
        tag: uid,
        ..deferred()
    }
}

pub async fn stamps_list(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (client, count) = (node(cx)?.client.clone(), uint(p, "count")?);
    Bench::net(move || {
        let client = client.clone();
        async move {
            for _ in 0..count {
                client.postage().get_postage_batches().await?;
            }
            Ok(())
        }
    })
}

pub async fn stamps_concurrent(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (client, count) = (node(cx)?.client.clone(), uint(p, "count")?);
    Bench::net(move || {
        let client = client.clone();
        async move {
            let postage = client.postage();
            try_join_all((0..count).map(|_| postage.get_postage_batches())).await?;
            Ok(())
        }
    })
}

/// Feed owner: private key 0.
fn feed_signer(cx: &Context) -> anyhow::Result<PrivateKey> {
    Ok(PrivateKey::new(&cx.fixtures().private_key(0))?)
}

/// Write one update under a fresh topic.
async fn feed_write(
    node: &Node,
    signer: &PrivateKey,
    topic: Topic,
    payload: &[u8],
) -> Result<(), bee::Error> {
    node.client
        .file()
        .make_feed_writer(signer.clone(), topic)?
        .upload_payload(&node.batch, payload)
        .await?;
    Ok(())
}

/// Read the latest update of a feed.
async fn feed_read(node: &Node, signer: &PrivateKey, topic: Topic) -> Result<(), bee::Error> {
    node.client
        .file()
        .make_feed_reader(signer.public_key()?.address(), topic)
        .download()
        .await?;
    Ok(())
}

/// The first write and read of a feed case: a 501 to the write is the node's limitation.
async fn first_feed_write_read(
    node: &Node,
    signer: &PrivateKey,
    topic: Topic,
    payload: &[u8],
) -> anyhow::Result<()> {
    feed_write(node, signer, topic, payload)
        .await
        .map_err(|e| node_limitation(e, "feed writes (POST /soc)"))?;
    feed_read(node, signer, topic)
        .await
        .context("setup: feed read (GET /feeds)")
}

pub async fn feed_fresh(cx: &Context, _: &Param) -> anyhow::Result<Bench> {
    let signer = feed_signer(cx)?;
    let fixture = data(cx, FEED_PAYLOAD_BYTES).await?;
    let (topic, payload) = salted_write(cx, &fixture, FEED_PAYLOAD_BYTES);
    first_feed_write_read(node(cx)?, &signer, Topic::new(&topic)?, &payload).await?;
    let cx = cx.clone();
    Bench::net(move || {
        let (topic, payload) = salted_write(&cx, &fixture, FEED_PAYLOAD_BYTES);
        let (cx, signer) = (cx.clone(), signer.clone());
        async move {
            let (node, topic) = (node(&cx)?, Topic::new(&topic)?);
            feed_write(node, &signer, topic, &payload).await?;
            Ok(feed_read(node, &signer, topic).await?)
        }
    })
}

pub async fn feed_warm(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let reads = uint(p, "reads")?;
    let (node, signer) = (node(cx)?, feed_signer(cx)?);
    let fixture = data(cx, FEED_PAYLOAD_BYTES).await?;
    let (topic, payload) = salted_write(cx, &fixture, FEED_PAYLOAD_BYTES);
    let topic = Topic::new(&topic)?;
    first_feed_write_read(node, &signer, topic, &payload).await?;
    let reader = node
        .client
        .file()
        .make_feed_reader(signer.public_key()?.address(), topic);
    Bench::net(move || {
        let reader = reader.clone();
        async move {
            for _ in 0..reads {
                reader.download().await?;
            }
            Ok(())
        }
    })
}

/// A bench that uploads salt || `fixture` (the body built outside timing) once per iteration.
/// With `digest`, its digest is the reference Bee returns for `fixture` itself, uploaded the
/// same way once, untimed: comparable across clients.
fn upload_bench<U, Fut>(
    cx: &Context,
    fixture: Bytes,
    digest: bool,
    upload: U,
) -> anyhow::Result<Bench>
where
    U: Fn(Bytes) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = anyhow::Result<Reference>> + Send + 'static,
{
    let (cx, timed_upload, timed_fixture) = (cx.clone(), upload.clone(), fixture.clone());
    let bench = Bench::net(move || {
        let upload = timed_upload(salted(cx.salt(), &timed_fixture));
        async move { upload.await.map(drop) }
    })?;
    if !digest {
        return Ok(bench);
    }
    bench.with_output(move || {
        let upload = upload(fixture.clone());
        async move { Ok(upload.await.context("unsalted upload")?.as_bytes().to_vec()) }
    })
}

/// One upload case on `endpoint` with the unit's `redundancy_level` and `deferred` (the timed
/// uploads and the untimed digest upload alike, so the digest is that level's reference); the
/// encrypted upload takes neither and stays deferred.
async fn upload_case(
    cx: &Context,
    p: &Param,
    endpoint: Endpoint,
    encrypt: bool,
) -> anyhow::Result<Bench> {
    let node = node(cx)?;
    let params = if encrypt {
        transfer::Upload {
            deferred: Some(true),
            encrypt,
            ..Default::default()
        }
    } else {
        transfer::from_param(p)?
    };
    let (client, batch) = (node.client.clone(), node.batch);
    let fixture = data(cx, uint(p, "bytes")?).await?;
    if params.direct() {
        refuse_direct(cx, node, endpoint, &fixture, &params).await?;
    }
    // Encrypted references are random: only plain uploads have a digest.
    upload_bench(cx, fixture, !encrypt, move |body| {
        let (client, params) = (client.clone(), params.clone());
        async move {
            let uploaded =
                transfer::upload(&client, &batch, endpoint, body, FILE_NAME, &params).await?;
            Ok(uploaded.reference)
        }
    })
}

/// A direct upload is tried once, untimed and salted, before the unit runs: a dev node refuses
/// it, and the unit is skipped with the node's own words.
async fn refuse_direct(
    cx: &Context,
    node: &Node,
    endpoint: Endpoint,
    fixture: &[u8],
    params: &transfer::Upload,
) -> anyhow::Result<()> {
    let body = salted(cx.salt(), fixture);
    match transfer::upload(&node.client, &node.batch, endpoint, body, FILE_NAME, params).await {
        Ok(_) => Ok(()),
        Err(e) if transfer::refuses_direct_upload(&e) => Err(skip(format!(
            "the node refuses direct uploads: {}",
            describe(anyhow::Error::new(e))
        ))),
        Err(e) => Err(anyhow::Error::new(e).context("setup: direct upload")),
    }
}

pub async fn bzz_upload(cx: &Context, p: &Param, encrypt: bool) -> anyhow::Result<Bench> {
    upload_case(cx, p, Endpoint::Bzz, encrypt).await
}

/// Its digest is comparable with cpu.bmt.file-root's offline root of the same bytes (at level 0).
pub async fn bytes_upload(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    upload_case(cx, p, Endpoint::Bytes, false).await
}

/// POST /tags, POST /bytes under the tag, GET /tags/{uid}; the reference.
async fn tagged_upload(
    client: &bee::Client,
    batch: &BatchId,
    body: Bytes,
) -> anyhow::Result<Reference> {
    let api = client.api();
    let tag = api.create_tag().await?;
    let options = RedundantUploadOptions {
        base: tagged(tag.uid),
        ..Default::default()
    };
    let uploaded = client
        .file()
        .upload_data(batch, body, Some(&options))
        .await?;
    api.get_tag(tag.uid).await?;
    Ok(uploaded.reference)
}

/// Its digest is the reference of the unsalted fixture uploaded under a fresh tag (the BMT
/// root, as bytes_upload).
pub async fn tags_upload(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let client = node(cx)?.client.clone();
    let batch = node(cx)?.batch;
    let fixture = data(cx, uint(p, "bytes")?).await?;
    upload_bench(cx, fixture, true, move |body| {
        let client = client.clone();
        async move { tagged_upload(&client, &batch, body).await }
    })
}

/// A download's expected content: its length and SHA-256.
#[derive(Clone, Copy)]
struct Content {
    len: u64,
    sha256: [u8; 32],
}

impl Content {
    fn of(bytes: &[u8]) -> Self {
        Self {
            len: bytes.len() as u64,
            sha256: Sha256::digest(bytes).into(),
        }
    }
}

/// Read a response body to its end into a SHA-256 (never holding more than one chunk) and
/// check it against the upload, worded as in the other runners.
async fn drain(mut response: reqwest::Response, call: &str, want: Content) -> anyhow::Result<()> {
    let mut hash = Sha256::new();
    let mut len = 0u64;
    while let Some(chunk) = response.chunk().await? {
        len += chunk.len() as u64;
        hash.update(&chunk);
    }
    let got: [u8; 32] = hash.finalize().into();
    ensure!(
        len == want.len && got == want.sha256,
        "content mismatch on {call}: got {len} bytes (sha256 {}), the upload was {} bytes (sha256 {})",
        hex::encode(&got[..8]),
        want.len,
        hex::encode(&want.sha256[..8])
    );
    Ok(())
}

/// Read a response body to its end, comparing it byte for byte with `want` as it arrives
/// (the untimed check before a download case's timing); a difference fails the unit.
async fn verify(mut response: reqwest::Response, call: &str, want: &[u8]) -> anyhow::Result<()> {
    let mut hash = Sha256::new();
    let (mut len, mut first_difference) = (0usize, None);
    while let Some(chunk) = response.chunk().await? {
        if first_difference.is_none() {
            let expected = want.get(len..).unwrap_or_default();
            first_difference = chunk
                .iter()
                .zip(expected)
                .position(|(a, b)| a != b)
                .or((chunk.len() > expected.len()).then_some(expected.len()))
                .map(|at| len + at);
        }
        len += chunk.len();
        hash.update(&chunk);
    }
    let first_difference = first_difference.or((len < want.len()).then_some(len));
    if let Some(at) = first_difference {
        let got: [u8; 32] = hash.finalize().into();
        bail!(
            "content mismatch on {call}: got {len} bytes (sha256 {}), the upload was {} bytes (sha256 {}); first difference at byte {at}",
            hex::encode(&got[..8]),
            want.len(),
            hex::encode(&Sha256::digest(want)[..8])
        );
    }
    Ok(())
}

/// Read a response body to its end into a counting sink (timed iterations); a length other
/// than the upload's fails the unit.
async fn count(mut response: reqwest::Response, call: &str, want: u64) -> anyhow::Result<()> {
    let mut len = 0u64;
    while let Some(chunk) = response.chunk().await? {
        len += chunk.len() as u64;
    }
    ensure!(
        len == want,
        "content mismatch on {call}: got {len} bytes, the upload was {want} bytes"
    );
    Ok(())
}

/// A download case on `endpoint`: salt || data[0, bytes) uploaded outside timing at the unit's
/// `redundancy_level`, one untimed download compared byte for byte with it, then timed
/// downloads with the unit's `strategy` and `fallback`, drained into a counting sink.
async fn download_case(cx: &Context, p: &Param, endpoint: Endpoint) -> anyhow::Result<Bench> {
    let node = node(cx)?;
    let params: transfer::Download = transfer::from_param(p)?;
    let body = salted(cx.salt(), &data(cx, uint(p, "bytes")?).await?);
    let upload = params.upload();
    let reference = transfer::upload(
        &node.client,
        &node.batch,
        endpoint,
        body.clone(),
        FILE_NAME,
        &upload,
    )
    .await
    .context("setup: upload")?
    .reference;
    let (client, options, call) = (node.client.clone(), params.options(), endpoint.get());
    let response = transfer::download(&client, endpoint, &reference, &options)
        .await
        .context("setup: verification download")?;
    verify(response, call, &body).await?;
    let len = body.len() as u64;
    drop(body);
    Bench::net(move || {
        let (client, reference, options) = (client.clone(), reference.clone(), options.clone());
        async move {
            let response = transfer::download(&client, endpoint, &reference, &options).await?;
            count(response, call, len).await
        }
    })
}

pub async fn bzz_download(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    download_case(cx, p, Endpoint::Bzz).await
}

pub async fn bytes_download(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    download_case(cx, p, Endpoint::Bytes).await
}

/// One /bytes upload of salt || data[0, len) made outside timing: its reference and body.
async fn uploaded_bytes(
    cx: &Context,
    node: &Node,
    len: usize,
) -> anyhow::Result<(Reference, Bytes)> {
    let body = salted(cx.salt(), &data(cx, len).await?);
    let options = RedundantUploadOptions {
        base: deferred(),
        ..Default::default()
    };
    let reference = node
        .client
        .file()
        .upload_data(&node.batch, body.clone(), Some(&options))
        .await
        .context("setup: upload")?
        .reference;
    Ok((reference, body))
}

pub async fn bytes_head(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (node, count) = (node(cx)?, uint(p, "count")?);
    let (reference, _) = uploaded_bytes(cx, node, 1 << 20).await?;
    let client = node.client.clone();
    Bench::net(move || {
        let (client, reference) = (client.clone(), reference.clone());
        async move {
            for _ in 0..count {
                client.file().probe_data(&reference).await?;
            }
            Ok(())
        }
    })
}

/// bee-rs has no range option on downloads; its download path is used as is, on a client
/// whose HTTP layer adds the Range header to every request (Client::with_http_client).
pub async fn bytes_range(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (node, ranges) = (node(cx)?, uint(p, "ranges")?);
    let (reference, body) = uploaded_bytes(cx, node, uint(p, "bytes")?).await?;
    let want = Content::of(&body[..body.len().min(RANGE_BYTES as usize)]);
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(
        reqwest::header::RANGE,
        format!("bytes=0-{}", RANGE_BYTES - 1).parse()?,
    );
    let client = node.client_with(headers)?;
    Bench::net(move || {
        let (client, reference) = (client.clone(), reference.clone());
        async move {
            for _ in 0..ranges {
                let response = client
                    .file()
                    .download_data_response(&reference, None)
                    .await?;
                drain(response, "ranged GET /bytes", want).await?;
            }
            Ok(())
        }
    })
}

/// Each pinned reference: a 4096-byte upload, salt || data[0, 4088).
pub async fn pin_add_list(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (node, count) = (node(cx)?, uint(p, "count")?);
    let payload = cx.fixtures().payload_bytes() - 8;
    let mut references = Vec::with_capacity(count);
    for _ in 0..count {
        references.push(uploaded_bytes(cx, node, payload).await?.0);
    }
    let client = node.client.clone();
    Bench::net(move || {
        let (client, references) = (client.clone(), references.clone());
        async move {
            let api = client.api();
            for reference in &references {
                api.pin(reference).await?;
            }
            api.list_pins().await?;
            for reference in &references {
                api.unpin(reference).await?;
            }
            Ok(())
        }
    })
}

/// Its digest is sha256 of the addresses Bee returns for the unsalted chunks (payload j whole),
/// uploaded once, untimed.
pub async fn chunks_upload(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (node, count) = (node(cx)?, uint(p, "count")?);
    let (client, batch) = (node.client.clone(), node.batch);
    let size = cx.fixtures().payload_bytes();
    let fixture = data(cx, count * size).await?;
    // Dev nodes refuse POST /chunks without a Swarm-Tag.
    let options = tagged(
        client
            .api()
            .create_tag()
            .await
            .context("setup: POST /tags")?
            .uid,
    );
    let (out_client, out_options, out_fixture) = (client.clone(), options.clone(), fixture.clone());
    let cx = cx.clone();
    Bench::net(move || {
        // Chunk j: salt || the first payload_bytes - 8 bytes of chunk payload j, one full chunk.
        let chunks: anyhow::Result<Vec<Bytes>> = (0..count)
            .map(|j| {
                Ok(make_content_addressed_chunk(&salted(
                    cx.salt(),
                    &fixture[j * size..(j + 1) * size - 8],
                ))?
                .data()
                .into())
            })
            .collect();
        let (client, options) = (client.clone(), options.clone());
        async move {
            for chunk in chunks? {
                client
                    .file()
                    .upload_chunk(&batch, chunk, Some(&options))
                    .await?;
            }
            Ok(())
        }
    })?
    .with_output(move || {
        let (client, options, fixture) =
            (out_client.clone(), out_options.clone(), out_fixture.clone());
        async move {
            let mut addresses = Vec::with_capacity(32 * count);
            for payload in fixture.chunks(size) {
                let chunk: Bytes = make_content_addressed_chunk(payload)?.data().into();
                let uploaded = client
                    .file()
                    .upload_chunk(&batch, chunk, Some(&options))
                    .await
                    .context("unsalted upload")?;
                addresses.extend_from_slice(uploaded.reference.as_bytes());
            }
            Ok(addresses)
        }
    })
}

/// File i: `file_bytes` bytes, its own salt || data[file_bytes i, file_bytes (i+1) - 8). Its
/// digest is the manifest reference of the unsalted files data[file_bytes i, file_bytes (i+1)),
/// once, untimed: the client builds that manifest.
pub async fn stream_dir_upload(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let node = node(cx)?;
    let (client, batch) = (node.client.clone(), node.batch);
    let (files, size) = (uint(p, "files")?, uint(p, "file_bytes")?);
    let fixture = data(cx, files * size).await?;
    // The stream uploads chunk by chunk through POST /chunks: a tag for dev nodes.
    let tag = client
        .api()
        .create_tag()
        .await
        .context("setup: POST /tags")?
        .uid;
    let options = CollectionUploadOptions {
        base: tagged(tag),
        ..Default::default()
    };
    let plain: Vec<CollectionEntry> = (0..files)
        .map(|i| {
            CollectionEntry::new(
                format!("f{i:04}.bin"),
                fixture.slice(i * size..(i + 1) * size),
            )
        })
        .collect();
    let (out_client, out_options) = (client.clone(), options.clone());
    let cx = cx.clone();
    Bench::net(move || {
        let entries: Vec<CollectionEntry> = (0..files)
            .map(|i| {
                CollectionEntry::new(
                    format!("f{i:04}.bin"),
                    salted(cx.salt(), &fixture[i * size..(i + 1) * size - 8]),
                )
            })
            .collect();
        let (client, options) = (client.clone(), options.clone());
        async move {
            client
                .file()
                .stream_collection_entries(&batch, &entries, Some(&options), None)
                .await?;
            Ok(())
        }
    })?
    .with_output(move || {
        let (client, options, entries) = (out_client.clone(), out_options.clone(), plain.clone());
        async move {
            let uploaded = client
                .file()
                .stream_collection_entries(&batch, &entries, Some(&options), None)
                .await
                .context("unsalted upload")?;
            Ok(uploaded.reference.as_bytes().to_vec())
        }
    })
}

/// SOC j: key 0, from its own salt: identifier = SHA-256(salt), payload = salt || data[0, 4088).
pub async fn soc_upload(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (node, count) = (node(cx)?, uint(p, "count")?);
    let writer = node
        .client
        .file()
        .make_soc_writer(PrivateKey::new(&cx.fixtures().private_key(0))?)?;
    let size = cx.fixtures().payload_bytes();
    let fixture = data(cx, size).await?;
    let (id, payload) = salted_write(cx, &fixture, size);
    writer
        .upload(&node.batch, &Identifier::new(&id)?, &payload, None)
        .await
        .map_err(|e| node_limitation(e, "SOC writes (POST /soc)"))?;
    let (batch, cx) = (node.batch, cx.clone());
    Bench::net(move || {
        let socs: Vec<([u8; 32], Bytes)> = (0..count)
            .map(|_| salted_write(&cx, &fixture, size))
            .collect();
        let writer = writer.clone();
        async move {
            for (id, payload) in socs {
                writer
                    .upload(&batch, &Identifier::new(&id)?, &payload, None)
                    .await?;
            }
            Ok(())
        }
    })
}
