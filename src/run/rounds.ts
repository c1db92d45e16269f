// Same-job A/B execution (docs/design.md, "Lock-step rounds pinned to one CPU"): R rounds; in each round every case runs once in
// the base runner and once in the head runner, as separate processes started together and paced
// in lock step (turns.ts): iteration by iteration in ABBA order, the first mover alternating
// between rounds, so the machine's drift, slow or fast, lands on both sides alike. Rounds are
// the outer loop, so a burst of noise spoils one round of many cases rather than every round of
// one case.
import { join } from 'node:path';
import { planOf, type Plan, type PlanUnit } from '../spec/plan.js';
import type { Result } from '../spec/schema.js';
import { invokeRunner, type BeeTarget } from './invoke.js';
import { cpuFor, pinnableCpus, pinProcess } from './pin.js';
import type { Side } from './side.js';
import { Turns } from './turns.js';
import type { RunnerCommand } from '../build/builder.js';

export interface RoundsOptions {
  /** Both sides run this plan, one case (all its units) per round and process. */
  plan: Plan;
  rounds: number;
  outDir: string;
  /** Budget of one case on one side in one round (its process gets twice that: it waits its turns). */
  caseBudgetMs: number;
  /** Budget of the whole A/B run; when spent, no new round starts. */
  runBudgetMs: number;
  fixtures?: string;
  bee?: BeeTarget;
  /** A node A/B: each side's own node (instead of `bee`), one client build on both sides. */
  beeBySide?: Record<Side, BeeTarget>;
  env?: Partial<Record<Side, Readonly<Record<string, string>>>>;
  log?: (line: string) => void;
}

export interface RoundRun {
  round: number;
  side: Side;
  result: Result | null;
  problem?: string;
}

export interface CaseRounds {
  caseId: string;
  runs: RoundRun[];
}

export interface RoundsOutcome {
  cases: CaseRounds[];
  roundsDone: number;
  /** Set when the run budget stopped the run before all rounds. */
  stoppedEarly?: string;
  elapsedMs: number;
}

export function roundOrder(round: number): [Side, Side] {
  return round % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
}

/**
 * A case both sides skipped in the first round (no Bee node, an API the client lacks) is skipped
 * for a reason that does not change between rounds: its processes are not started again.
 */
function skippedEverywhere(runs: readonly RoundRun[]): boolean {
  const first = runs.filter((r) => r.round === 0);
  return first.length === 2 && first.every((r) => !r.problem && r.result && r.result.cases.length > 0 && r.result.cases.every((c) => c.status === 'skipped'));
}

export async function runRounds(sides: Record<Side, RunnerCommand>, o: RoundsOptions): Promise<RoundsOutcome> {
  const started = performance.now();
  const cases = caseUnits(o.plan);
  const byCase = new Map<string, RoundRun[]>(cases.map((c) => [c.id, []]));
  let roundsDone = 0;
  let stoppedEarly: string | undefined;
  const cpus = pinnableCpus();
  o.log?.(
    cpus.length >= 2
      ? `rounds pin base and head to one CPU in turn (${cpus.join(', ')}); parallel cases run unpinned`
      : 'rounds run unpinned (no taskset, or a single CPU)',
  );
  for (let round = 0; round < o.rounds; round++) {
    const spent = performance.now() - started;
    if (round > 0 && spent + spent / round > o.runBudgetMs) {
      stoppedEarly = `run budget of ${Math.round(o.runBudgetMs / 1000)} s reached after ${round} round(s)`;
      break;
    }
    for (const c of cases) {
      if (skippedEverywhere(byCase.get(c.id)!)) continue;
      const caseStarted = performance.now();
      const runs = await runCaseRound(sides, o, c, round, cpuFor(c, round, cpus));
      byCase.get(c.id)!.push(...runs);
      const took = (performance.now() - caseStarted) / 1000;
      const problems = runs.filter((r) => r.problem).map((r) => `${r.side}: ${r.problem}`);
      o.log?.(`round ${round + 1}/${o.rounds} ${c.id}: ${problems.length ? problems.join('; ') : `${took.toFixed(1)} s`}`);
    }
    roundsDone = round + 1;
  }
  return {
    cases: [...byCase].map(([caseId, runs]) => ({ caseId, runs })),
    roundsDone,
    stoppedEarly,
    elapsedMs: performance.now() - started,
  };
}

/** A case of the plan: its id and whether its work spreads over every CPU (all its units alike). */
type PlanCase = Pick<PlanUnit, 'id' | 'kind' | 'parallel'>;

function caseUnits(plan: Plan): PlanCase[] {
  const seen = new Map<string, PlanCase>();
  for (const u of plan.units) if (!seen.has(u.id)) seen.set(u.id, u);
  return [...seen.values()];
}

/** One case in one round: base and head started together, in lock step, pinned at the first turn. */
async function runCaseRound(sides: Record<Side, RunnerCommand>, o: RoundsOptions, c: PlanCase, round: number, cpu: number | null): Promise<RoundRun[]> {
  const order = roundOrder(round);
  const pids = new Map<Side, number>();
  const turns = new Turns(order, () => {
    if (cpu === null) return;
    for (const [side, pid] of pids) if (!pinProcess(pid, cpu)) o.log?.(`round ${round + 1} ${c.id}: could not pin ${side} to CPU ${cpu}`);
  });
  return Promise.all(
    order.map(async (side): Promise<RoundRun> => {
      const inv = await invokeRunner(sides[side], {
        plan: planOf(o.plan, (u) => u.id === c.id),
        out: join(o.outDir, 'rounds', c.id, `r${String(round).padStart(2, '0')}-${side}.json`),
        timeoutMs: 2 * o.caseBudgetMs,
        fixtures: o.fixtures,
        bee: o.beeBySide?.[side] ?? o.bee,
        env: o.env?.[side],
        pace: (channel, pid) => {
          pids.set(side, pid);
          turns.attach(side, channel);
        },
      }).finally(() => turns.ended(side));
      return { round, side, result: inv.result, problem: inv.problem };
    }),
  );
}
