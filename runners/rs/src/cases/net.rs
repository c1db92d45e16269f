//! Network cases: bee-rs against the Bee node of --bee-url / --batch-id. Uploads are salted
//! (unique per iteration), downloads drain the body into a counting sink. Per-iteration inputs
//! are built in the untimed half of each closure, the client calls are the returned future.

use anyhow::{Context as _, anyhow, ensure};
use bee::api::{CollectionUploadOptions, FileUploadOptions, RedundantUploadOptions, UploadOptions};
use bee::file::CollectionEntry;
use bee::swarm::{Identifier, PrivateKey, Reference, Topic, make_content_addressed_chunk};
use bytes::Bytes;
use futures_util::future::try_join_all;
use sha2::{Digest, Sha256};

use super::{Bench, Context, Node, skip, uint};
use crate::spec::Param;

const FILE_NAME: &str = "bench.bin";
const CONTENT_TYPE: &str = "application/octet-stream";
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

/// A known limitation of the node (a dev node answers 501 to SOC and feed writes) as a skip.
fn node_limitation(e: bee::Error, what: &str) -> anyhow::Error {
    match e.status() {
        Some(501) => skip(format!(
            "the Bee node answers 501 Not Implemented to {what} (a `bee dev` node has no SOC/feed writes)"
        )),
        _ => anyhow::Error::new(e).context(format!("setup: {what}")),
    }
}

/// Every upload is deferred (the Bee default, sent explicitly as the other runners do).
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

/// Write one update under a fresh topic and read the latest back.
async fn feed_write_read(
    node: &Node,
    signer: &PrivateKey,
    topic: Topic,
    payload: &[u8],
) -> Result<(), bee::Error> {
    let file = node.client.file();
    file.make_feed_writer(signer.clone(), topic)?
        .upload_payload(&node.batch, payload)
        .await?;
    file.make_feed_reader(signer.public_key()?.address(), topic)
        .download()
        .await?;
    Ok(())
}

pub async fn feed_fresh(cx: &Context, _: &Param) -> anyhow::Result<Bench> {
    let signer = feed_signer(cx)?;
    let fixture = data(cx, FEED_PAYLOAD_BYTES).await?;
    let (topic, payload) = salted_write(cx, &fixture, FEED_PAYLOAD_BYTES);
    feed_write_read(node(cx)?, &signer, Topic::new(&topic)?, &payload)
        .await
        .map_err(|e| node_limitation(e, "feed writes (POST /soc)"))?;
    let cx = cx.clone();
    Bench::net(move || {
        let (topic, payload) = salted_write(&cx, &fixture, FEED_PAYLOAD_BYTES);
        let (cx, signer) = (cx.clone(), signer.clone());
        async move {
            let topic = Topic::new(&topic)?;
            Ok(feed_write_read(node(&cx)?, &signer, topic, &payload).await?)
        }
    })
}

pub async fn feed_warm(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let reads = uint(p, "reads")?;
    let (node, signer) = (node(cx)?, feed_signer(cx)?);
    let fixture = data(cx, FEED_PAYLOAD_BYTES).await?;
    let (topic, payload) = salted_write(cx, &fixture, FEED_PAYLOAD_BYTES);
    let topic = Topic::new(&topic)?;
    feed_write_read(node, &signer, topic, &payload)
        .await
        .map_err(|e| node_limitation(e, "feed writes (POST /soc)"))?;
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

pub async fn bzz_upload(cx: &Context, p: &Param, encrypt: bool) -> anyhow::Result<Bench> {
    let node = node(cx)?;
    let (client, batch) = (node.client.clone(), node.batch);
    let fixture = data(cx, uint(p, "bytes")?).await?;
    let options = FileUploadOptions {
        base: UploadOptions {
            encrypt: encrypt.then_some(true),
            ..deferred()
        },
        ..Default::default()
    };
    let cx = cx.clone();
    Bench::net(move || {
        let (client, options, body) =
            (client.clone(), options.clone(), salted(cx.salt(), &fixture));
        async move {
            client
                .file()
                .upload_file(&batch, body, FILE_NAME, CONTENT_TYPE, Some(&options))
                .await?;
            Ok(())
        }
    })
}

pub async fn bytes_upload(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let node = node(cx)?;
    let (client, batch) = (node.client.clone(), node.batch);
    let fixture = data(cx, uint(p, "bytes")?).await?;
    let options = RedundantUploadOptions {
        base: deferred(),
        ..Default::default()
    };
    let cx = cx.clone();
    Bench::net(move || {
        let (client, options, body) =
            (client.clone(), options.clone(), salted(cx.salt(), &fixture));
        async move {
            client
                .file()
                .upload_data(&batch, body, Some(&options))
                .await?;
            Ok(())
        }
    })
}

pub async fn tags_upload(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let node = node(cx)?;
    let (client, batch) = (node.client.clone(), node.batch);
    let fixture = data(cx, uint(p, "bytes")?).await?;
    let cx = cx.clone();
    Bench::net(move || {
        let (client, body) = (client.clone(), salted(cx.salt(), &fixture));
        async move {
            let api = client.api();
            let tag = api.create_tag().await?;
            let options = RedundantUploadOptions {
                base: tagged(tag.uid),
                ..Default::default()
            };
            client
                .file()
                .upload_data(&batch, body, Some(&options))
                .await?;
            api.get_tag(tag.uid).await?;
            Ok(())
        }
    })
}

/// Read a response body to its end, counting bytes and never holding more than one chunk.
async fn drain(mut response: reqwest::Response) -> anyhow::Result<u64> {
    let mut total = 0u64;
    while let Some(chunk) = response.chunk().await? {
        total += chunk.len() as u64;
    }
    Ok(total)
}

pub async fn bzz_download(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let node = node(cx)?;
    let body = salted(cx.salt(), &data(cx, uint(p, "bytes")?).await?);
    let expected = body.len() as u64;
    let options = FileUploadOptions {
        base: deferred(),
        ..Default::default()
    };
    let uploaded = node
        .client
        .file()
        .upload_file(&node.batch, body, FILE_NAME, CONTENT_TYPE, Some(&options))
        .await
        .context("setup: upload")?;
    let (client, reference) = (node.client.clone(), uploaded.reference);
    Bench::net(move || {
        let (client, reference) = (client.clone(), reference.clone());
        async move {
            let received = drain(
                client
                    .file()
                    .download_file_response(&reference, None)
                    .await?,
            )
            .await?;
            ensure!(
                received == expected,
                "GET /bzz returned {received} bytes, expected {expected}"
            );
            Ok(())
        }
    })
}

/// One /bytes upload of salt || data[0, len) made outside timing.
async fn uploaded_bytes(cx: &Context, node: &Node, len: usize) -> anyhow::Result<Reference> {
    let body = salted(cx.salt(), &data(cx, len).await?);
    let options = RedundantUploadOptions {
        base: deferred(),
        ..Default::default()
    };
    Ok(node
        .client
        .file()
        .upload_data(&node.batch, body, Some(&options))
        .await
        .context("setup: upload")?
        .reference)
}

pub async fn bytes_head(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (node, count) = (node(cx)?, uint(p, "count")?);
    let reference = uploaded_bytes(cx, node, 1 << 20).await?;
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
    let reference = uploaded_bytes(cx, node, uint(p, "bytes")?).await?;
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
                let status = response.status();
                let received = drain(response).await?;
                ensure!(
                    status.as_u16() == 206 && received == RANGE_BYTES,
                    "ranged GET /bytes answered {status} with {received} bytes"
                );
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
        references.push(uploaded_bytes(cx, node, payload).await?);
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
    })
}

/// File i: `file_bytes` bytes, its own salt || data[file_bytes i, file_bytes (i+1) - 8).
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
