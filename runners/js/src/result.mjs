// The result file (bee-bench/result@1, docs/design.md, "Result file"). It is rewritten whole and
// atomically (temporary file, then rename) after every case; finished_at stays null until the end.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { RUNNER } from './plan.mjs';

export function newResult({ client, bee, specHash, profile, host }) {
  return {
    schema: 'bee-bench/result@1',
    runner: RUNNER,
    client,
    bee,
    spec: { hash: specHash, profile },
    host,
    started_at: new Date().toISOString(),
    finished_at: null,
    cases: [],
  };
}

export function writeResult(path, result) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(result, null, 2)}\n`);
  renameSync(tmp, path);
}

/**
 * A case record before it runs: what the plan unit says, no samples yet.
 * @param {any} unit a plan unit
 * @returns {{ id: string, kind: string, param: object, status: string, warmup: number, samples_ns: number[], cpu_ns: number[],
 *   alloc_bytes?: number[], peak_rss_bytes: number | null, work: object, digest?: string }}
 */
export function caseRecord(unit) {
  return {
    id: unit.id,
    kind: unit.kind,
    param: unit.param,
    status: 'ok',
    warmup: 0,
    samples_ns: [],
    cpu_ns: [],
    peak_rss_bytes: null,
    work: unit.work,
  };
}
