// The resolved plan (bee-bench/plan@1, runners/README.md "Command line"): the engine applied every
// spec rule, so this runner only reads and checks it. The checks mirror src/spec/plan.ts (the
// runner is built from a copy of its own folder and cannot import the engine): strict objects,
// the field named on the first problem (exit 2).
import { readFileSync } from 'node:fs';
import { UsageError } from './errors.mjs';

export const RUNNER = 'js';
const SCHEMA = 'bee-bench/plan@1';

/** A problem at one field; loadPlan prefixes the file. */
class Bad extends Error {
  constructor(at, message) {
    super(`${at || '(root)'}: ${message}`);
  }
}

const field = (at, key) => (at ? `${at}.${key}` : key);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);

/** A leaf check: a predicate and what it wants. */
const leaf = (ok, want) => (v, at) => {
  if (!ok(v)) throw new Bad(at, `${want}, got ${JSON.stringify(v)}`);
};
const nonNegativeInt = leaf((v) => Number.isInteger(v) && v >= 0, 'must be a non-negative integer');
const positiveInt = leaf((v) => Number.isInteger(v) && v > 0, 'must be a positive integer');
const positive = leaf((v) => isNumber(v) && v > 0, 'must be a positive number');
const nonNegative = leaf((v) => isNumber(v) && v >= 0, 'must be a non-negative number');
const string = leaf((v) => typeof v === 'string', 'must be a string');
const oneOf = (...values) => leaf((v) => values.includes(v), `must be ${values.map((x) => JSON.stringify(x)).join(' or ')}`);
const matching = (re) => leaf((v) => typeof v === 'string' && re.test(v), `must match ${re}`);

/** An object with exactly these fields; a name ending in `?` is optional. */
const strict = (shape) => {
  const fields = Object.entries(shape).map(([name, check]) => ({ key: name.replace(/\?$/, ''), optional: name.endsWith('?'), check }));
  const known = new Set(fields.map((f) => f.key));
  return (v, at) => {
    if (!isObject(v)) throw new Bad(at, 'must be an object');
    for (const { key, optional, check } of fields) {
      if (v[key] === undefined && optional) continue;
      if (v[key] === undefined) throw new Bad(field(at, key), 'missing');
      check(v[key], field(at, key));
    }
    const unknown = Object.keys(v).find((k) => !known.has(k));
    if (unknown !== undefined) throw new Bad(field(at, unknown), 'unknown field');
  };
};

/** Param values: names to numbers, strings or booleans, with a non-empty string label. */
const params = (v, at) => {
  if (!isObject(v)) throw new Bad(at, 'must be an object');
  for (const [k, x] of Object.entries(v)) {
    if (!['number', 'string', 'boolean'].includes(typeof x)) throw new Bad(field(at, k), `must be a number, string or boolean, got ${JSON.stringify(x)}`);
  }
};
const labelled = (v, at) => {
  params(v, at);
  if (typeof v.label !== 'string' || v.label === '') throw new Bad(field(at, 'label'), 'must be a non-empty string');
};

const checkUnit = strict({
  unit: nonNegativeInt,
  id: matching(/^(cpu|net)\.[a-z0-9.-]+$/),
  kind: oneOf('cpu', 'net'),
  param: labelled,
  digest: (v, at) => v === null || strict({ form: oneOf('value', 'sha256-concat'), param: params })(v, at),
  work: strict({ 'ops?': nonNegative, 'bytes?': nonNegative }),
  warmup: nonNegativeInt,
  iters: positiveInt,
  timeout_s: positive,
  'parallel?': leaf((v) => typeof v === 'boolean', 'must be a boolean'),
  'fault?': oneOf('throw', 'hang', 'reject'),
  'slowdown?': nonNegative,
  'alloc_extra?': nonNegative,
});

const checkPlan = strict({
  schema: oneOf(SCHEMA),
  runner: (v, at) => {
    if (v !== RUNNER)
      throw new Bad(at, `the plan is for the ${JSON.stringify(v)} runner, this is ${JSON.stringify(RUNNER)} (make one with bee-bench plan --runner ${RUNNER})`);
  },
  profile: oneOf('quick', 'full'),
  spec_hash: matching(/^[0-9a-f]{64}$/),
  fixtures: strict({ data_label: string, key_label: string, digest_label: string, chunk_payload_bytes: positiveInt }),
  units: (v, at) => {
    if (!Array.isArray(v)) throw new Bad(at, 'must be an array');
    v.forEach((u, i) => {
      checkUnit(u, `${at}[${i}]`);
      if (!u.id.startsWith(`${u.kind}.`)) throw new Bad(`${at}[${i}].kind`, `"${u.kind}" does not match ${u.id}`);
      if (i > 0 && u.unit <= v[i - 1].unit) throw new Bad(`${at}[${i}].unit`, `unit numbers must increase (${v[i - 1].unit} then ${u.unit})`);
    });
  },
});

/** Reads and checks a plan file; a problem is a UsageError naming the file and the field. */
export function loadPlan(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--plan: cannot read ${path}: ${e.message}`);
  }
  try {
    const plan = JSON.parse(text);
    checkPlan(plan, '');
    return plan;
  } catch (e) {
    if (e instanceof SyntaxError) throw new UsageError(`bad plan ${path}: not JSON: ${e.message}`);
    if (e instanceof Bad) throw new UsageError(`bad plan ${path}: ${e.message}`);
    throw e;
  }
}
