//! CPU cases: pure bee-rs work, no Bee. Each function builds its inputs from the fixtures
//! (untimed) and returns the operation; outputs go to the sink for the digest.

use anyhow::ensure;
use bee::file::{CollectionEntry, hash_collection_entries};
use bee::manifest::MantarayNode;
use bee::swarm::{FileChunker, PrivateKey, Reference, calculate_chunk_address, keccak256};

use super::{Bench, Context, uint};
use crate::plan::Param;

pub fn noop(_: &Context, _: &Param) -> anyhow::Result<Bench> {
    Bench::cpu(|_| Ok(()))
}

/// `count` chunks in wire form (span u64le(chunk_bytes) || payload j), back to back.
struct Chunks {
    wire: Vec<u8>,
    size: usize,
}

impl Chunks {
    fn build(cx: &Context, p: &Param) -> anyhow::Result<Self> {
        let (count, payload) = (uint(p, "count")?, uint(p, "chunk_bytes")?);
        let data = cx.fixtures().data(count * payload);
        let mut wire = Vec::with_capacity(count * (8 + payload));
        for j in 0..count {
            wire.extend_from_slice(&(payload as u64).to_le_bytes());
            wire.extend_from_slice(&data[j * payload..(j + 1) * payload]);
        }
        Ok(Self {
            wire,
            size: 8 + payload,
        })
    }

    fn len(&self) -> usize {
        self.wire.len() / self.size
    }

    fn iter(&self) -> std::slice::Chunks<'_, u8> {
        self.wire.chunks(self.size)
    }

    /// Chunks `start..end`.
    fn range(&self, start: usize, end: usize) -> std::slice::Chunks<'_, u8> {
        self.wire[start * self.size..end * self.size].chunks(self.size)
    }
}

pub fn chunk_hash(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let chunks = Chunks::build(cx, p)?;
    Bench::cpu(move |sink| {
        for chunk in chunks.iter() {
            sink.push(&calculate_chunk_address(chunk)?);
        }
        Ok(())
    })
}

/// The chunk-hash work in contiguous slices over one std::thread per CPU.
pub fn chunk_hash_parallel(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let chunks = Chunks::build(cx, p)?;
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    Bench::cpu(move |sink| {
        let per_worker = chunks.len().div_ceil(workers).max(1);
        let collect = sink.collecting();
        let slices = std::thread::scope(|s| {
            let handles: Vec<_> = (0..chunks.len())
                .step_by(per_worker)
                .map(|start| {
                    let slice = chunks.range(start, (start + per_worker).min(chunks.len()));
                    // Part of the operation: counted with it in allocation mode.
                    s.spawn(crate::alloc::inherit(
                        move || -> anyhow::Result<Vec<[u8; 32]>> {
                            let mut addresses = Vec::new();
                            for chunk in slice {
                                let address = calculate_chunk_address(chunk)?;
                                if collect {
                                    addresses.push(address);
                                } else {
                                    std::hint::black_box(address);
                                }
                            }
                            Ok(addresses)
                        },
                    ))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect::<Vec<_>>()
        });
        for slice in slices {
            for address in slice? {
                sink.push(&address);
            }
        }
        Ok(())
    })
}

pub fn keccak_bulk(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let data = cx.fixtures().data(uint(p, "bytes")?);
    Bench::cpu(move |sink| {
        sink.push(&keccak256(&data));
        Ok(())
    })
}

/// Root address of the client's offline file chunker (the /bytes reference).
pub fn file_root(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let data = cx.fixtures().data(uint(p, "bytes")?);
    Bench::cpu(move |sink| {
        let mut chunker = FileChunker::new();
        chunker.write(&data)?;
        sink.push(chunker.finalize()?.address.as_bytes());
        Ok(())
    })
}

/// Private keys 0..4, message j signed with key j mod 4.
fn keys(cx: &Context) -> anyhow::Result<Vec<PrivateKey>> {
    (0..4)
        .map(|k| Ok(PrivateKey::new(&cx.fixtures().private_key(k))?))
        .collect()
}

fn messages(cx: &Context, count: usize) -> Vec<[u8; 32]> {
    (0..count as u64)
        .map(|j| cx.fixtures().message(j))
        .collect()
}

pub fn sign(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (keys, messages) = (keys(cx)?, messages(cx, uint(p, "count")?));
    Bench::cpu(move |sink| {
        for (j, message) in messages.iter().enumerate() {
            let signature = keys[j % keys.len()].sign(message)?;
            if sink.collecting() {
                // Signatures differ by nonce across clients; the recovered signer does not.
                sink.push(signature.recover_public_key(message)?.address().as_bytes());
            } else {
                std::hint::black_box(signature);
            }
        }
        Ok(())
    })
}

pub fn verify(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (keys, messages) = (keys(cx)?, messages(cx, uint(p, "count")?));
    let signed = messages
        .into_iter()
        .enumerate()
        .map(|(j, m)| Ok((m, keys[j % keys.len()].sign(&m)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    Bench::cpu(move |sink| {
        for (message, signature) in &signed {
            sink.push(signature.recover_public_key(message)?.address().as_bytes());
        }
        Ok(())
    })
}

/// Private key j (its 32 bytes) -> public key -> Ethereum address.
pub fn identity(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let secrets: Vec<[u8; 32]> = (0..uint(p, "count")? as u64)
        .map(|k| cx.fixtures().private_key(k))
        .collect();
    Bench::cpu(move |sink| {
        for secret in &secrets {
            sink.push(PrivateKey::new(secret)?.public_key()?.address().as_bytes());
        }
        Ok(())
    })
}

/// Offline collection hashing: file i at f%04d.bin holding data[file_bytes i, file_bytes (i+1)).
pub fn manifest_hash(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (files, size) = (uint(p, "files")?, uint(p, "file_bytes")?);
    let data = cx.fixtures().data(files * size);
    let entries: Vec<CollectionEntry> = (0..files)
        .map(|i| CollectionEntry::new(format!("f{i:04}.bin"), &data[i * size..(i + 1) * size]))
        .collect();
    Bench::cpu(move |sink| {
        sink.push(hash_collection_entries(&entries)?.as_bytes());
        Ok(())
    })
}

/// Lookups in a Mantaray manifest of `entries` paths: every fifth one a miss.
pub fn manifest_lookup(cx: &Context, p: &Param) -> anyhow::Result<Bench> {
    let (entries, lookups) = (uint(p, "entries")?, uint(p, "lookups")?);
    ensure!(entries > 0, "param \"entries\" must be positive");
    let targets = cx.fixtures().data(32 * entries);
    let path = |i: usize| format!("d{:02}/f{:05}.bin", i % 64, i).into_bytes();
    let mut manifest = MantarayNode::new();
    for i in 0..entries {
        manifest.add_fork(
            &path(i),
            Some(&Reference::new(&targets[32 * i..32 * (i + 1)])?),
            None,
        );
    }
    let queries: Vec<Vec<u8>> = (0..lookups)
        .map(|j| {
            if j % 5 == 4 {
                format!("d{:02}/m{:05}.bin", j % 64, j % 100_000).into_bytes()
            } else {
                path(j * 7919 % entries)
            }
        })
        .collect();
    Bench::cpu(move |sink| {
        for query in &queries {
            // A miss hashes as 32 zero bytes (the null target address).
            sink.push(
                &manifest
                    .find(query)
                    .map_or([0; 32], |node| node.target_address),
            );
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests;
