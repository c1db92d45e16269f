// The case spec: loading, the checks this runner relies on (a bad spec is exit 2 naming the
// field), case selection and param resolution exactly as runners/README.md "Params" says.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from './errors.mjs';
import { globToRegExp } from './glob.mjs';

export const RUNNER = 'js';
export const PROFILES = ['quick', 'full'];

/** Reads and checks the spec; returns it with the hex SHA-256 of the file bytes. */
export function loadSpec(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new UsageError(`--spec: cannot read ${path}: ${e.message}`);
  }
  let spec;
  try {
    spec = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new UsageError(`bad spec ${path}: not JSON: ${e.message}`);
  }
  checkSpec(spec, path);
  return { spec, hash: createHash('sha256').update(bytes).digest('hex') };
}

function checkSpec(spec, file) {
  const fail = (field, msg) => {
    throw new UsageError(`bad spec ${file}: ${field}: ${msg}`);
  };
  const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const posInt = (v) => Number.isInteger(v) && v > 0;
  const isValue = (v) => ['number', 'string', 'boolean'].includes(typeof v);

  if (!isObj(spec)) fail('(root)', 'must be an object');
  if (spec.schema !== 'bee-bench/spec@1') fail('schema', `must be "bee-bench/spec@1", got ${JSON.stringify(spec.schema)}`);
  for (const name of PROFILES) {
    const p = spec.profiles?.[name];
    const at = `profiles.${name}`;
    if (!isObj(p)) fail(at, 'missing');
    if (!posInt(p.iters)) fail(`${at}.iters`, 'must be a positive integer');
    for (const kind of ['cpu', 'net']) {
      if (!(Number.isInteger(p.warmup?.[kind]) && p.warmup[kind] >= 0)) fail(`${at}.warmup.${kind}`, 'must be a non-negative integer');
    }
    if (!(typeof p.case_timeout_s === 'number' && p.case_timeout_s > 0)) fail(`${at}.case_timeout_s`, 'must be a positive number');
  }
  for (const key of ['data_label', 'key_label', 'digest_label']) {
    if (typeof spec.fixtures?.[key] !== 'string') fail(`fixtures.${key}`, 'must be a string');
  }
  if (!posInt(spec.fixtures.chunk_payload_bytes)) fail('fixtures.chunk_payload_bytes', 'must be a positive integer');
  if (!Array.isArray(spec.cases) || spec.cases.length === 0) fail('cases', 'must be a non-empty array');

  const seen = new Set();
  spec.cases.forEach((c, i) => {
    const at = `cases[${i}]`;
    if (!isObj(c)) fail(at, 'must be an object');
    if (typeof c.id !== 'string' || !/^(cpu|net)\.[a-z0-9.-]+$/.test(c.id)) fail(`${at}.id`, `bad id ${JSON.stringify(c.id)}`);
    if (seen.has(c.id)) fail(`${at}.id`, `duplicate id ${c.id}`);
    seen.add(c.id);
    if (c.kind !== c.id.split('.')[0]) fail(`${at}.kind`, `must be "${c.id.split('.')[0]}" for ${c.id}`);
    if (!isObj(c.work) || !Array.isArray(c.work.ops)) fail(`${at}.work.ops`, 'must be an array of param names');
    if (c.work.bytes !== undefined && !Array.isArray(c.work.bytes)) fail(`${at}.work.bytes`, 'must be an array of param names');
    if (c.digest !== null && !['value', 'sha256-concat'].includes(c.digest?.form)) fail(`${at}.digest.form`, 'must be "value" or "sha256-concat" (or digest null)');
    for (const name of PROFILES) {
      if (c.iters?.[name] !== undefined && !posInt(c.iters[name])) fail(`${at}.iters.${name}`, 'must be a positive integer');
      const params = c.params?.[name];
      if (!Array.isArray(params) || params.length === 0) fail(`${at}.params.${name}`, 'must be a non-empty array');
      params.forEach((p, j) => {
        const pat = `${at}.params.${name}[${j}]`;
        if (!isObj(p)) fail(pat, 'must be an object');
        if (typeof p.label !== 'string' || p.label === '') fail(`${pat}.label`, 'must be a non-empty string');
        for (const [k, v] of Object.entries(p)) {
          if (k === 'per_runner' || k === 'digest_with') {
            const groups = k === 'per_runner' ? Object.values(v ?? {}) : [v];
            if (!isObj(v) || !groups.every((g) => isObj(g) && Object.values(g).every(isValue))) fail(`${pat}.${k}`, 'must map names to numbers, strings or booleans');
          } else if (!isValue(v)) fail(`${pat}.${k}`, 'must be a number, string or boolean');
        }
        const eff = effectiveParam(p);
        for (const n of [...c.work.ops, ...(c.work.bytes ?? [])]) {
          if (typeof eff[n] !== 'number') fail(`${pat}.${n}`, `work names "${n}" but the param has no number by that name`);
        }
      });
    }
  });
}

/** The param this runner runs with: per_runner/digest_with removed, per_runner.js merged over it. */
export function effectiveParam(p) {
  const { per_runner: perRunner, digest_with: _digestWith, ...values } = p;
  return { ...values, ...(perRunner?.[RUNNER] ?? {}) };
}

/** The input of the untimed digest evaluation: the effective param with digest_with merged over it. */
export const digestParam = (p) => ({ ...effectiveParam(p), ...(p.digest_with ?? {}) });

/** Work per iteration: products of the named effective param values; an empty list omits the field. */
export function workOf(c, eff) {
  const product = (names) => names.reduce((acc, n) => acc * eff[n], 1);
  const work = {};
  if (c.work.bytes?.length) work.bytes = product(c.work.bytes);
  if (c.work.ops.length) work.ops = product(c.work.ops);
  return work;
}

/**
 * The plan: every selected case with every param of the profile, in spec order. A glob that
 * selects nothing is a usage error naming it.
 */
export function plan(spec, { profile, caseGlobs = [], large = false }) {
  const patterns = caseGlobs.map((g) => ({ g, re: globToRegExp(g) }));
  for (const { g, re } of patterns) {
    if (!spec.cases.some((c) => re.test(c.id))) throw new UsageError(`--case ${g}: matches no case in the spec`);
  }
  const selected = spec.cases.filter((c) => patterns.length === 0 || patterns.some(({ re }) => re.test(c.id)));
  const items = [];
  for (const c of selected) {
    for (const p of c.params[profile]) {
      if (p.large && !large) continue;
      const param = effectiveParam(p);
      items.push({
        case: c,
        param,
        digestParam: c.digest ? digestParam(p) : null,
        work: workOf(c, param),
        iters: c.iters?.[profile] ?? spec.profiles[profile].iters,
        warmup: spec.profiles[profile].warmup[c.kind],
      });
    }
  }
  return items;
}
