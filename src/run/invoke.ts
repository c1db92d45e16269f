// One runner invocation under the runner command line of DESIGN.md section 3, returning whatever
// valid result it left behind: a crash or a kill after case k still yields cases 1..k-1.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { InputError } from '../spec/errors.js';
import { loadResult } from '../spec/load.js';
import type { Profile, Result } from '../spec/schema.js';
import type { RunnerCommand } from '../build/builder.js';
import { describeExit, runProcess, type ProcessOutcome, type SpawnOptions } from './process.js';

export interface BeeTarget {
  url: string;
  batchId: string;
}

export interface InvokeOptions {
  spec: string;
  profile: Profile;
  cases: readonly string[];
  out: string;
  timeoutMs: number;
  large?: boolean;
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

export function runnerArgs(o: InvokeOptions): string[] {
  const args = ['run', '--spec', o.spec, '--profile', o.profile, '--out', o.out];
  for (const c of o.cases) args.push('--case', c);
  if (o.large) args.push('--large');
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

export async function invokeRunner(cmd: RunnerCommand, o: InvokeOptions): Promise<Invocation> {
  mkdirSync(dirname(o.out), { recursive: true });
  const outcome = await runProcess(cmd, runnerArgs(o), { timeoutMs: o.timeoutMs, onLine: o.onLine, extraEnv: o.env, pace: o.pace });
  const tail = outcome.stderrTail.filter((l) => l.trim()).slice(-5).join(' | ');
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
