// `ops`: single uploads and downloads on request, for the release experiment (issue 37), which
// drives a runner line by line: JSON lines on stdin, one JSON line per input line on stdout, in
// order, each written out before the next line is read; exit 0 at end of input. Upload payloads are
// made from a seed (built before the clock starts); download bodies are hashed as they arrive and
// never held. Everything goes through bee-js's own API; a parameter bee-js cannot put on the request
// is answered "unsupported: …" (swarm-params.mjs).
import crypto from 'node:crypto';
import { createInterface } from 'node:readline';
import { drain } from './cases/util.mjs';
import { operation } from './client.mjs';
import { describeError } from './errors.mjs';
import { Bad, check } from './plan.mjs';
import { beeOptions, LEVELS, readDownloadParams, readUploadParams, STRATEGIES, unexpressed } from './swarm-params.mjs';

/** @type {(n: number[], what: string) => (v: unknown, at: string) => void} */
const hexOf = (lengths, what) => (v, at) => {
  if (typeof v !== 'string' || !lengths.includes(v.length) || !/^[0-9a-f]*$/i.test(v)) throw new Bad(at, `must be ${what}, got ${JSON.stringify(v)}`);
};
/** @type {(what: string, ok: (v: number) => boolean) => (v: unknown, at: string) => void} */
const numberOf = (what, ok) => (v, at) => {
  if (typeof v !== 'number' || !ok(v)) throw new Bad(at, `must be ${what}, got ${JSON.stringify(v)}`);
};

/** The fields of each op (runners/README.md "ops"); a name ending in `?` is optional. */
const SHAPES = {
  upload: {
    id: 'string',
    op: ['upload'],
    size: numberOf('a positive integer (bytes)', (v) => Number.isInteger(v) && v >= 1),
    seed: hexOf([64], '64 hex digits'),
    'level?': LEVELS.map((_, i) => i),
    'deferred?': 'boolean',
    'endpoint?': ['bytes', 'bzz'],
  },
  download: {
    id: 'string',
    op: ['download'],
    reference: hexOf([64, 128], 'a reference (64 or 128 hex digits)'),
    'endpoint?': ['bytes', 'bzz'],
    'strategy?': STRATEGIES,
    'fallback?': 'boolean',
    'timeout_ms?': numberOf('a positive number of milliseconds', (v) => v > 0),
  },
};

/**
 * The upload payload of a seed: the first `size` bytes of SHA-256(seed || u64be(0)) ||
 * SHA-256(seed || u64be(1)) || …, seed being the 32 bytes of the hex.
 */
export function seedPayload(seedHex, size) {
  const out = new Uint8Array(size);
  const block = Buffer.alloc(40);
  Buffer.from(seedHex, 'hex').copy(block, 0);
  const sha256 = crypto.hash ? (b) => crypto.hash('sha256', b, 'buffer') : (b) => crypto.createHash('sha256').update(b).digest();
  for (let i = 0, at = 0; at < size; i++, at += 32) {
    block.writeUInt32BE(Math.floor(i / 2 ** 32), 32);
    block.writeUInt32BE(i >>> 0, 36);
    const digest = sha256(block);
    out.set(size - at >= 32 ? digest : digest.subarray(0, size - at), at);
  }
  return out;
}

/** Milliseconds between two hrtime.bigint() readings, to the microsecond. */
const msBetween = (t0, t1) => Math.round(Number(t1 - t0) / 1e3) / 1e3;

/** Times one client call (an async function): {ms, value} or {ms, error}. */
async function timed(call) {
  const t0 = process.hrtime.bigint();
  try {
    const value = await call();
    return { ms: msBetween(t0, process.hrtime.bigint()), value };
  } catch (error) {
    return { ms: msBetween(t0, process.hrtime.bigint()), error };
  }
}

/**
 * A download's error answer (a 404's) carries its body as a stream: read it (Bee's message, for
 * describeError) to the end, which also frees its connection (left taken, it would hold the process
 * open at the end of input until the node drops it, 30 s later). Under the download's abort timer.
 */
async function readErrorBody(err) {
  const body = err?.responseBody;
  if (typeof body?.on !== 'function') return;
  let text = '';
  try {
    for await (const chunk of body) if (text.length < 4096) text += Buffer.from(chunk).toString('utf8');
  } catch {
    // cut off: what arrived is the message
  }
  err.responseBody = text;
}

/** The answer to a line that is not an op. */
const badOp = (id, message) => ({ id, ok: false, error: `bad op: ${message}` });

/**
 * Serves ops for one node and batch: answer(line) resolves with the JSON answer of one input line.
 * `client` is loadClient()'s bee-js.
 */
export function opsServer(client, node) {
  const bee = new (client.export('Bee'))(node.url);
  const uploadData = operation(bee, 'uploadData');
  const uploadFile = operation(bee, 'uploadFile');
  const downloadReadableData = operation(bee, 'downloadReadableData');
  const downloadReadableFile = operation(bee, 'downloadReadableFile');
  const clientName = `${client.info.name} ${client.info.version}`;

  async function upload(o) {
    const endpoint = o.endpoint ?? 'bytes';
    const params = readUploadParams(o, { level: 'level', deferred: 'deferred' }, '');
    const reason = await unexpressed(client, `upload ${endpoint}`, params);
    if (reason) return { id: o.id, ok: false, error: `unsupported: ${reason}` };
    const options = beeOptions(client.lib, params);
    const payload = seedPayload(o.seed, o.size);
    const r = await timed(() =>
      endpoint === 'bzz'
        ? uploadFile(node.batchId, payload, 'payload.bin', { contentType: 'application/octet-stream', ...options })
        : uploadData(node.batchId, payload, Object.keys(options).length ? options : undefined),
    );
    if (r.error) return { id: o.id, ok: false, ms: r.ms, error: describeError(r.error) };
    const tag = r.value.tagUid;
    return { id: o.id, ok: true, ms: r.ms, reference: r.value.reference.toHex(), ...(typeof tag === 'number' ? { tag } : {}) };
  }

  async function download(o) {
    const endpoint = o.endpoint ?? 'bytes';
    const params = readDownloadParams(o, '');
    const reason = await unexpressed(client, `download ${endpoint}`, params);
    if (reason) return { id: o.id, ok: false, error: `unsupported: ${reason}` };
    const options = Object.values(params).some((v) => v !== undefined) ? beeOptions(client.lib, params) : undefined;
    const abort = new AbortController();
    const timer = o.timeout_ms === undefined ? undefined : setTimeout(() => abort.abort(), o.timeout_ms);
    const request = { signal: abort.signal };
    const r = await timed(async () => {
      const body =
        endpoint === 'bzz'
          ? (await downloadReadableFile(o.reference, undefined, options, request)).data
          : await downloadReadableData(o.reference, options, request);
      return drain(body);
    });
    // Failed once the abort fired: the timeout. A body read to its end before it took hold is a
    // finished download.
    const timedOut = abort.signal.aborted;
    if (r.error && !timedOut) await readErrorBody(r.error);
    clearTimeout(timer);
    if (r.error) return { id: o.id, ok: false, ms: r.ms, error: timedOut ? `timeout after ${o.timeout_ms} ms` : describeError(r.error) };
    return { id: o.id, ok: true, ms: r.ms, bytes: r.value.bytes, sha256: r.value.sha256 };
  }

  const OPS = { upload, download };

  return {
    ready: { ready: true, runner: 'js', client: { name: client.info.name, version: client.info.version } },
    clientName,
    /** The answer to one input line; never rejects. */
    async answer(line) {
      let o;
      try {
        o = JSON.parse(line);
      } catch (e) {
        return badOp(null, `not JSON: ${/** @type {Error} */ (e).message}`);
      }
      if (o === null || typeof o !== 'object' || Array.isArray(o)) return badOp(null, `not a JSON object: ${line.slice(0, 80)}`);
      const id = typeof o.id === 'string' || typeof o.id === 'number' ? o.id : null;
      if (o.op === undefined) return badOp(id, 'no "op" (upload or download)');
      if (!Object.hasOwn(OPS, o.op)) return badOp(id, `unknown op ${JSON.stringify(o.op)} (upload or download)`);
      try {
        check(o, SHAPES[o.op], '');
      } catch (e) {
        if (e instanceof Bad) return badOp(id, e.message);
        throw e;
      }
      try {
        return await OPS[o.op](o);
      } catch (e) {
        return { id, ok: false, error: describeError(e) };
      }
    },
  };
}

/** Writes one line to stdout and waits until it is handed to the system. */
const writeLine = (value) =>
  new Promise((resolve, reject) => process.stdout.write(`${JSON.stringify(value)}\n`, (err) => (err ? reject(err) : resolve(undefined))));

/** Runs `ops` on stdin/stdout until end of input; returns the exit code. */
export async function serveOps(client, node, log) {
  const server = opsServer(client, node);
  await writeLine(server.ready);
  log(`ops: ${server.clientName} against ${node.url}, batch ${node.batchId.slice(0, 8)}…`);
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    const answer = await server.answer(line);
    if (answer.ok === false) log(`ops: ${answer.id ?? '(no id)'}: ${answer.error}`);
    await writeLine(answer);
  }
  return 0;
}
