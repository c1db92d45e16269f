// The real-node parameters (issue 38): erasure level and upload mode on uploads, retrieval strategy
// and fallback mode on downloads. Read and checked from a plan unit's param or an `ops` line, turned
// into bee-js's own options, and checked to reach the request: bee-js builds the headers itself, and
// an option it drops (it sends an enum only when the value is non-zero) would let the node use its
// own default while the result claims the asked value. Such a parameter is "not expressible" with
// this bee-js: the case is skipped, the op answered "unsupported: …", never a hand-made header.
import { Skip } from './errors.mjs';

/** Swarm-Redundancy-Level 0..4, by bee-js's names (RedundancyLevel: OFF is Swarm's NONE). */
export const LEVELS = ['OFF', 'MEDIUM', 'STRONG', 'INSANE', 'PARANOID'];
/** Swarm-Redundancy-Strategy 0..3. */
export const STRATEGIES = ['NONE', 'DATA', 'PROX', 'RACE'];

/**
 * Each parameter: the bee-js option it becomes, the request header bee-js must send for it, and the
 * node's value when the header is absent (Bee's API defaults: level 0, deferred, DATA, fallback on),
 * so that an option bee-js leaves out because it is the node's default is not counted as dropped.
 */
const PARAMS = {
  level: {
    option: 'redundancyLevel',
    header: 'Swarm-Redundancy-Level',
    wire: (v) => String(v),
    nodeDefault: 0,
    shown: (v) => `${v} (${LEVELS[v]})`,
  },
  deferred: { option: 'deferred', header: 'Swarm-Deferred-Upload', wire: (v) => String(v), nodeDefault: true, shown: String },
  strategy: {
    option: 'redundancyStrategy',
    header: 'Swarm-Redundancy-Strategy',
    wire: (v) => String(STRATEGIES.indexOf(v)),
    nodeDefault: 'DATA',
    shown: (v) => `${v} (${STRATEGIES.indexOf(v)})`,
  },
  fallback: {
    option: 'fallback',
    header: 'Swarm-Redundancy-Fallback-Mode',
    wire: (v) => String(v),
    nodeDefault: 'true',
    nodeDefaultValue: true,
    shown: String,
  },
};

/** A parameter with a bad value; `field` names where it was read (param.redundancy_level, level). */
export class BadParam extends Error {
  name = 'BadParam';
  constructor(field, message, value) {
    super(`${field}: ${message}, got ${JSON.stringify(value)}`);
  }
}

/** The checks of one value, by kind; undefined stays undefined (absent: the client's default). */
const READ = {
  level: (v, field) => {
    if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v < LEVELS.length)) throw new BadParam(field, 'must be an integer 0..4', v);
    return v;
  },
  bool: (v, field) => {
    if (v !== undefined && typeof v !== 'boolean') throw new BadParam(field, 'must be true or false', v);
    return v;
  },
  strategy: (v, field) => {
    if (v !== undefined && !STRATEGIES.includes(v)) throw new BadParam(field, `must be ${STRATEGIES.join(', ')}`, v);
    return v;
  },
};

/**
 * The upload parameters of a plan param or an ops line: {level?, deferred?}. `names` maps each to
 * the key it is read from (a plan says redundancy_level, an ops line level).
 */
export function readUploadParams(obj, names = { level: 'redundancy_level', deferred: 'deferred' }, at = 'param.') {
  return {
    level: READ.level(obj[names.level], `${at}${names.level}`),
    deferred: READ.bool(obj[names.deferred], `${at}${names.deferred}`),
  };
}

/** The download parameters: {strategy?, fallback?}, read from `strategy` and `fallback`. */
export function readDownloadParams(obj, at = 'param.') {
  return { strategy: READ.strategy(obj.strategy, `${at}strategy`), fallback: READ.bool(obj.fallback, `${at}fallback`) };
}

/** The present parameters as bee-js options (enum values through bee-js's own enums). */
export function beeOptions(lib, params) {
  const options = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (key === 'level') options.redundancyLevel = lib.RedundancyLevel?.[LEVELS[value]] ?? value;
    else if (key === 'strategy') options.redundancyStrategy = lib.RedundancyStrategy?.[value] ?? STRATEGIES.indexOf(value);
    else options[PARAMS[key].option] = value;
  }
  return options;
}

/** Thrown from bee-js's onRequest hook: the request is built, and is never sent. */
class Captured extends Error {
  constructor(headers) {
    super('captured');
    this.headers = headers;
  }
}

const ZERO = '0'.repeat(64);

/** How to make each request bee-js is asked to shape, on a probe Bee instance, and its name. */
const CALLS = {
  'upload bytes': { request: 'POST /bytes', call: (bee, options) => bee.uploadData(ZERO, new Uint8Array(1), options) },
  'upload bzz': {
    request: 'POST /bzz',
    call: (bee, options) => bee.uploadFile(ZERO, new Uint8Array(1), 'payload.bin', { contentType: 'application/octet-stream', ...options }),
  },
  'download bytes': { request: 'GET /bytes', call: (bee, options) => bee.downloadReadableData(ZERO, options) },
  'download bzz': { request: 'GET /bzz', call: (bee, options) => bee.downloadReadableFile(ZERO, undefined, options) },
};

/** The headers (lower-case names) bee-js puts on one request, read from its onRequest hook; nothing is sent. */
async function requestHeaders(client, call, options) {
  const Bee = client.export('Bee');
  const bee = new Bee('http://127.0.0.1:9', {
    onRequest: (request) => {
      throw new Captured(request.headers ?? {});
    },
  });
  try {
    await call(bee, options);
  } catch (err) {
    if (err instanceof Captured) return Object.fromEntries(Object.entries(err.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    throw new Error(`cannot see the request bee-js ${client.info.version} makes (its onRequest hook did not run): ${err instanceof Error ? err.message : err}`);
  }
  throw new Error(`cannot see the request bee-js ${client.info.version} makes (its onRequest hook did not run)`);
}

const checked = new Map();

/**
 * Why bee-js cannot express these parameters on this request (`what`: "upload bytes", "download
 * bzz", …), or undefined when every present one reaches the request as asked. Cached per request
 * kind and values.
 */
export async function unexpressed(client, what, params) {
  const key = JSON.stringify([what, params]);
  if (!checked.has(key)) checked.set(key, findUnexpressed(client, what, params));
  return checked.get(key);
}

async function findUnexpressed(client, what, params) {
  const { request, call } = CALLS[what];
  const headers = await requestHeaders(client, call, beeOptions(client.lib, params));
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const p = PARAMS[key];
    const want = p.wire(value);
    const got = headers[p.header.toLowerCase()];
    if (got === want || (got === undefined && want === p.wire(p.nodeDefault))) continue;
    const sent =
      got === undefined
        ? `leaves its ${request} request without a ${p.header} header, so the node uses its default, ${p.shown(p.nodeDefault)}`
        : `sends ${p.header}: ${got} on its ${request} request`;
    return `${client.info.name} ${client.info.version} has no ${p.option} ${p.shown(value)}: asked for it, it ${sent}`;
  }
  return undefined;
}

/** Skip (a case's setup) when bee-js cannot express these parameters. */
export async function requireExpressed(client, what, params) {
  const reason = await unexpressed(client, what, params);
  if (reason) throw new Skip(reason);
}

/** Bee's answer to a direct upload on a dev node (400 "operation not supported in dev mode"). */
export const refusesDirect = (err, params) =>
  params.deferred === false && err?.status === 400 && /not supported/i.test(JSON.stringify(err.responseBody ?? err.message ?? ''));
