// The instruction-count A/B: base twice and head once under callgrind, all at the same time
// (counts do not depend on the machine's load, so the two cores are both used), giving each CPU
// row's counts per run; src/verdict judges them. The second base run is what measures the row's
// A/A spread.
import { join } from 'node:path';
import type { RunnerCommand } from '../build/builder.js';
import type { Plan } from '../spec/plan.js';
import type { Counter, Result, Runner } from '../spec/schema.js';
import type { CountedRow } from '../verdict/instruction-rows.js';
import { countRunner, type CountRun } from './count.js';

export interface InstructionAbOptions {
  runner: Runner;
  plan: Plan;
  outDir: string;
  counter: Counter;
  /** Budget of one counting process before the callgrind slowdown (countRunner multiplies it). */
  timeoutMs: number;
  fixtures?: string;
  env?: { base?: Readonly<Record<string, string>>; head?: Readonly<Record<string, string>> };
  iterations?: number;
  log?: (line: string) => void;
  /** Keep the base and head runs' dumps (outDir/counts/dumps-base, dumps-head) for function profiles. */
  keepDumps?: boolean;
}

export interface InstructionAbOutcome {
  /** The tool and version that counted, e.g. "valgrind-3.19.0". */
  counter: string;
  rows: CountedRow[];
  problems: string[];
  elapsedMs: number;
  /** The first base run's result and the head run's (their client and host name the report's sides). */
  results: { base: Result | null; head: Result | null };
  /** Where the base and head runs' dumps were kept (keepDumps). */
  dumps?: { base: string; head: string };
}

const RUNS = ['base', 'baseAgain', 'head'] as const;
const keptDir = (outDir: string, name: 'base' | 'head') => join(outDir, 'counts', `dumps-${name}`);
type RunName = (typeof RUNS)[number];
const RUN_TEXT: Record<RunName, string> = { base: 'base', baseAgain: 'base (second run)', head: 'head' };

function countsOf(result: Result | null): Map<string, number[]> {
  return new Map((result?.cases ?? []).filter((c) => c.instructions).map((c) => [`${c.id}\u0000${String(c.param.label)}`, c.instructions!]));
}

export async function instructionAb(sides: Record<'base' | 'head', RunnerCommand>, o: InstructionAbOptions): Promise<InstructionAbOutcome> {
  const started = performance.now();
  const runs = await Promise.all(
    RUNS.map((name): Promise<CountRun> => {
      const side = name === 'head' ? 'head' : 'base';
      return countRunner(sides[side], {
        runner: o.runner,
        plan: o.plan,
        counter: o.counter,
        out: join(o.outDir, 'counts', `${name}.json`),
        timeoutMs: o.timeoutMs,
        fixtures: o.fixtures,
        env: o.env?.[side],
        iterations: o.iterations,
        ...(o.keepDumps && name !== 'baseAgain' ? { keepDumps: keptDir(o.outDir, name) } : {}),
        onLine: (l) => o.log?.(`[count ${name}] ${l}`),
      });
    }),
  );
  const byRun = Object.fromEntries(RUNS.map((name, i) => [name, countsOf(runs[i]!.result)])) as Record<RunName, Map<string, number[]>>;
  const rows: CountedRow[] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    for (const c of run.result?.cases ?? []) {
      const key = `${c.id}\u0000${String(c.param.label)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const row: CountedRow = {
        caseId: c.id,
        label: String(c.param.label),
        base: byRun.base.get(key) ?? null,
        baseAgain: byRun.baseAgain.get(key) ?? null,
        head: byRun.head.get(key) ?? null,
      };
      const missing = RUNS.filter((n) => !row[n]);
      if (c.status === 'skipped') Object.assign(row, { skipped: true, note: c.skip_reason ?? 'no reason given' });
      else if (missing.length > 0) row.note = `not counted in ${missing.map((n) => RUN_TEXT[n]).join(', ')}`;
      rows.push(row);
    }
  }
  return {
    counter: o.counter.version,
    rows,
    problems: runs.flatMap((r) => r.problems),
    elapsedMs: performance.now() - started,
    results: { base: runs[0]!.result, head: runs[2]!.result },
    ...(o.keepDumps ? { dumps: { base: keptDir(o.outDir, 'base'), head: keptDir(o.outDir, 'head') } } : {}),
  };
}
