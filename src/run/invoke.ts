// One runner invocation under the runner command line (docs/design.md, "Runner command line and the resolved plan"), returning whatever
// valid result it left behind: a crash or a kill after case k still yields cases 1..k-1.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InputError } from '../spec/errors.js';
import { HOOK_VARIABLES, hooksFromEnv } from '../spec/hooks.js';
import { loadResult } from '../spec/load.js';
import { applyHooks, type Plan } from '../spec/plan.js';
import type { Result } from '../spec/schema.js';
import type { BeeTarget } from '../bee/preflight.js';
import type { RunnerCommand } from '../build/builder.js';
import { describeExit, runProcess, type ProcessOutcome, type SpawnOptions } from './process.js';

export type { BeeTarget } from '../bee/preflight.js';

export interface InvokeOptions {
  /** What the runner runs; the test hooks in the engine's environment and in `env` are applied to it. */
  plan: Plan;
  out: string;
  timeoutMs: number;
  fixtures?: string;
  bee?: BeeTarget;
  env?: Readonly<Record<string, string>>;
  onLine?: (line: string) => void;
  pace?: SpawnOptions['pace'];
}

export interface Invocation {
  result: Result | null;
  outcome: ProcessOutcome;
  /** Why the invocation is not a clean, complete run; undefined when it is. */
  problem?: string;
}

export function runnerArgs(o: Omit<InvokeOptions, 'plan'>, planFile: string): string[] {
  const args = ['run', '--plan', planFile, '--out', o.out];
  if (o.fixtures) args.push('--fixtures', o.fixtures);
  if (o.bee) args.push('--bee-url', o.bee.url, '--batch-id', o.bee.batchId);
  return args;
}

function readIfValid(file: string): { result: Result | null; problem?: string } {
  if (!existsSync(file)) return { result: null };
  try {
    return { result: loadResult(file) };
  } catch (e) {
    return { result: null, problem: e instanceof InputError ? e.message : String(e) };
  }
}

/** The hook variables are resolved into the plan here; the runner sees none of them (undefined drops an inherited one). */
const withoutHooks = (env: Readonly<Record<string, string>> | undefined): Record<string, string | undefined> => ({
  ...env,
  ...Object.fromEntries(HOOK_VARIABLES.map((name) => [name, undefined])),
});

export async function invokeRunner(cmd: RunnerCommand, o: InvokeOptions): Promise<Invocation> {
  mkdirSync(dirname(o.out), { recursive: true });
  const plan = applyHooks(o.plan, hooksFromEnv({ ...process.env, ...o.env }));
  const planDir = mkdtempSync(join(tmpdir(), 'bee-bench-plan-'));
  const planFile = join(planDir, 'plan.json');
  writeFileSync(planFile, `${JSON.stringify(plan)}\n`);
  const outcome = await runProcess(cmd, runnerArgs(o, planFile), {
    timeoutMs: o.timeoutMs,
    onLine: o.onLine,
    extraEnv: withoutHooks(o.env),
    pace: o.pace,
  }).finally(() => rmSync(planDir, { recursive: true, force: true }));
  const tail = outcome.stderrTail
    .filter((l) => l.trim())
    .slice(-5)
    .join(' | ');
  if (outcome.code === 2 && !outcome.timedOut) {
    return { result: null, outcome, problem: `runner rejected its arguments (exit 2): ${tail}` };
  }
  const { result, problem } = readIfValid(o.out);
  if (problem) return { result, outcome, problem };
  if (outcome.code === 0 && !outcome.timedOut) {
    if (!result) return { result, outcome, problem: `runner exited 0 but wrote no result file at ${o.out}` };
    return { result, outcome };
  }
  const kept = result ? `; kept ${result.cases.length} finished case(s)` : '';
  return { result, outcome, problem: `runner ${describeExit(outcome)}${kept}: ${tail}` };
}
