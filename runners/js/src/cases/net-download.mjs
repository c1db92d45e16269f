// Downloads of data uploaded in setup (a local-cache hit): bodies are drained into a counter,
// never buffered whole.
import { drain as drainBody, nodeApi, UPLOAD } from './util.mjs';

const RANGE_BYTES = 65536;

function expectBytes(got, want, what) {
  if (got !== want) throw new Error(`${what}: got ${got} bytes, want ${want}`);
}

/** net.bzz.download: GET /bzz/{ref} of `bytes` uploaded as a single file in setup. */
export async function bzzDownload(env, p) {
  const { batchId, uploadFile, downloadReadableFile } = nodeApi(env, 'uploadFile', 'downloadReadableFile');
  const data = env.fixtures.salted(p.bytes);
  const { reference } = await uploadFile(batchId, data, 'bench.bin', { ...UPLOAD, contentType: 'application/octet-stream' });
  return {
    async op() {
      const file = await downloadReadableFile(reference);
      expectBytes(await drainBody(file.data), data.length, 'GET /bzz');
    },
  };
}

/** net.bytes.head: `count` HEAD /bytes/{ref} against a 1 MiB upload. */
export async function bytesHead(env, p) {
  const { batchId, uploadData, probeData } = nodeApi(env, 'uploadData', 'probeData');
  const { reference } = await uploadData(batchId, env.fixtures.salted(1 << 20), UPLOAD);
  return {
    async op() {
      for (let i = 0; i < p.count; i++) await probeData(reference);
    },
  };
}

/** net.bytes.download.range: `ranges` GET /bytes/{ref} with Range: bytes=0-65535. */
export async function bytesDownloadRange(env, p) {
  const { batchId, uploadData, downloadReadableData } = nodeApi(env, 'uploadData', 'downloadReadableData');
  const { reference } = await uploadData(batchId, env.fixtures.salted(p.bytes), UPLOAD);
  const request = { headers: { Range: `bytes=0-${RANGE_BYTES - 1}` } };
  const want = Math.min(RANGE_BYTES, 8 + p.bytes);
  return {
    async op() {
      for (let i = 0; i < p.ranges; i++) {
        expectBytes(await drainBody(await downloadReadableData(reference, undefined, request)), want, 'ranged GET /bytes');
      }
    },
  };
}
