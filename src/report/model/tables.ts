// The table model of the aggregate report (report.md and report.html), built once from the
// aggregate model, as benchstat's benchtab builds one table model that its text and CSV
// formatters print: every table's headers and cells, the digest notes, the bars' values, the
// header line. Cells hold plain text and a few marks (code, strong, a not-run status); a renderer
// only escapes and marks them up, so the same table never has two builders.
import type { Runner } from '../../spec/schema.js';
import { platformOf } from '../../spec/platform.js';
import { loadedMachine } from '../../verdict/descriptive.js';
import { formatBytes, formatCount, formatDuration, formatRatio, formatThroughput } from '../units.js';
import { LOW_PRECISION_RULE } from '../../verdict/precision.js';
import { RANKING_RULE } from '../../stats/scoreboard.js';
import { cellView, LOW_PRECISION_MARK, precisionText, type CellView } from './cell.js';
import { allRows, RUNNER_LABEL, runnersOf, type AggregateModel, type AllocScoreEntry, type Fit, type NotRun, type Row } from './types.js';

/** A piece of a cell: text to escape, an identifier as code, a figure in bold, or why a runner did not run. */
export type Piece = string | { code: string } | { strong: string } | { notRun: NotRun };

/** A table: plain-text headers, cells as pieces; numeric tables right-align every column after the first. */
export interface Table {
  headers: string[];
  rows: Piece[][][];
  numeric: boolean;
}

/** A row's digest disagreement: every runner's value, and the finding when the spec lists it as known. */
export interface DigestNote {
  caseId: string;
  label: string;
  values: Array<{ runner: Runner; caseId?: string; digest: string }>;
  known?: { finding: string; url: string; doc: string; who: string };
}

/** One bar of a row: the runner's time per unit of work as a multiple of the row's fastest. */
export interface BarItem {
  runner: Runner;
  value: number | null;
  text: string | undefined;
}

export interface AggregateTables {
  model: AggregateModel;
  runners: Runner[];
  /** The header line's parts: the runs' time span, the profiles, the spec hashes (12 characters). */
  meta: { from: string | null; to: string | null; profiles: string[]; specs: string[] };
  runnersTable: Table;
  /** The environment line under the Runners table (plain text); null without environment data. */
  environment: string | null;
  /** Null with one runner: nothing to rank. */
  scoreboard: Table | null;
  /** The caption under the scoreboard (plain text): over which rows it is taken, and which it leaves out. */
  scoreboardNote: string;
  allocScoreboard: Table | null;
  /** "bee-go skipped: <reason> (fix: <fix>)" per runner that did not run. */
  notRun: string[];
  /** Latency-vs-size fit tables by case id. */
  fits: Map<string, Table>;
  /** A case-table cell's view (model/cell.ts), built once per cell for every format. */
  view: (row: Row, runner: Runner) => CellView;
}

export function aggregateTables(model: AggregateModel): AggregateTables {
  const runners = runnersOf(model);
  const ranked = runners.length > 1;
  const views = new Map(allRows(model).map((row) => [row, new Map(runners.map((r) => [r, cellView(row, row.cells[r])]))]));
  return {
    model,
    runners,
    meta: {
      from: model.startedAt,
      to: model.finishedAt,
      profiles: [...model.profiles],
      specs: model.specHashes.map((h) => h.slice(0, 12)),
    },
    runnersTable: runnersTable(model),
    environment: environmentLine(model),
    scoreboard: ranked ? scoreboardTable(model) : null,
    scoreboardNote: scoreboardNote(model),
    allocScoreboard: ranked && model.allocScoreboard ? allocScoreboardTable(model, model.allocScoreboard) : null,
    notRun: notRunOf(model).map(notRunLine),
    view: (row, r) => views.get(row)?.get(r) ?? cellView(row, row.cells[r]),
    fits: new Map(model.groups.flatMap((g) => g.cases.filter((c) => c.fits.length > 0).map((c) => [c.id, fitTable(c.fits)] as const))),
  };
}

/** The runners a run was asked for and did not get: every report names them, with why and the fix. */
export function notRunOf(model: AggregateModel): NotRun[] {
  return model.notRun ?? [];
}

/** "bee-go skipped: <reason> (fix: <fix>)". Plain text: the caller escapes. */
export function notRunLine(n: NotRun): string {
  return `${RUNNER_LABEL[n.runner]} ${n.status}: ${notRunReason(n)}`;
}

/** "<reason> (fix: <fix>)": why a runner did not run and what brings it back. Plain text. */
export function notRunReason(n: NotRun): string {
  return `${n.reason}${n.fix ? ` (fix: ${n.fix})` : ''}`;
}

/** The environment line under the Runners table, plain text; null without environment data. */
function environmentLine(model: AggregateModel): string | null {
  const e = model.environment;
  if (!e) return null;
  const avg = e.loadAverage.map((v) => v.toFixed(2)).join(' / ');
  const text = `Environment: load average ${avg} (1 / 5 / 15 min, at the end of the run) on ${e.cpus} CPUs.`;
  return loadedMachine(e.loadAverage[1], e.cpus)
    ? `⚠ ${text} The machine was loaded: wall times include waiting for a CPU and read high; ratios between runners that ran one after the other can move with the load.`
    : text;
}

const RUNNER_HEADERS = ['Runner', 'Status', 'Client', 'Version', 'Source', 'Runtime', 'Host', 'Bee', 'Started'];

/** The Runners table: one row per runner that ran, then one per runner that did not (with why). */
function runnersTable(model: AggregateModel): Table {
  const ran: Piece[][][] = model.runners.map((r) => [
    [r.label],
    ['ran'],
    [{ code: r.client.name }],
    r.client.commit ? [r.client.version, ' (', { code: r.client.commit.slice(0, 12) }, ')'] : [r.client.version],
    [r.client.source],
    [r.host.runtime],
    [`${platformOf(r.host)}, ${r.host.cpu_model}, ${r.host.cpus} CPUs, ${formatBytes(r.host.mem_mb * 2 ** 20)}`],
    [r.bee ? r.bee.version : 'none'],
    [r.startedAt],
  ]);
  const notRun = notRunOf(model).map((n): Piece[][] => [
    [RUNNER_LABEL[n.runner]],
    [{ notRun: n }],
    ...Array.from({ length: RUNNER_HEADERS.length - 2 }, () => ['—']),
  ]);
  return { headers: RUNNER_HEADERS, rows: [...ran, ...notRun], numeric: false };
}

/** The geometric mean (bold where least), then per group; `extra` columns sit after Overall. */
function scoreTable<E extends AllocScoreEntry | AggregateModel['scoreboard'][number]>(
  model: AggregateModel,
  entries: readonly E[],
  headers: string[],
  extra: (e: E) => string[],
): Table {
  const groups = model.groups.filter((g) => entries.some((s) => s.byGroup[g.id] != null));
  const best = Math.min(...entries.map((s) => s.geomean ?? Infinity));
  return {
    headers: [...headers, ...groups.map((g) => g.title)],
    rows: entries.map((s) => [
      [RUNNER_LABEL[s.runner]],
      [String(s.wins)],
      [String(s.rows)],
      [s.geomean !== null && s.geomean === best ? { strong: formatRatio(s.geomean) } : formatRatio(s.geomean)],
      ...extra(s).map((t) => [t]),
      ...groups.map((g) => [formatRatio(s.byGroup[g.id])]),
    ]),
    numeric: true,
  };
}

/** Time per unit of work, ranked over contested rows. */
function scoreboardTable(model: AggregateModel): Table {
  return scoreTable(model, model.scoreboard, ['Runner', 'Wins', 'Rows', 'Overall'], () => []);
}

/** Over which rows the time scoreboard is taken, how it is read, and the rows whose open ranking it leaves out (named by count). */
export function scoreboardNote(model: AggregateModel): string {
  const rows = model.scoreboardRows;
  const over = rows ? `${formatCount(rows.scored)} contested row${rows.scored === 1 ? '' : 's'}` : 'contested rows';
  // A model from before the ranking rule (aggregate.json of an older run) has no `open` count.
  const open = rows?.open;
  const left =
    open === undefined
      ? ''
      : open > 0
        ? ` ${formatCount(open)} row${open === 1 ? ' is' : 's are'} left out: ${RANKING_RULE}.`
        : ` Every contested row is ranked: ${RANKING_RULE}.`;
  return `Geometric mean over ${over} (two or more runners ok) of each runner's ratio to the fastest in the row, comparing time per byte or per op; 1.00x = fastest everywhere. Wins = rows where the runner was fastest; Rows = scored rows it ran. Skipped and failed cells are left out.${left}`;
}

/**
 * The console's line on low-precision rows (plain text), at most `max` named; null when there are none:
 * "≈ 2 low-precision rows, too wide for an A/B claim of a few % (…): cpu.ecdsa.verify quick (bee-js: 10 ops in 5 iterations), …".
 */
export function lowPrecisionLine(model: AggregateModel, max = 4): string | null {
  const rows = allRows(model).filter((r) => r.lowPrecision);
  if (rows.length === 0) return null;
  const named = rows.slice(0, max).map((row) => {
    const why = Object.values(row.cells)
      .filter((c) => c.lowPrecision)
      .map((c) => `${RUNNER_LABEL[c.runner]}: ${precisionText(row, c.lowPrecision!)}`);
    return `${row.caseId} ${row.label} (${why.join('; ')})`;
  });
  const more = rows.length > max ? `, and ${rows.length - max} more (report.csv, column low_precision)` : '';
  return `${LOW_PRECISION_MARK} ${formatCount(rows.length)} low-precision row${rows.length === 1 ? '' : 's'}, too wide for an A/B claim of a few % (${LOW_PRECISION_RULE}): ${named.join(', ')}${more}`;
}

/** The console's line on rows the scoreboard leaves out because their ranking is open; null when none. */
export function openRankingLine(model: AggregateModel, max = 4): string | null {
  const rows = allRows(model).filter((r) => r.rankingOpen);
  if (rows.length === 0) return null;
  const named = rows.slice(0, max).map((row) => `${row.caseId} ${row.label}`);
  const more = rows.length > max ? `, and ${rows.length - max} more` : '';
  return `${formatCount(rows.length)} row${rows.length === 1 ? '' : 's'} not scored, ranking open (${RANKING_RULE}): ${named.join(', ')}${more}`;
}

/** Heap bytes per unit of work, ranked like time (rows where a runner allocates nothing are counted apart). */
function allocScoreboardTable(model: AggregateModel, entries: readonly AllocScoreEntry[]): Table {
  return scoreTable(model, entries, ['Runner', 'Least', 'Rows', 'Overall', 'Allocates nothing'], (s) => [String(s.zeroRows)]);
}

const FIT_HEADERS = ['Runner', 'fixed overhead', 'peak throughput', 'r²', 'points'];

/** The latency-vs-size fit table of one case. */
function fitTable(fits: readonly Fit[]): Table {
  return {
    headers: FIT_HEADERS,
    rows: fits.map((f) => [
      [RUNNER_LABEL[f.runner]],
      [formatDuration(f.overheadNs)],
      [formatThroughput(f.bytesPerNs)],
      [Number.isFinite(f.r2) ? f.r2.toFixed(3) : '—'],
      [String(f.points)],
    ]),
    numeric: true,
  };
}

/** A row's digest disagreement, if it has one. */
export function digestNote(row: Row): DigestNote | null {
  if (!row.digestMismatch) return null;
  const note: DigestNote = {
    caseId: row.caseId,
    label: row.label,
    values: row.digestMismatch.map((d) => ({ runner: d.runner, ...(d.caseId ? { caseId: d.caseId } : {}), digest: d.digest })),
  };
  const k = row.digestKnown;
  if (k) note.known = { finding: k.finding, url: k.url, doc: k.doc, who: k.runners.map((r) => RUNNER_LABEL[r]).join(', ') };
  return note;
}

/** A contested row's bars, one per runner; empty when the row has no ranking. */
export function barItems(row: Row, runners: readonly Runner[]): BarItem[] {
  if (!row.contested) return [];
  return runners.map((r) => ({
    runner: r,
    value: row.cells[r]?.ratio ?? null,
    text: row.cells[r]?.ratio !== undefined ? formatRatio(row.cells[r]!.ratio) : undefined,
  }));
}
