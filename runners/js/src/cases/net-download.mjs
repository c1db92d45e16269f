// Downloads of data uploaded in setup (a local-cache hit): bodies are drained into a counter,
// never buffered whole. net.bytes.download and net.bzz.download take the unit's redundancy_level
// (of the untimed upload that makes the reference), strategy and fallback; before timing, one
// untimed download with the same options is compared with the upload (length and SHA-256), and each
// timed one checks its byte count.
import { beeOptions, readDownloadParams, requireExpressed } from '../swarm-params.mjs';
import { contentOf, countBytes, drain, expectBytes, expectContent, FILE, nodeApi, UPLOAD, uploadOptions } from './util.mjs';

const RANGE_BYTES = 65536;

/** The two endpoints a whole-content download case uses: how to upload to it and read it back. */
const ENDPOINTS = {
  bytes: {
    ops: ['uploadData', 'downloadReadableData'],
    base: UPLOAD,
    upload: (api, data, options) => api.uploadData(api.batchId, data, options),
    download: async (api, reference, options) => api.downloadReadableData(reference, options),
  },
  bzz: {
    ops: ['uploadFile', 'downloadReadableFile'],
    base: FILE,
    upload: (api, data, options) => api.uploadFile(api.batchId, data, 'bench.bin', options),
    download: async (api, reference, options) => (await api.downloadReadableFile(reference, undefined, options)).data,
  },
};

/** GET /{endpoint}/{ref} of `bytes` (salt || data) uploaded in setup at the unit's level. */
function wholeDownload(endpoint) {
  const e = ENDPOINTS[endpoint];
  const call = `GET /${endpoint}`;
  return async (env, p) => {
    const api = nodeApi(env, ...e.ops);
    const params = readDownloadParams(p);
    await requireExpressed(env.client, `download ${endpoint}`, params);
    const upload = await uploadOptions(env, p, `upload ${endpoint}`, e.base, (o) => e.upload(api, env.fixtures.salted(0), o));
    const data = env.fixtures.salted(p.bytes);
    const { reference } = await e.upload(api, data, upload);
    const options = Object.values(params).some((v) => v !== undefined) ? beeOptions(env.client.lib, params) : undefined;
    expectContent(call, await drain(await e.download(api, reference, options)), contentOf(data));
    return {
      async op() {
        expectBytes(call, await countBytes(await e.download(api, reference, options)), data.length);
      },
    };
  };
}

/** net.bzz.download: GET /bzz/{ref} of a single file. */
export const bzzDownload = wholeDownload('bzz');

/** net.bytes.download: GET /bytes/{ref} of raw data. */
export const bytesDownload = wholeDownload('bytes');

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
