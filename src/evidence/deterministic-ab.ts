// The A/B of a deterministic evidence (instructions, allocations): base twice and head once, all
// at the same time (the figures do not depend on the machine's load, so both cores are used),
// giving each CPU row's figures per run; src/verdict judges them. The second base run is what
// measures the row's A/A spread.
import { join } from 'node:path';
import type { RunnerCommand } from '../build/builder.js';
import type { DeterministicKind } from '../spec/measure.js';
import type { CaseResult, Result } from '../spec/schema.js';
import type { StepRow } from '../verdict/index.js';
import type { DeterministicEvidence, EvidenceRunOptions } from './record.js';

export const AB_RUNS = ['base', 'baseAgain', 'head'] as const;
export type AbRunName = (typeof AB_RUNS)[number];
const RUN_TEXT: Record<AbRunName, string> = { base: 'base', baseAgain: 'base (second run)', head: 'head' };

/** One A/B's options, the same for every deterministic evidence it measures. */
export interface DeterministicAbOptions extends Omit<EvidenceRunOptions, 'out' | 'env' | 'onLine' | 'keep'> {
  outDir: string;
  env?: { base?: Readonly<Record<string, string>>; head?: Readonly<Record<string, string>> };
  log?: (line: string) => void;
  /** Keep each run's raw output (callgrind's dumps) in <outDir>/<evidence dir>/raw-<run>/ (function profiles read them). */
  keepRaw?: boolean;
}

export interface DeterministicAbOutcome<F> {
  kind: DeterministicKind;
  /** The tool that measured, as the report names it, when a run said. */
  counter: string | null;
  rows: StepRow<F>[];
  problems: string[];
  elapsedMs: number;
  /** The first base run's result and the head run's (their client and host name the report's sides). */
  results: { base: Result | null; head: Result | null };
  /** Where each run's raw output was kept (keepRaw). */
  raw?: Record<AbRunName, string>;
}

const keyOf = (c: CaseResult) => `${c.id}\u0000${String(c.param.label)}`;

export async function deterministicAb<K extends DeterministicKind, F>(
  ev: DeterministicEvidence<K, F>,
  sides: Record<'base' | 'head', RunnerCommand>,
  o: DeterministicAbOptions,
): Promise<DeterministicAbOutcome<F>> {
  const started = performance.now();
  const rawDir = (name: AbRunName) => join(o.outDir, ev.dir, `raw-${name}`);
  const runs = await Promise.all(
    AB_RUNS.map((name) => {
      const side = name === 'head' ? 'head' : 'base';
      return ev.run(sides[side], {
        ...o,
        out: join(o.outDir, ev.dir, `${name}.json`),
        env: o.env?.[side],
        onLine: (l) => o.log?.(`[${ev.id} ${name}] ${l}`),
        ...(o.keepRaw ? { keep: rawDir(name) } : {}),
      });
    }),
  );
  const byRun = Object.fromEntries(AB_RUNS.map((name, i) => [name, new Map((runs[i]!.result?.cases ?? []).map((c) => [keyOf(c), c]))])) as Record<
    AbRunName,
    Map<string, CaseResult>
  >;
  const rows: StepRow<F>[] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    for (const c of run.result?.cases ?? []) {
      if (seen.has(keyOf(c))) continue;
      seen.add(keyOf(c));
      const fig = (name: AbRunName) => {
        const got = byRun[name].get(keyOf(c));
        return got ? ev.figures(got) : null;
      };
      const row: StepRow<F> = { caseId: c.id, label: String(c.param.label), base: fig('base'), baseAgain: fig('baseAgain'), head: fig('head'), work: c.work };
      const missing = AB_RUNS.filter((n) => !row[n]);
      if (c.status === 'skipped') Object.assign(row, { skipped: true, note: c.skip_reason ?? 'no reason given' });
      else if (missing.length > 0) row.note = `not ${ev.verb} in ${missing.map((n) => RUN_TEXT[n]).join(', ')}`;
      rows.push(row);
    }
  }
  const counter = runs.map((r) => (r.result ? ev.counterOf(r.result) : null)).find((m) => m !== null) ?? null;
  return {
    kind: ev.id,
    counter,
    rows,
    problems: runs.flatMap((r, i) => r.problems.map((p) => `${RUN_TEXT[AB_RUNS[i]!]}: ${p}`)),
    elapsedMs: performance.now() - started,
    results: { base: runs[0]!.result, head: runs[2]!.result },
    ...(o.keepRaw ? { raw: Object.fromEntries(AB_RUNS.map((n) => [n, rawDir(n)])) as Record<AbRunName, string> } : {}),
  };
}
