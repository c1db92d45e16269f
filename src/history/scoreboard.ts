// Cross-client scoreboard, one entry per CI run id that measured two or more runners. A row is a
// (case, label) where at least two runners are ok; its figure is time per work unit, because quick
// params scale per runner (js may hash 200 chunks where rs hashes 2000):
//   per byte when every runner's row has work.bytes, else per op when every row has work.ops, else
//   per iteration when the rows did identical work; other rows are not comparable and left out.
// The same board on instruction counts (countFigure) compares the rows every runner counted.
// Scoring is the report's (src/stats/scoreboard.ts): ratios to the row's fastest into a geometric
// mean, wins, and no score for the harness group (groupOf names each case's group) nor, on time,
// for a row whose ranking the iterations leave open (a ratio's interval reaching 1, counted apart).
// Instruction counts are deterministic: the ranking rule is for time.
import { boardRows, costInterval, costSamples, scoreRows, unitCosts, type ScoreRow } from '../stats/scoreboard.js';
import type { Runner } from '../spec/schema.js';
import type { LoadedRecord } from './record.js';
import type { RecordCase, ScoreboardEntry } from './schema.js';
import { RUNNER_ORDER, byString, timeOf } from './order.js';

interface Cell {
  runner: Runner;
  c: RecordCase;
}

/** A case's figure per iteration that the board scores: time (the default) or instructions. */
export type BoardFigure = (c: RecordCase) => number | null | undefined;
export const timeFigure: BoardFigure = (c) => c.median_ns;
export const countFigure: BoardFigure = (c) => c.instructions?.median;

const unitCost = (cells: readonly Cell[], figure: BoardFigure) =>
  unitCosts(cells.map(({ c }) => ({ median_ns: figure(c) as number, ops: c.work.ops, bytes: c.work.bytes })));

/** The spec group of a case id (derive.ts: the catalog's, else a fallback). */
export type GroupOf = (caseId: string, kind: RecordCase['kind']) => string;

/** One entry from the records of one run id (the latest record per runner wins). */
export function scoreRun(runId: string, records: readonly LoadedRecord[], groupOf: GroupOf, figure: BoardFigure = timeFigure): ScoreboardEntry | null {
  const sorted = [...records].sort((a, b) => byString(a.path, b.path));
  const byRunner = new Map<Runner, LoadedRecord>();
  for (const r of sorted) byRunner.set(r.record.runner, r);
  if (byRunner.size < 2) return null;
  const rows = new Map<string, Cell[]>();
  for (const runner of RUNNER_ORDER) {
    const r = byRunner.get(runner);
    if (!r) continue;
    const seen = new Set<string>();
    for (const c of r.record.cases) {
      const key = `${c.id}\u0000${c.label}`;
      if (seen.has(key) || c.status !== 'ok' || c.median_ns === null || !((figure(c) ?? 0) > 0)) continue;
      seen.add(key);
      const row = rows.get(key) ?? [];
      row.push({ runner, c });
      rows.set(key, row);
    }
  }
  const scored: ScoreRow[] = [];
  for (const key of [...rows.keys()].sort()) {
    const cells = rows.get(key) as Cell[];
    const cost = unitCost(cells, figure);
    if (!cost) continue;
    const first = cells[0] as Cell;
    scored.push({
      group: groupOf(first.c.id, first.c.kind),
      costs: cells.map(({ runner, c }, i) => {
        const unitCost = cost[i] as number;
        // The interval and the iterations in the cost's units: scaled as the median was.
        const units = figure === timeFigure && c.median_ns! > 0 ? c.median_ns! / unitCost : 0;
        const interval = units > 0 ? costInterval(c.samples_ns, units) : undefined;
        const samples = units > 0 ? costSamples(c.samples_ns, units) : undefined;
        return { runner, unitCost, ...(interval ? { interval } : {}), ...(samples ? { samples } : {}) };
      }),
    });
  }
  const board = boardRows(scored);
  const counted = board.scored;
  if (counted === 0) return null;
  const first = sorted[0] as LoadedRecord;
  const entry: ScoreboardEntry = {
    run_id: runId,
    branch: first.record.branch,
    timestamp: first.record.commit.timestamp,
    sha: first.record.commit.sha,
    geomean: {},
    wins: {},
    rows: counted,
    ...(board.open > 0 ? { open: board.open } : {}),
  };
  for (const s of scoreRows(scored, RUNNER_ORDER)) {
    if (s.geomean === null) continue;
    entry.geomean[s.runner] = s.geomean;
    entry.wins[s.runner] = s.wins;
  }
  return entry;
}

/**
 * Entries of every run id, oldest first, the latest maxRuns per branch. An entry's time and branch
 * are those of its run's first record by path, so runs are ordered before any is scored and only
 * the kept ones are.
 */
export function scoreboard(records: readonly LoadedRecord[], maxRuns: number, groupOf: GroupOf, figure: BoardFigure = timeFigure): ScoreboardEntry[] {
  const byRun = new Map<string, { first: LoadedRecord; list: LoadedRecord[] }>();
  for (const r of records) {
    const run = byRun.get(r.record.run.id);
    if (!run) byRun.set(r.record.run.id, { first: r, list: [r] });
    else {
      run.list.push(r);
      if (r.path < run.first.path) run.first = r;
    }
  }
  const runs = [...byRun].map(([id, run]) => ({ id, ...run, t: timeOf(run.first.record.commit.timestamp) }));
  runs.sort((a, b) => a.t - b.t || byString(a.id, b.id));
  const left = new Map<string, number>();
  const kept: ScoreboardEntry[] = [];
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i]!;
    const n = left.get(run.first.record.branch) ?? 0;
    if (n >= maxRuns || run.list.length < 2) continue;
    const e = scoreRun(run.id, run.list, groupOf, figure);
    if (!e) continue;
    left.set(e.branch, n + 1);
    kept.push(e);
  }
  return kept.reverse();
}
