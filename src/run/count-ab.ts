// The instruction-count A/B: base twice and head once under callgrind, all at the same time
// (counts do not depend on the machine's load, so the two cores are both used), then the count
// verdict per CPU row (src/verdict/instructions.ts). The second base run is what measures the
// row's A/A spread. `bee-bench ab --measure instructions|both` and bisect call this.
import { join } from 'node:path';
import type { RunnerCommand } from '../build/builder.js';
import type { Plan } from '../spec/plan.js';
import type { Counter, Result, Runner } from '../spec/schema.js';
import { judgeInstructions, type InstructionOptions, type InstructionVerdict } from '../verdict/instructions.js';
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
  verdict: InstructionOptions;
}

/** One CPU row: the counts of each run and, when all three counted it, the verdict. */
export interface InstructionRow {
  caseId: string;
  label: string;
  base: number[] | null;
  baseAgain: number[] | null;
  head: number[] | null;
  verdict?: InstructionVerdict;
  /** Why the row has no verdict. */
  note?: string;
}

export interface InstructionAbOutcome {
  /** The tool and version that counted, e.g. "valgrind-3.19.0". */
  counter: string;
  rows: InstructionRow[];
  problems: string[];
  elapsedMs: number;
}

const RUNS = ['base', 'baseAgain', 'head'] as const;
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
        runner: o.runner, plan: o.plan, counter: o.counter,
        out: join(o.outDir, 'counts', `${name}.json`), timeoutMs: o.timeoutMs, fixtures: o.fixtures, env: o.env?.[side], iterations: o.iterations,
        onLine: (l) => o.log?.(`[count ${name}] ${l}`),
      });
    }),
  );
  const byRun = Object.fromEntries(RUNS.map((name, i) => [name, countsOf(runs[i]!.result)])) as Record<RunName, Map<string, number[]>>;
  const rows: InstructionRow[] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    for (const c of run.result?.cases ?? []) {
      const key = `${c.id}\u0000${String(c.param.label)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const row: InstructionRow = {
        caseId: c.id, label: String(c.param.label),
        base: byRun.base.get(key) ?? null, baseAgain: byRun.baseAgain.get(key) ?? null, head: byRun.head.get(key) ?? null,
      };
      if (row.base && row.baseAgain && row.head) row.verdict = judgeInstructions(row.base, row.baseAgain, row.head, o.verdict);
      else if (c.status === 'skipped') row.note = `skipped: ${c.skip_reason ?? 'no reason given'}`;
      else row.note = `not counted in ${RUNS.filter((n) => !row[n]).map((n) => RUN_TEXT[n]).join(', ')}`;
      rows.push(row);
    }
  }
  return { counter: o.counter.version, rows, problems: runs.flatMap((r) => r.problems), elapsedMs: performance.now() - started };
}
