// Keccak cases: the BMT chunk address per 4096-byte payload (sequential and over a worker pool)
// and one Keccak-256 over a large buffer.
import { allocatedElsewhere } from '../alloc.mjs';
import { KeccakPool } from './keccak-pool.mjs';
import { concat, raw } from './util.mjs';

export const CHUNK_ADDRESS = ['dist/mjs/chunk/bmt.js', 'calculateChunkAddress'];

/** span || payload for payloads lo..hi-1, the input of bee-js calculateChunkAddress. */
export function spannedPayloads(fixtures, lo, hi, size) {
  const out = [];
  for (let j = lo; j < hi; j++) {
    const chunk = new Uint8Array(8 + size);
    new DataView(chunk.buffer).setBigUint64(0, BigInt(size), true);
    chunk.set(fixtures.payload(j, size), 8);
    out.push(chunk);
  }
  return out;
}

/** cpu.keccak.chunk-hash: calculateChunkAddress(span || payload j) for j in 0..count-1. */
export async function chunkHash(env, p) {
  const chunkAddress = await env.client.internal(...CHUNK_ADDRESS);
  const chunks = spannedPayloads(env.fixtures, 0, p.count, p.chunk_bytes);
  const addrs = new Array(chunks.length);
  return {
    op() {
      for (let j = 0; j < chunks.length; j++) addrs[j] = chunkAddress(chunks[j]);
    },
    output: () => concat(addrs.map(raw)),
  };
}

/**
 * cpu.keccak.parallel: the same work in contiguous slices over one worker thread per CPU. In a
 * cycles process (`env.cacheSim`) the workers take their turns one after another, each from a
 * settled heap: callgrind runs one thread at a time and simulates one cache for all of them, so
 * where the workers' turns interleaved (thread timing) moved the misses; the work counted is the
 * same (docs/calibration.md "Estimated cycles").
 */
export async function chunkHashParallel(env, p) {
  await env.client.internal(...CHUNK_ADDRESS); // skip here, not in the pool, if it is absent
  env.fixtures.data(p.count * p.chunk_bytes); // generated once here, read in place by the pool
  const pool = await KeccakPool.start({ workers: env.cpus, count: p.count, chunkBytes: p.chunk_bytes, shared: env.fixtures.shared, allocs: env.allocs });
  let slices = [];
  return {
    ...(env.cacheSim ? { before: () => pool.settle() } : {}),
    async op() {
      slices = await (env.cacheSim ? pool.runInTurn() : pool.run());
      // Measuring allocations, each worker metered its own part.
      if (env.allocs) slices = slices.map(({ out, bytes }) => (allocatedElsewhere(bytes), out));
    },
    output: () => concat(slices),
    close: () => pool.close(),
  };
}

/** cpu.keccak.bulk: Bytes.keccak256 over the first `bytes` of the data fixture. */
export function keccakBulk(env, p) {
  const Bytes = env.client.export('Bytes');
  if (typeof Bytes.keccak256 !== 'function') throw new Error('bee-js Bytes has no keccak256');
  const data = env.fixtures.data(p.bytes);
  let hash;
  return {
    op() {
      hash = Bytes.keccak256(data);
    },
    output: () => raw(hash),
  };
}
