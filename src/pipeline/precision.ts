// Runs that reach the precision their comparison needs (docs/cases.md, "Iterations until the
// ranking is told"): after the first pass of a `bee-bench run`, a row whose ranking the iterations
// leave open (src/stats/scoreboard.ts: some client's ratio to the fastest has an interval reaching 1)
// is measured again. The clients in doubt (the fastest and those whose ratio's interval reaches 1)
// are re-invoked for that row's unit alone with more iterations, row by row and client after client
// (so the clients of a row are measured within seconds of each other, under the same load, and a
// budget that ends leaves whole rows measured rather than one client's), the new samples appended
// to their results, and the rule asked again, until every row ranks or the time budget ends. Each
// row measured again gets one line saying which ended it. The runner contract has no "iterate until"
// mode, so the engine does it: a unit's samples from two processes of the same build are one sample set.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BuiltRunner } from '../build/index.js';
import { invokeRunner, type BeeTarget } from '../run/invoke.js';
import { planOf, type Plan } from '../spec/plan.js';
import type { CaseResult, Result, Runner } from '../spec/schema.js';
import { costInterval, costRatioInterval, costSamples, rankingOpen, UNSCORED_GROUPS, unitCosts, type RowCost } from '../stats/scoreboard.js';
import { median } from '../stats/summary.js';

/** Time the extra rounds of one run may take in all, by default. */
export const PRECISION_BUDGET_MS = 60_000;
/** Rounds at most: each adds ROUND_FACTOR times the unit's planned iterations. */
export const MAX_ROUNDS = 3;
export const ROUND_FACTOR = 2;

export interface PrecisionOptions {
  results: Result[];
  builds: readonly BuiltRunner[];
  plans: ReadonlyMap<Runner, Plan>;
  /** The spec group of a case id (rows of an unscored group are not compared). */
  groupOf: (caseId: string) => string;
  outDir: string;
  budgetMs?: number;
  fixtures?: string;
  bee?: BeeTarget;
  log: (line: string) => void;
}

/** One row measured again: how many iterations each client added, and what ended it. */
export interface PrecisionRow {
  row: string;
  added: Partial<Record<Runner, number>>;
  ended: 'ranked' | 'budget' | 'rounds';
  ms: number;
}

const rowKey = (c: Pick<CaseResult, 'id' | 'param'>) => `${c.id} ${String(c.param['label'])}`;

/** The ok cells of every compared row, by row key, and whether its ranking is open and for whom. */
export function openRows(results: readonly Result[], groupOf: (caseId: string) => string): Map<string, Runner[]> {
  const rows = new Map<string, Array<{ runner: Runner; c: CaseResult }>>();
  for (const r of results)
    for (const c of r.cases) {
      if (c.status !== 'ok' || c.samples_ns.length === 0 || UNSCORED_GROUPS.has(groupOf(c.id))) continue;
      const cells = rows.get(rowKey(c)) ?? [];
      cells.push({ runner: r.runner, c });
      rows.set(rowKey(c), cells);
    }
  const open = new Map<string, Runner[]>();
  for (const [key, cells] of rows) {
    if (cells.length < 2) continue;
    const medians = cells.map(({ c }) => median(c.samples_ns));
    const costs = unitCosts(cells.map(({ c }, i) => ({ median_ns: medians[i]!, ops: c.work.ops, bytes: c.work.bytes })));
    if (!costs) continue;
    const row: RowCost[] = cells.map(({ runner, c }, i) => {
      const units = medians[i]! > 0 ? medians[i]! / costs[i]! : 0;
      const interval = units > 0 ? costInterval(c.samples_ns, units) : undefined;
      const samples = units > 0 ? costSamples(c.samples_ns, units) : undefined;
      return { runner, unitCost: costs[i]!, ...(interval ? { interval } : {}), ...(samples ? { samples } : {}) };
    });
    if (!rankingOpen({ costs: row })) continue;
    // In doubt: the fastest, and every client whose ratio to it has an interval reaching 1.
    const top = row.reduce((a, b) => (b.unitCost < a.unitCost ? b : a));
    open.set(
      key,
      row.filter((c) => c === top || (costRatioInterval(c, top)?.lo ?? Infinity) <= 1).map((c) => c.runner),
    );
  }
  return open;
}

/** Appends a later invocation's samples of a unit to the first pass's case (same build, same unit). */
function merge(into: CaseResult, more: CaseResult): number {
  if (more.status !== 'ok' || more.samples_ns.length === 0) return 0;
  into.samples_ns.push(...more.samples_ns);
  into.cpu_ns.push(...more.cpu_ns);
  if (more.peak_rss_bytes !== null) into.peak_rss_bytes = Math.max(into.peak_rss_bytes ?? 0, more.peak_rss_bytes);
  return more.samples_ns.length;
}

/**
 * Measures the open rows again until they rank or the budget ends; changes `results` in place
 * (the caller writes them). Returns one entry per row measured again.
 */
export async function reachPrecision(o: PrecisionOptions): Promise<PrecisionRow[]> {
  const budgetMs = o.budgetMs ?? PRECISION_BUDGET_MS;
  const started = performance.now();
  const first = openRows(o.results, o.groupOf);
  if (first.size === 0 || budgetMs <= 0) return [];
  o.log(
    `precision: ${first.size} row(s) whose ranking the first pass leaves open are measured again (at most ${Math.round(budgetMs / 1000)} s): ${[...first.keys()].join(', ')}`,
  );
  const outcome = new Map<string, PrecisionRow>([...first.keys()].map((k) => [k, { row: k, added: {}, ended: 'rounds' as const, ms: 0 }]));
  let open = first;
  for (let round = 1; round <= MAX_ROUNDS && open.size > 0; round++) {
    // Row by row, its clients one after the other (the order turned each round): what a budget cut
    // leaves unmeasured is whole rows at the end, never one client of every row.
    for (const job of precisionJobs(open, round)) {
      const left = budgetMs - (performance.now() - started);
      if (left <= 0) break;
      const built = o.builds.find((b) => b.runner === job.runner);
      const plan = o.plans.get(job.runner);
      const result = o.results.find((r) => r.runner === job.runner);
      if (!built || !plan || !result) continue;
      const again = planOf(plan, (u) => rowKey({ id: u.id, param: u.param }) === job.row);
      if (again.units.length === 0) continue;
      const more = { ...again, units: again.units.map((u) => ({ ...u, iters: u.iters * ROUND_FACTOR })) };
      const out = join(o.outDir, 'results', `precision-${job.runner}.json`);
      // The budget bounds the process: a unit cut short adds nothing.
      const inv = await invokeRunner(built.command, {
        plan: more,
        out,
        timeoutMs: left,
        ...(o.fixtures ? { fixtures: o.fixtures } : {}),
        ...(o.bee ? { bee: o.bee } : {}),
      });
      rmSync(out, { force: true });
      for (const c of inv.result?.cases ?? []) {
        const into = result.cases.find((x) => x.status === 'ok' && rowKey(x) === rowKey(c));
        const row = outcome.get(rowKey(c));
        if (!into || !row) continue;
        row.added[job.runner] = (row.added[job.runner] ?? 0) + merge(into, c);
      }
    }
    const now = openRows(o.results, o.groupOf);
    const elapsed = performance.now() - started;
    for (const k of open.keys()) {
      const row = outcome.get(k)!;
      row.ms = elapsed;
      if (!now.has(k)) row.ended = 'ranked';
      else if (elapsed >= budgetMs) row.ended = 'budget';
    }
    open = new Map([...now].filter(([k]) => outcome.has(k) && outcome.get(k)!.ended !== 'budget'));
    if (elapsed >= budgetMs) break;
  }
  const rows = [...outcome.values()];
  for (const r of rows) o.log(`precision: ${r.row}: ${precisionWords(r, budgetMs)}`);
  return rows;
}

/** One re-invocation of a round: a row's unit for one of its clients in doubt. */
export interface PrecisionJob {
  row: string;
  runner: Runner;
}

/** A round's invocations: the open rows in order, each row's clients in doubt back to back, their order turned by the round. */
export function precisionJobs(open: ReadonlyMap<string, readonly Runner[]>, round: number): PrecisionJob[] {
  return [...open].flatMap(([row, who]) => who.map((_, i) => ({ row, runner: who[(i + round - 1) % who.length]! })));
}

/** "ranked after 10 more iterations of bee-go, 10 of bee-rs (23 s)", "still open when the 120 s budget ended (…)". */
export function precisionWords(r: PrecisionRow, budgetMs: number): string {
  const added = Object.entries(r.added).map(([runner, n], i) => (i === 0 ? `${n} more iterations of bee-${runner}` : `${n} of bee-${runner}`));
  const more = added.length > 0 ? added.join(', ') : 'no more iterations';
  if (r.ended === 'ranked') return `ranked after ${more} (${Math.round(r.ms / 1000)} s)`;
  if (r.ended === 'budget') return `still open when the ${Math.round(budgetMs / 1000)} s budget ended (${more})`;
  return `still open after ${MAX_ROUNDS} rounds (${more}): the clients are as fast as this machine can tell`;
}
