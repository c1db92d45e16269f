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
mod tests {
    use super::*;

    fn labels() -> FixtureLabels {
        FixtureLabels {
            data_label: "bee-bench/fixture".into(),
            key_label: "bee-bench/key".into(),
            digest_label: "bee-bench/digest".into(),
            chunk_payload_bytes: 4096,
        }
    }

    // Expected values from python3:
    //   hashlib.sha256(b"bee-bench/fixture" + struct.pack("<Q", i)).hexdigest()
    const DATA_0: &str = "14928d39a5453538ddcde96fdffbf652edb45d8495e568510472eb1a1dcf3e5c";
    const DATA_1: &str = "4d8dadd35e94376540f9698ce0524c67e4d05ec4ebd27b61bac3590d53bc4c7b";

    #[test]
    fn data_stream_is_sha256_of_label_and_le_index() {
        let data = stream("bee-bench/fixture", 64);
        assert_eq!(hex::encode(&data[..32]), DATA_0);
        assert_eq!(hex::encode(&data[32..]), DATA_1);
    }

    #[test]
    fn a_fixture_is_a_prefix_of_the_stream() {
        let long = stream("bee-bench/fixture", 4096 * 3 + 7);
        let short = stream("bee-bench/fixture", 45);
        assert_eq!(long.len(), 4096 * 3 + 7);
        assert_eq!(&long[..45], &short[..]);
    }

    #[test]
    fn cache_serves_prefixes_of_the_longest_stream() {
        let f = Fixtures::new(labels());
        let a = f.data(100);
        let b = f.data(10_000);
        let c = f.data(33);
        assert_eq!(&b[..100], &a[..]);
        assert_eq!(&b[..33], &c[..]);
        assert_eq!(hex::encode(&c[..32]), DATA_0);
    }

    #[test]
    fn keys_and_messages_use_their_labels() {
        let f = Fixtures::new(labels());
        // python3: hashlib.sha256(b"bee-bench/key" + struct.pack("<Q", 0)).hexdigest()
        assert_eq!(
            hex::encode(f.private_key(0)),
            "c3e8b96cfe5441c1734553f1e80d832352ed3db01c6480620dde8b3a5cbf25bf"
        );
        // python3: hashlib.sha256(b"bee-bench/digest" + struct.pack("<Q", 0)).hexdigest()
        assert_eq!(
            hex::encode(f.message(0)),
            "cc1ce3a427685a33f85d12f9b4c043a07bbb5aee5e6dfc280d89222b2965e1b7"
        );
    }
}
