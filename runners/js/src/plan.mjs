// The resolved plan (bee-bench/plan@1, runners/README.md "Command line"). The engine's zod schema
// (src/spec/plan.ts, spec/plan.schema.json) is the one full definition; the runner is built from a
// copy of its own folder and cannot import it. This reader refuses what the Go and Rust runners'
// typed readers refuse: not JSON, an unknown or missing field, a value of the wrong type or outside
// its enum, and the checks a runner relies on (schema, runner, iters >= 1, timeout_s > 0, rising
// unit numbers). A new plan field is one line in a shape below.
import { readFileSync } from 'node:fs';
import { UsageError } from './errors.mjs';

export const RUNNER = 'js';
const SCHEMA = 'bee-bench/plan@1';

/**
 * A field's type: a JSON type name, the list of its allowed values, a nested shape (an object with
 * exactly those fields; a name ending in `?` is optional) or a check of its own.
 * @typedef {'string' | 'number' | 'integer' | 'boolean' | 'object' | unknown[] | Shape | ((v: any, at: string) => void)} Type
 * @typedef {{ [field: string]: Type }} Shape
 */

/** A problem at one field; loadPlan prefixes the file (ops.mjs reads its lines with the same shapes). */
export class Bad extends Error {
  /** @param {string} at @param {string} message */
  constructor(at, message) {
    super(`${at || '(top level)'}: ${message}`);
  }
}

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** @type {Record<string, (v: unknown) => boolean>} */
const JSON_TYPES = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  integer: Number.isInteger,
  boolean: (v) => typeof v === 'boolean',
  object: isObject,
};

/**
 * Checks v against a type; throws Bad naming the field.
 * @param {unknown} v @param {Type} type @param {string} at
 */
export function check(v, type, at) {
  if (typeof type === 'function') return type(v, at);
  if (Array.isArray(type)) {
    if (!type.includes(v)) throw new Bad(at, `must be ${type.map((x) => JSON.stringify(x)).join(' or ')}, got ${JSON.stringify(v)}`);
  } else if (typeof type === 'string') {
    if (!JSON_TYPES[type]?.(v)) throw new Bad(at, `must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}, got ${JSON.stringify(v)}`);
  } else {
    if (!isObject(v)) throw new Bad(at, `must be an object, got ${JSON.stringify(v)}`);
    const names = new Map(Object.keys(type).map((name) => [name.replace(/\?$/, ''), name]));
    const unknown = Object.keys(v).find((k) => !names.has(k));
    if (unknown !== undefined) throw new Bad(`${at ? `${at}.` : ''}${unknown}`, 'unknown field');
    for (const [key, name] of names) {
      const field = `${at ? `${at}.` : ''}${key}`;
      if (v[key] !== undefined) check(v[key], /** @type {Type} */ (type[name]), field);
      else if (!name.endsWith('?')) throw new Bad(field, 'missing');
    }
  }
}

/** @type {(min: number, what: string) => (v: number, at: string) => void} */
const atLeast = (min, what) => (v, at) => {
  if (typeof v !== 'number' || !(v >= min)) throw new Bad(at, `must be ${what}, got ${JSON.stringify(v)}`);
};

/** @type {Shape} */
const UNIT = {
  unit: 'integer',
  id: 'string',
  kind: ['cpu', 'net'],
  param: 'object',
  digest: (v, at) => v === null || check(v, { form: ['value', 'sha256-concat'], param: 'object' }, at),
  work: { 'ops?': 'number', 'bytes?': 'number' },
  warmup: 'integer',
  iters: (v, at) => {
    check(v, 'integer', at);
    atLeast(1, 'a positive integer')(v, at);
  },
  timeout_s: atLeast(Number.MIN_VALUE, 'a positive number of seconds'),
  'parallel?': 'boolean',
  'fault?': ['throw', 'hang', 'reject'],
  'slowdown?': 'number',
  'alloc_extra?': 'number',
};

/** @type {Shape} */
const PLAN = {
  schema: [SCHEMA],
  runner: (v, at) => {
    if (v !== RUNNER)
      throw new Bad(at, `the plan is for the ${JSON.stringify(v)} runner, this is ${JSON.stringify(RUNNER)} (make one with bee-bench plan --runner ${RUNNER})`);
  },
  profile: ['quick', 'full'],
  spec_hash: 'string',
  fixtures: { data_label: 'string', key_label: 'string', digest_label: 'string', chunk_payload_bytes: 'integer' },
  units: (v, at) => {
    if (!Array.isArray(v)) throw new Bad(at, `must be an array, got ${JSON.stringify(v)}`);
    v.forEach((u, i) => {
      check(u, UNIT, `${at}[${i}]`);
      if (i > 0 && u.unit <= v[i - 1].unit) throw new Bad(`${at}[${i}].unit`, `unit numbers must increase (${v[i - 1].unit} then ${u.unit})`);
    });
  },
};

/**
 * Reads and checks a plan file; a problem is a UsageError naming the file and the field. The
 * plan is the JSON as read (typed by the shapes above only at run time: one place per field).
 * @param {string} path
 * @returns {any}
 */
export function loadPlan(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--plan: cannot read ${path}: ${/** @type {Error} */ (e).message}`);
  }
  try {
    const plan = JSON.parse(text);
    check(plan, PLAN, '');
    return plan;
  } catch (e) {
    if (e instanceof SyntaxError) throw new UsageError(`bad plan ${path}: not JSON: ${e.message}`);
    if (e instanceof Bad) throw new UsageError(`bad plan ${path}: ${e.message}`);
    throw e;
  }
}
