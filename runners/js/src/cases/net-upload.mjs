// Uploads of salted buffers (unique per iteration, so the node never deduplicates): /bzz as a
// single file, encrypted, streamed from disk; /bytes raw and with tag bookkeeping. net.bytes.upload
// and the /bzz single-file uploads take the unit's redundancy_level and deferred (uploadOptions),
// their untimed digest upload too: the digest is that level's reference.
import { createReadStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDataFile, writeSalt } from '../fixtures.mjs';
import { FILE, nodeApi, raw, UPLOAD, uploadOptions } from './util.mjs';

/** A salt || data[0, bytes) buffer whose salt is renewed before every iteration. */
function saltedBuffer(env, bytes) {
  const buf = env.fixtures.salted(bytes);
  return { buf, renew: () => buf.set(env.fixtures.salt(), 0) };
}

/** data[0, bytes) as a plain copy: bee-js sends other bytes for a view over the fixtures' SharedArrayBuffer. */
const unsalted = (env, bytes) => env.fixtures.data(bytes).slice();

function bzzUploadWith(base) {
  return async (env, p) => {
    const { batchId, uploadFile } = nodeApi(env, 'uploadFile');
    const options = await uploadOptions(env, p, 'upload bzz', base, (o) => uploadFile(batchId, env.fixtures.salted(0), 'bench.bin', o));
    const { buf, renew } = saltedBuffer(env, p.bytes);
    // Encrypted references are random: only the plain upload has a digest (unsalted, see bytesUpload).
    const output = base.encrypt ? undefined : async () => raw((await uploadFile(batchId, unsalted(env, p.bytes), 'bench.bin', options)).reference);
    return { before: renew, op: () => uploadFile(batchId, buf, 'bench.bin', options), output };
  };
}

/** net.bzz.upload */
export const bzzUpload = bzzUploadWith(FILE);

/** net.bzz.upload.encrypted: Swarm-Encrypt: true */
export const bzzUploadEncrypted = bzzUploadWith({ ...FILE, encrypt: true });

/**
 * net.bzz.upload-from-disk: a Node Readable over the on-disk fixture as the request body. Its
 * digest streams the same file past its salt (data[0, bytes), unsalted) as bench.bin, once and
 * untimed: the reference net.bzz.upload gets for the same bytes.
 */
export async function bzzUploadFromDisk(env, p) {
  const { batchId, uploadFile } = nodeApi(env, 'uploadFile');
  await mkdir(env.fixturesDir, { recursive: true });
  const path = ensureDataFile(env.fixtures.dataLabel, join(env.fixturesDir, `upload-${p.bytes}.bin`), p.bytes);
  const options = { ...FILE, size: 8 + p.bytes };
  return {
    before: () => writeSalt(path, env.fixtures.salt()),
    op: () => uploadFile(batchId, createReadStream(path), 'bench.bin', options),
    output: async () => raw((await uploadFile(batchId, createReadStream(path, { start: 8 }), 'bench.bin', { ...FILE, size: p.bytes })).reference),
  };
}

/**
 * net.bytes.upload. Its digest is the reference Bee returns for data[0, bytes) uploaded
 * unsalted, once and untimed: the same bytes in every runner, so it is comparable across clients
 * and with the offline BMT root of cpu.bmt.file-root.
 */
export async function bytesUpload(env, p) {
  const { batchId, uploadData } = nodeApi(env, 'uploadData');
  const options = await uploadOptions(env, p, 'upload bytes', UPLOAD, (o) => uploadData(batchId, env.fixtures.salted(0), o));
  const { buf, renew } = saltedBuffer(env, p.bytes);
  return {
    before: renew,
    op: () => uploadData(batchId, buf, options),
    output: async () => raw((await uploadData(batchId, unsalted(env, p.bytes), options)).reference),
  };
}

/**
 * net.tags.upload-with-tag: POST /tags, POST /bytes with Swarm-Tag, GET /tags/{uid}. Its digest is
 * the reference of the unsalted fixture uploaded under a fresh tag (the BMT root, as bytesUpload).
 */
export function tagsUploadWithTag(env, p) {
  const { batchId, createTag, uploadData, retrieveTag } = nodeApi(env, 'createTag', 'uploadData', 'retrieveTag');
  const { buf, renew } = saltedBuffer(env, p.bytes);
  const tagged = async (body) => {
    const { uid } = await createTag();
    const { reference } = await uploadData(batchId, body, { ...UPLOAD, tag: uid });
    await retrieveTag(uid);
    return reference;
  };
  return {
    before: renew,
    op: () => tagged(buf),
    output: async () => raw(await tagged(unsalted(env, p.bytes))),
  };
}
