// Synthetic experiment journals with known effects, for the analysis and report tests and the
// analysis bench (no vitest import, so tsx can load it). Rows are typed by the shared schema, so a
// change of the journal's shape breaks this file at compile time.
import { writeFileSync } from 'node:fs';
import type { DesignInput, DownloadRow, JournalRow, RunRow, Strategy, SyncRow, UploadRow } from '../../src/experiment/schema.js';
import { normals, rng } from '../stats/random.js';

export interface SyntheticNode {
  label: string;
  release: string;
}

export interface SyntheticOptions {
  sizes: number[];
  levels: number[];
  strategies: ('DATA' | 'RACE' | 'PROX')[];
  nodes: SyntheticNode[];
  replicates: number;
  attempts?: number;
  seed?: number;
  /** Median download seconds of a cell (before the release factor). */
  base?: (size: number, level: number, strategy: Strategy) => number;
  /** Multiplicative factor on download time per release and cell (1 = no effect). */
  factor?: (release: string, size: number, level: number, strategy: Strategy) => number;
  /** Failed attempts before the ok one (>= attempts: the unit never succeeds). */
  failures?: (release: string, size: number, level: number, strategy: Strategy, rep: number, node: string) => number;
  /** Units whose sync wait hits its ceiling. */
  ceiling?: (release: string, size: number, level: number, rep: number) => boolean;
  /** Log-normal sd of the noise (default 0.15). */
  noise?: number;
  runId?: string;
}

const HEX = (n: number, next: () => number) =>
  Array.from({ length: n }, () =>
    Math.floor(next() * 16)
      .toString(16)
      .slice(0, 1),
  ).join('');

/** The rows of one run, in the blocked order the engine writes (all uploads, then syncs, then downloads). */
export function syntheticRows(o: SyntheticOptions): JournalRow[] {
  const next = rng(o.seed ?? 1);
  const z = normals(next);
  const attempts = o.attempts ?? 3;
  const noise = o.noise ?? 0.15;
  const base = o.base ?? ((size: number) => 0.05 + size / 2e6);
  const factor = o.factor ?? (() => 1);
  const design: DesignInput = {
    schema: 'bee-bench/experiment-design@1',
    sizes: o.sizes,
    levels: o.levels as (0 | 1 | 2 | 3 | 4)[],
    strategies: o.strategies,
    nodes: o.nodes.map((n, i) => ({ label: n.label, release: n.release, url: `http://127.0.0.1:${1633 + i}` })),
    replicates: o.replicates,
    attempts,
    upload: 'deferred',
    endpoint: 'bytes',
    wait: { signal: 'tag', ceiling_s: 60, poll_s: 1 },
    timeout_s: 60,
    order: 'blocked',
  };
  const at = '2026-11-27T12:00:00.000Z';
  const run: RunRow = {
    type: 'run',
    schema: 'bee-bench/experiment-journal@1',
    run_id: o.runId ?? 'synthetic',
    created_at: at,
    design: { ...design, order: 'blocked' } as RunRow['design'],
    seed: HEX(64, next),
    runner: 'js',
    client: { name: 'bee-js', version: '10.0.0' },
    nodes: o.nodes.map((n, i) => ({ label: n.label, release: n.release, url: `http://127.0.0.1:${1633 + i}`, version: n.release })),
    bee_bench: '0.1.0',
  };
  const rows: JournalRow[] = [run, { type: 'phase', phase: 'upload', state: 'start', at }];
  const units: { u: UploadRow; strategy: Strategy }[] = [];
  for (let rep = 1; rep <= o.replicates; rep++)
    for (const size of o.sizes)
      for (const level of o.levels)
        for (const strategy of level === 0 ? (['NONE'] as Strategy[]) : o.strategies)
          for (const node of o.nodes) {
            const unit = `${size}-${level}-${strategy}-${node.label}-${rep}`;
            const u: UploadRow = {
              type: 'upload',
              unit,
              node: node.label,
              release: node.release,
              size,
              level: level as 0,
              strategy,
              rep,
              seed: HEX(64, next),
              sha256: HEX(64, next),
              ok: true,
              ms: 1000 * (0.02 + size / 5e6) * Math.exp(noise * z()),
              reference: HEX(64, next),
              at,
            };
            units.push({ u, strategy });
            rows.push(u);
          }
  rows.push({ type: 'phase', phase: 'upload', state: 'done', at }, { type: 'phase', phase: 'sync', state: 'start', at });
  for (const { u } of units) {
    const hit = o.ceiling?.(u.release, u.size, u.level, u.rep) ?? false;
    const s: SyncRow = { type: 'sync', unit: u.unit, node: u.node, signal: 'tag', synced: !hit, waited_ms: hit ? 60000 : 200 + 800 * next(), at };
    if (hit) s.detail = 'tag not synced after 60 s';
    rows.push(s);
  }
  rows.push({ type: 'phase', phase: 'sync', state: 'done', at }, { type: 'phase', phase: 'download', state: 'start', at });
  for (const { u, strategy } of units) {
    const fails = o.failures?.(u.release, u.size, u.level, strategy, u.rep, u.node) ?? 0;
    for (let k = 1; k <= Math.min(fails, attempts); k++) {
      const d: DownloadRow = { ...common(u), attempt: k, ok: false, ms: 60000, error: 'timeout after 60000 ms', at };
      rows.push(d);
    }
    if (fails < attempts) {
      const ms = 1000 * base(u.size, u.level, strategy) * factor(u.release, u.size, u.level, strategy) * Math.exp(noise * z());
      rows.push({ ...common(u), attempt: fails + 1, ok: true, ms, bytes: u.size, at });
    }
  }
  rows.push({ type: 'phase', phase: 'download', state: 'done', at });
  return rows;
}

function common(u: UploadRow) {
  return {
    type: 'download' as const,
    unit: u.unit,
    node: u.node,
    release: u.release,
    size: u.size,
    level: u.level,
    strategy: u.strategy,
    rep: u.rep,
  };
}

/** Writes the rows as journal.jsonl; `torn` appends half a line, as a run killed mid-write leaves. */
export function writeJournal(path: string, rows: JournalRow[], torn = false): void {
  let text = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  if (torn) text += '{"type":"download","unit":"x","no';
  writeFileSync(path, text);
}
