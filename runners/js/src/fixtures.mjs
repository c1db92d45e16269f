// Deterministic fixtures, identical in every runner (docs/design.md, "Fixtures and digests"; spec `fixtures`):
//   data          = SHA-256(data_label || u64le(0)) || SHA-256(data_label || u64le(1)) || ...
//   chunk payload j = data[4096 j, 4096 (j+1))
//   private key k = SHA-256(key_label || u64le(k)),  message j = SHA-256(digest_label || u64le(j))
//   upload salt   = u64le(run_nonce + upload_counter), wrapping; the counter counts every upload.
//
// The data stream lives in one growable SharedArrayBuffer created by the main thread and handed
// to every case worker: it is generated once per process, grown to the largest prefix asked for
// so far, and read in place (no copies) by later cases and by the keccak worker pool.
import * as crypto from 'node:crypto';
import { closeSync, openSync, statSync, writeSync, readSync } from 'node:fs';

const BLOCK = 32;
const MAX_FIXTURE_BYTES = 2 ** 32; // address space reserved, not memory: pages appear as they are written

// crypto.hash (Node >= 20.12) is the one-shot form; fall back to createHash on older Node 20.
const sha256 = crypto.hash ? (buf) => crypto.hash('sha256', buf, 'buffer') : (buf) => crypto.createHash('sha256').update(buf).digest();

/** SHA-256(label || u64le(index)). */
export function labelled(label, index) {
  const prefix = Buffer.from(label, 'utf8');
  const input = Buffer.alloc(prefix.length + 8);
  prefix.copy(input);
  input.writeBigUInt64LE(BigInt(index), prefix.length);
  return new Uint8Array(sha256(input));
}

/** Writes data-stream bytes [offset, offset + target.length) into target. */
export function fillData(label, target, offset) {
  const prefix = Buffer.from(label, 'utf8');
  const input = Buffer.alloc(prefix.length + 8);
  prefix.copy(input);
  let pos = 0;
  let block = Math.floor(offset / BLOCK);
  let skip = offset % BLOCK;
  while (pos < target.length) {
    input.writeUInt32LE(block % 2 ** 32, prefix.length); // u64le without BigInt (hot loop)
    input.writeUInt32LE(Math.floor(block / 2 ** 32), prefix.length + 4);
    block++;
    const h = sha256(input);
    const take = Math.min(BLOCK - skip, target.length - pos);
    target.set(h.subarray(skip, skip + take), pos);
    pos += take;
    skip = 0;
  }
}

/** Created once per run in the main thread; `shared` is what goes to every worker. */
export function createFixtureStore(fixtures) {
  const counters = new SharedArrayBuffer(16); // [0]: bytes of data generated, [1]: uploads so far
  return {
    fixtures,
    data: new SharedArrayBuffer(0, { maxByteLength: MAX_FIXTURE_BYTES }),
    counters,
    nonce: crypto.randomBytes(8).readBigUInt64LE(0),
  };
}

/** The worker-side view of the fixtures: the same functions in every case. */
export function fixtureView(shared) {
  const { fixtures, data: sab, counters, nonce } = shared;
  const cells = new BigUint64Array(counters);
  const view = {
    shared,
    dataLabel: fixtures.data_label,
    chunkPayloadBytes: fixtures.chunk_payload_bytes,

    /** The first n bytes of the data stream, generated once and shared (read-only by convention). */
    data(n) {
      if (n > MAX_FIXTURE_BYTES) throw new Error(`fixture of ${n} bytes exceeds the ${MAX_FIXTURE_BYTES}-byte limit`);
      const have = Number(Atomics.load(cells, 0));
      if (have < n) {
        if (sab.byteLength < n) sab.grow(n);
        fillData(fixtures.data_label, new Uint8Array(sab, have, n - have), have);
        Atomics.store(cells, 0, BigInt(n));
      }
      return new Uint8Array(sab, 0, n);
    },

    /** Chunk payload j: data[size j, size (j+1)). */
    payload(j, size = fixtures.chunk_payload_bytes) {
      return view.data(size * (j + 1)).subarray(size * j, size * (j + 1));
    },

    key: (k) => labelled(fixtures.key_label, k),
    message: (j) => labelled(fixtures.digest_label, j),

    /** The next upload salt of the run: 8 bytes, u64le(run_nonce + counter) wrapping. */
    salt() {
      const k = Atomics.add(cells, 1, 1n);
      const out = Buffer.alloc(8);
      out.writeBigUInt64LE(BigInt.asUintN(64, nonce + k));
      return new Uint8Array(out.buffer, out.byteOffset, 8);
    },

    /** salt || data[0, n) in a fresh, ordinary (unshared) buffer. */
    salted(n, salt = view.salt()) {
      const out = new Uint8Array(8 + n);
      out.set(salt, 0);
      out.set(view.data(n), 8);
      return out;
    },
  };
  return view;
}

/**
 * An on-disk fixture: an 8-byte salt then data[0, n), written in 1 MiB pieces (never held
 * whole) and reused when a file of the right size and tail is already there. Returns its path.
 */
export function ensureDataFile(label, path, n) {
  const size = 8 + n;
  const tail = new Uint8Array(Math.min(n, BLOCK));
  if (tail.length) fillData(label, tail, n - tail.length);
  try {
    if (statSync(path).size === size) {
      const fd = openSync(path, 'r');
      const have = new Uint8Array(tail.length);
      readSync(fd, have, 0, have.length, size - have.length);
      closeSync(fd);
      if (Buffer.compare(have, tail) === 0) return path;
    }
  } catch {
    // absent or unreadable: write it
  }
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, new Uint8Array(8), 0, 8, 0);
    const piece = new Uint8Array(1 << 20);
    for (let off = 0; off < n; off += piece.length) {
      const part = piece.subarray(0, Math.min(piece.length, n - off));
      fillData(label, part, off);
      writeSync(fd, part, 0, part.length, 8 + off);
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Overwrites the 8-byte salt at the start of an on-disk fixture. */
export function writeSalt(path, salt) {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, salt, 0, 8, 0);
  } finally {
    closeSync(fd);
  }
}
