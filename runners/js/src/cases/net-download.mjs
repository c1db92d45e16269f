// Downloads of data uploaded in setup (a local-cache hit): bodies are drained into a counter,
// never buffered whole.
import { contentOf, drain, expectContent, nodeApi, UPLOAD } from './util.mjs';

const RANGE_BYTES = 65536;

/** net.bzz.download: GET /bzz/{ref} of `bytes` uploaded as a single file in setup. */
export async function bzzDownload(env, p) {
  const { batchId, uploadFile, downloadReadableFile } = nodeApi(env, 'uploadFile', 'downloadReadableFile');
  const data = env.fixtures.salted(p.bytes);
  const { reference } = await uploadFile(batchId, data, 'bench.bin', { ...UPLOAD, contentType: 'application/octet-stream' });
  const want = contentOf(data);
  return {
    async op() {
      const file = await downloadReadableFile(reference);
      expectContent('GET /bzz', await drain(file.data), want);
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
  const data = env.fixtures.salted(p.bytes);
  const { reference } = await uploadData(batchId, data, UPLOAD);
  const request = { headers: { Range: `bytes=0-${RANGE_BYTES - 1}` } };
  const want = contentOf(data.subarray(0, RANGE_BYTES));
  return {
    async op() {
      for (let i = 0; i < p.ranges; i++) {
        expectContent('ranged GET /bytes', await drain(await downloadReadableData(reference, undefined, request)), want);
      }
    },
  };
}
