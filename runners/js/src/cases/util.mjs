// Small helpers the cases share.
import { createHash } from 'node:crypto';
import { operation } from '../client.mjs';
import { describeError, Skip } from '../errors.mjs';
import { beeOptions, readUploadParams, refusesDirect, requireExpressed } from '../swarm-params.mjs';

/** Concatenates byte arrays in order (the digest input of `sha256-concat` outputs). */
export function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const range = (n) => Array.from({ length: n }, (_, i) => i);

/** sprintf-style zero padding: pad(7, 4) = "0007". */
export const pad = (n, width) => String(n).padStart(width, '0');

/** bee-js Bytes (or a plain Uint8Array) as a Uint8Array. */
export const raw = (b) => (b instanceof Uint8Array ? b : b.toUint8Array());

/**
 * A Bee instance. CPU cases that need one (offline collection hashing) get a client pointed at a
 * loopback URL it never contacts; net cases get the --bee-url node.
 */
export function beeClient(env) {
  const Bee = env.client.export('Bee');
  if (!env.node) return new Bee('http://127.0.0.1:1633');
  return new Bee(env.node.url, { timeout: env.node.callTimeoutS * 1000 });
}

/** The node, its batch and the operations a net case uses, resolved up front (Skip if absent). */
export function nodeApi(env, ...names) {
  const bee = beeClient(env);
  const ops = Object.fromEntries(names.map((n) => [n, operation(bee, n)]));
  return { bee, batchId: env.node.batchId, ...ops };
}

/** Calls take(chunk) for each chunk of a download body (a web ReadableStream or a Node stream) as it arrives. */
export async function eachChunk(body, take) {
  if (typeof body?.getReader === 'function') {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      take(value);
    }
  }
  for await (const chunk of body) take(chunk);
}

/** Reads a download body to the end into a SHA-256 and a byte count, never holding it whole. */
export async function drain(body) {
  const hash = createHash('sha256');
  let n = 0;
  await eachChunk(body, (chunk) => {
    hash.update(chunk);
    n += chunk.byteLength;
  });
  return { bytes: n, sha256: hash.digest('hex') };
}

/** Reads a download body to the end, counting its bytes (the timed downloads: no hashing in the region). */
export async function countBytes(body) {
  let n = 0;
  await eachChunk(body, (chunk) => {
    n += chunk.byteLength;
  });
  return n;
}

/** Fails unless a timed download brought back as many bytes as were uploaded. */
export function expectBytes(call, got, want) {
  if (got !== want) throw new Error(`content mismatch on ${call}: got ${got} bytes, the upload was ${want} bytes`);
}

/** A download's expected content: its length and SHA-256. */
export const contentOf = (bytes) => ({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });

/** Fails unless a drained body is exactly the expected content; the same wording in every runner. */
export function expectContent(call, got, want) {
  if (got.bytes !== want.bytes || got.sha256 !== want.sha256) {
    throw new Error(
      `content mismatch on ${call}: got ${got.bytes} bytes (sha256 ${got.sha256.slice(0, 16)}), the upload was ${want.bytes} bytes (sha256 ${want.sha256.slice(0, 16)})`,
    );
  }
}

/** HTTP status of a bee-js response error, if it is one. */
export const statusOf = (err) => (typeof err?.status === 'number' ? err.status : undefined);

/** The skip reason of a 501 to a write, worded the same in every runner. */
export const nodeLimitation = (what) =>
  `the Bee node answers 501 Not Implemented to ${what}: a dev node (bee dev) has no single-owner-chunk (SOC) or feed writes`;

/**
 * Runs a write the node may not support. A dev node (bee dev) answers 501 Not Implemented to
 * single-owner-chunk writes, which feeds are made of: that is a Skip naming the limitation.
 */
export async function probeWrite(what, write) {
  try {
    return await write();
  } catch (err) {
    if (statusOf(err) === 501) {
      throw new Skip(nodeLimitation(what));
    }
    throw err;
  }
}

/**
 * One write under a fresh 32-byte name (feed topic, SOC identifier), from the next salt:
 * name = SHA-256(salt), payload = salt || data[0, n - 8), n bytes in all.
 */
export function saltedWrite(env, n) {
  const salt = env.fixtures.salt();
  return { name: createHash('sha256').update(salt).digest(), payload: env.fixtures.salted(n - 8, salt) };
}

/** Upload options every upload shares: deferred, as the group notes say. */
export const UPLOAD = Object.freeze({ deferred: true });

/** A single-file /bzz upload's options: UPLOAD as raw bytes (application/octet-stream). */
export const FILE = Object.freeze({ ...UPLOAD, contentType: 'application/octet-stream' });

/**
 * The options of a case's uploads (`what`: "upload bytes" or "upload bzz"): `base` with the unit's
 * redundancy_level and deferred as bee-js options. Skips when bee-js cannot express them, and,
 * for a direct upload, when the node refuses one (a dev node: 400 "operation not supported in dev
 * mode"), quoting the node; `probe(options)` is that one untimed direct upload of a few bytes.
 */
export async function uploadOptions(env, p, what, base, probe) {
  const params = readUploadParams(p);
  await requireExpressed(env.client, what, params);
  const options = { ...base, ...beeOptions(env.client.lib, params) };
  if (params.deferred === false) {
    try {
      await probe(options);
    } catch (err) {
      if (refusesDirect(err, params)) throw new Skip(`the node refuses direct uploads: ${describeError(err)}`);
      throw err;
    }
  }
  return options;
}
