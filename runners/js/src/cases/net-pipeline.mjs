// Per-call and per-chunk endpoints: pinning, /chunks, the streaming directory upload, SOC writes.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { concat, nodeApi, pad, probeWrite, range, raw, saltedWrite, UPLOAD } from './util.mjs';

/**
 * net.pin.add-list: pin `count` references, list the pins, unpin them all. Each reference is a
 * 4096-byte upload made in setup: salt || data[0, 4088).
 */
export async function pinAddList(env, p) {
  const { batchId, uploadData, pin, getAllPins, unpin } = nodeApi(env, 'uploadData', 'pin', 'getAllPins', 'unpin');
  const refs = [];
  for (const _ of range(p.count)) refs.push((await uploadData(batchId, env.fixtures.salted(env.fixtures.chunkPayloadBytes - 8), UPLOAD)).reference);
  return {
    async op() {
      for (const ref of refs) await pin(ref);
      await getAllPins();
      for (const ref of refs) await unpin(ref);
    },
  };
}

/** A content-addressed chunk as sent to POST /chunks: u64le span || payload. */
function chunkOf(payload) {
  const chunk = new Uint8Array(8 + payload.length);
  new DataView(chunk.buffer).setBigUint64(0, BigInt(payload.length), true);
  chunk.set(payload, 8);
  return chunk;
}

/**
 * net.chunks.upload: `count` POST /chunks of content-addressed chunks built before each
 * iteration: span || (salt || payload j), one 4096-byte payload each. Dev nodes insist on a
 * Swarm-Tag on /chunks, so a tag is created first. Its digest is sha256 of the addresses Bee
 * returns for the unsalted chunks span || payload j, uploaded once, untimed.
 */
export async function chunksUpload(env, p) {
  const { batchId, createTag, uploadChunk } = nodeApi(env, 'createTag', 'uploadChunk');
  const { uid } = await createTag();
  const options = { ...UPLOAD, tag: uid };
  const size = env.fixtures.chunkPayloadBytes;
  let chunks = [];
  return {
    before() {
      chunks = range(p.count).map((j) => chunkOf(concat([env.fixtures.salt(), env.fixtures.payload(j, size).subarray(0, size - 8)])));
    },
    async op() {
      for (const chunk of chunks) await uploadChunk(batchId, chunk, options);
    },
    async output() {
      const refs = [];
      for (const j of range(p.count)) refs.push(raw((await uploadChunk(batchId, chunkOf(env.fixtures.payload(j, size).slice()), options)).reference));
      return concat(refs);
    },
  };
}

/**
 * net.stream-dir.upload: bee-js streams a directory from disk chunk by chunk (POST /chunks per
 * chunk), then saves its manifest. Before every iteration file i is rewritten as `file_bytes`
 * bytes: its own salt || data[file_bytes i, file_bytes (i+1) - 8). Its digest is the manifest
 * reference of the unsalted files data[file_bytes i, file_bytes (i+1)), streamed once, untimed:
 * the client builds that manifest, so equal references mean equal manifests.
 */
export async function streamDirUpload(env, p) {
  const { batchId, createTag, streamDirectory } = nodeApi(env, 'createTag', 'streamDirectory');
  const { uid } = await createTag();
  await mkdir(env.fixturesDir, { recursive: true });
  const dir = await mkdtemp(join(env.fixturesDir, 'stream-dir-'));
  const plain = await mkdtemp(join(env.fixturesDir, 'stream-dir-plain-'));
  const data = env.fixtures.data(p.files * p.file_bytes);
  const options = { ...UPLOAD, tag: uid };
  return {
    async before() {
      for (const i of range(p.files)) {
        const file = new Uint8Array(p.file_bytes);
        file.set(env.fixtures.salt(), 0);
        file.set(data.subarray(p.file_bytes * i, p.file_bytes * (i + 1) - 8), 8);
        await writeFile(join(dir, `f${pad(i, 4)}.bin`), file);
      }
    },
    op: () => streamDirectory(batchId, dir, undefined, options),
    async output() {
      for (const i of range(p.files)) await writeFile(join(plain, `f${pad(i, 4)}.bin`), data.slice(p.file_bytes * i, p.file_bytes * (i + 1)));
      return raw((await streamDirectory(batchId, plain, undefined, options)).reference);
    },
    close: () => Promise.all([dir, plain].map((d) => rm(d, { recursive: true, force: true }))),
  };
}

/**
 * net.soc.upload: `count` SOC writes with key 0, each from its own salt: identifier =
 * SHA-256(salt), payload = salt || data[0, 4088).
 */
export async function socUpload(env, p) {
  const { batchId, makeSOCWriter } = nodeApi(env, 'makeSOCWriter');
  const PrivateKey = env.client.export('PrivateKey');
  const Identifier = env.client.export('Identifier');
  const writer = makeSOCWriter(new PrivateKey(env.fixtures.key(0)));
  const freshSoc = () => {
    const { name, payload } = saltedWrite(env, env.fixtures.chunkPayloadBytes);
    return { id: new Identifier(name), payload };
  };
  const probe = freshSoc();
  await probeWrite('SOC writes (POST /soc)', () => writer.upload(batchId, probe.id, probe.payload));
  let socs = [];
  return {
    before() {
      socs = range(p.count).map(freshSoc);
    },
    async op() {
      for (const { id, payload } of socs) await writer.upload(batchId, id, payload);
    },
  };
}
