//! Deterministic inputs shared by the three runners (docs/design.md, "Fixtures and digests"; spec `fixtures`).
//!
//! data = SHA-256(data_label || u64le(0)) || SHA-256(data_label || u64le(1)) || ...; a fixture of
//! N bytes is its first N bytes. Private key k = SHA-256(key_label || u64le(k)); message j to sign
//! = SHA-256(digest_label || u64le(j)).

use std::sync::Mutex;

use bytes::Bytes;
use sha2::{Digest, Sha256};

use crate::plan::FixtureLabels;

/// `SHA-256(label || u64le(index))`.
pub fn block(label: &str, index: u64) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(label.as_bytes());
    h.update(index.to_le_bytes());
    h.finalize().into()
}

/// The first `len` bytes of the data stream of `label`.
pub fn stream(label: &str, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len.next_multiple_of(32));
    let mut h = Sha256::new();
    h.update(label.as_bytes());
    for i in 0..len.div_ceil(32) as u64 {
        let mut block = h.clone();
        block.update(i.to_le_bytes());
        out.extend_from_slice(&block.finalize());
    }
    out.truncate(len);
    out
}

/// The run's fixtures: labels from the spec and the data stream, generated once per process and
/// kept at the largest length asked for so far (every smaller fixture is a prefix of it).
pub struct Fixtures {
    labels: FixtureLabels,
    data: Mutex<Bytes>,
}

impl Fixtures {
    pub fn new(labels: FixtureLabels) -> Self {
        Self {
            labels,
            data: Mutex::new(Bytes::new()),
        }
    }

    /// The first `len` bytes of the data stream. Generating a longer stream is CPU work: call
    /// this from a blocking context.
    pub fn data(&self, len: usize) -> Bytes {
        let mut cached = self.data.lock().unwrap_or_else(|e| e.into_inner());
        if cached.len() < len {
            // Drop the old prefix first so the peak holds one copy, not two.
            *cached = Bytes::new();
            *cached = Bytes::from(stream(&self.labels.data_label, len));
        }
        cached.slice(..len)
    }

    /// Chunk payload j: data[payload_bytes * j, payload_bytes * (j + 1)).
    pub fn payload_bytes(&self) -> usize {
        self.labels.chunk_payload_bytes
    }

    pub fn private_key(&self, k: u64) -> [u8; 32] {
        block(&self.labels.key_label, k)
    }

    pub fn message(&self, j: u64) -> [u8; 32] {
        block(&self.labels.digest_label, j)
    }
}

#[cfg(test)]
mod tests;
