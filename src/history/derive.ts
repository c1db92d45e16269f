// The derived files of a history folder, as a pure function of its records (docs/design.md, "History store"):
// index.json (HistoryIndex) and series/<case>.json (CaseSeriesFile). Same records and options in,
// same bytes out: keys are sorted (json.ts) and every array has a defined order (order.ts), so a
// committed derivation can be checked against a fresh one byte for byte.
//
// Ordering: points by commit time, then record path (which starts with the run's start time).
// Retention: maxRuns keeps the latest points per branch of each series and the latest scoreboard
// entries per branch; branch retention keeps the default branch and the most recently active
// others (at most maxBranches, active within activeDays of the newest record) in the derived files,
// so the first view stays small however many branches were ever pushed. Records themselves are
// never touched: an expired branch comes back as soon as it is pushed to again. Shift markers (shift.ts) and the
// index's change/trend figures are computed on the full branch history, so retention does not move
// them. Figures compared over time use time per work unit (median / bytes, else / ops, else per
// iteration), which equals the plain median ratio whenever the work did not change.
import { createHash } from 'node:crypto';
import { platformOf } from '../spec/platform.js';
import type { Kind, Runner, Spec } from '../spec/schema.js';
import { stableJson } from './json.js';
import { byRunner, byString, RUNNER_ORDER, timeOf } from './order.js';
import type { RecordSet } from './read.js';
import { workUnits, type LoadedRecord } from './record.js';
import { loadedWithCurrentIds } from './case-ids.js';
import { lowPrecision } from '../verdict/precision.js';
import { costInterval } from '../stats/scoreboard.js';
import { opLabelOf } from '../report/units.js';
import {
  INDEX_SCHEMA_ID,
  SERIES_SCHEMA_ID,
  type CaseSeriesFile,
  type HistoryIndex,
  type IndexCase,
  type IndexSeries,
  type RecordCase,
  type Series,
  type SeriesPoint,
} from './schema.js';
import { countFigure, scoreboard } from './scoreboard.js';
import { DEFAULT_SHIFT, detectShifts, shiftMargin, type Shift, type ShiftOptions } from './shift.js';
import { countSteps, type CountStep } from './count-steps.js';

export const INDEX_FILE = 'index.json';
export const SERIES_DIR = 'series';

export interface CaseInfo {
  id: string;
  kind: Kind;
  group: string;
  doc: string;
  /** Its former ids (spec `formerly`): records under them join this case's series. */
  formerly?: readonly string[];
  /** What one op is called (the report's `µs/lookup`), when not "op". */
  op?: string;
}

/** What records do not carry: case groups and docs, from the spec. */
export interface Catalog {
  groups: ReadonlyArray<{ id: string; title: string }>;
  cases: readonly CaseInfo[];
}

export function catalogFromSpec(spec: Spec): Catalog {
  return {
    groups: spec.groups.map((g) => ({ id: g.id, title: g.title })),
    cases: spec.cases.map((c) => {
      const op = opLabelOf(c.work.ops);
      return { id: c.id, kind: c.kind, group: c.group, doc: c.doc, ...(c.formerly ? { formerly: [...c.formerly] } : {}), ...(op !== 'op' ? { op } : {}) };
    }),
  };
}

export interface DeriveOptions {
  /** Points kept per series and branch, and scoreboard entries per branch; default 200. */
  maxRuns?: number;
  shift?: Partial<ShiftOptions>;
  catalog?: Catalog;
  /** Length of each index trend (latest medians per branch); default 20. */
  trendLength?: number;
  /** Which branches the derived files hold (default: see DEFAULT_BRANCH_RETENTION). */
  branches?: Partial<BranchRetention>;
}

export interface BranchRetention {
  /** Always kept; default: the branch with the most records (ties: the first by name). */
  default?: string;
  /** Other branches kept, most recently active first. */
  maxBranches: number;
  /** Only branches with a record this recent, counted back from the newest record (not the clock). */
  activeDays: number;
}

export const DEFAULT_BRANCH_RETENTION: BranchRetention = { maxBranches: 20, activeDays: 90 };

/** The branches derived files keep (sorted) and the default one, from every record's branch and time. */
export function retainedBranches(
  records: ReadonlyArray<{ branch: string; t: number }>,
  opts: Partial<BranchRetention> = {},
): { kept: string[]; default: string; expired: number } {
  const { maxBranches, activeDays } = { ...DEFAULT_BRANCH_RETENTION, ...opts };
  const stats = new Map<string, { last: number; n: number }>();
  let newest = -Infinity;
  for (const { branch, t } of records) {
    const st = stats.get(branch) ?? { last: -Infinity, n: 0 };
    st.last = Math.max(st.last, t);
    st.n++;
    stats.set(branch, st);
    newest = Math.max(newest, t);
  }
  const all = [...stats.keys()].sort(byString);
  const def = opts.default ?? all.reduce((best, b) => (stats.get(b)!.n > (stats.get(best)?.n ?? -1) ? b : best), all[0] ?? '');
  const recent = all
    .filter((b) => b !== def && stats.get(b)!.last >= newest - activeDays * 86_400_000)
    .sort((a, b) => stats.get(b)!.last - stats.get(a)!.last || byString(a, b))
    .slice(0, maxBranches);
  const kept = [...(stats.has(def) ? [def] : []), ...recent].sort(byString);
  return { kept, default: def, expired: all.length - kept.length };
}

export const DEFAULT_MAX_RUNS = 200;
const MESSAGE_MAX = 200;

export interface Derived {
  index: HistoryIndex;
  /** Sorted by case id. */
  series: CaseSeriesFile[];
}

/**
 * series/<file>: the case id itself when it is a plain lower-case name (as every spec id is), else a
 * sanitized name and "~" plus 16 hex digits of the id's SHA-256. "~" never occurs in a plain name,
 * and upper case never in a file name, so no two case ids share a file, on case-insensitive
 * file systems either.
 */
export function seriesFile(caseId: string): string {
  const plain = /^[a-z0-9][a-z0-9._-]*$/.test(caseId) && caseId.length <= 200;
  const sanitized = caseId
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '_')
    .replace(/^\./, '_')
    .slice(0, 100);
  const name = plain ? caseId : `${sanitized}~${createHash('sha256').update(caseId).digest('hex').slice(0, 16)}`;
  return `${SERIES_DIR}/${name}.json`;
}

interface Acc {
  caseId: string;
  label: string;
  runner: Runner;
  /** Positions into the time-ordered records, and the case of each. */
  at: number[];
  cases: RecordCase[];
}

interface Ordered {
  loaded: LoadedRecord;
  t: number;
}

const FALLBACK_GROUPS: Record<string, string> = { cpu: 'CPU', net: 'Network', imported: 'Imported (github-action-benchmark)' };

/** Time per work unit: per byte, else per op, else per iteration. */
function unitOf(c: RecordCase): number {
  return (c.median_ns as number) / workUnits(c.work);
}

/** Instructions per work unit, for counted cases. */
function countUnitOf(c: RecordCase): number | undefined {
  return c.instructions ? c.instructions.median / workUnits(c.work) : undefined;
}

/** What moves counts besides the code: the runtime or compiler and the counter, and the machine. */
function toolchainOf(r: LoadedRecord['record']): string {
  return r.counter ? `${r.host.runtime}; ${r.counter.tool} ${r.counter.version}` : r.host.runtime;
}
const hostOf = (r: LoadedRecord['record']) => `${platformOf(r.host)} ${r.host.cpu_model}`;

function firstLine(message: string): string {
  const line = message.split(/\r?\n/, 1)[0] ?? '';
  return line.length > MESSAGE_MAX ? `${line.slice(0, MESSAGE_MAX - 1)}…` : line;
}

const sortedKeys = (m: Readonly<Record<string, number>>): Record<string, number> =>
  Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

function point({ loaded }: Ordered, c: RecordCase, shift: Shift | undefined, step: CountStep | undefined): SeriesPoint {
  const { path, record } = loaded;
  // One literal, one shape, keys in sorted order (stableJson then need not copy it); undefined
  // members are left out of the JSON.
  const counted = c.instructions;
  return {
    aa_spread: counted?.aa_spread,
    author: record.commit.author,
    branch: record.branch,
    bytes: c.work.bytes,
    client_commit: record.client.commit,
    client_version: record.client.version,
    count_step: step,
    imported: record.source ? `github-action-benchmark ${record.source.tool}: ${c.gab?.name ?? c.id}` : undefined,
    instructions: counted?.median,
    max_ns: c.max_ns ?? (c.median_ns as number),
    median_ns: c.median_ns as number,
    message: firstLine(record.commit.message),
    metrics: c.metrics ? sortedKeys(c.metrics) : undefined,
    min_ns: c.min_ns ?? (c.median_ns as number),
    n: c.n,
    ops: c.work.ops,
    record: path,
    run_at: record.started_at,
    run_id: record.run.id,
    sha: record.commit.sha,
    shift: shift ? { p: shift.p, ratio: shift.ratio } : undefined,
    timestamp: record.commit.timestamp,
    toolchain: counted ? toolchainOf(record) : undefined,
    url: record.commit.url,
  };
}

export function deriveHistory(set: RecordSet, opts: DeriveOptions = {}): Derived {
  const maxRuns = opts.maxRuns ?? DEFAULT_MAX_RUNS;
  if (!(Number.isInteger(maxRuns) && maxRuns >= 1)) throw new RangeError(`maxRuns must be a positive integer, got ${maxRuns}`);
  const shiftOpts: ShiftOptions = { ...DEFAULT_SHIFT, ...opts.shift };
  const trendLength = opts.trendLength ?? 20;
  // Records under a renamed case's former id count as the case (the catalog's `formerly`).
  const aliases = new Map((opts.catalog?.cases ?? []).flatMap((c) => (c.formerly ?? []).map((old) => [old, c.id] as const)));
  // Commit time, then record path: the order of every series.
  const all: Ordered[] = loadedWithCurrentIds(set.records, aliases).map((loaded) => ({ loaded, t: timeOf(loaded.record.commit.timestamp) }));
  const retained = retainedBranches(
    all.map((o) => ({ branch: o.loaded.record.branch, t: o.t })),
    opts.branches,
  );
  const keptBranches = new Set(retained.kept);
  const ordered = all.filter((o) => keptBranches.has(o.loaded.record.branch));
  ordered.sort((a, b) => a.t - b.t || byString(a.loaded.path, b.loaded.path));

  const series = new Map<string, Acc>();
  const kinds = new Map<string, Kind>();
  const branches = new Set<string>();
  ordered.forEach(({ loaded: { record } }, k) => {
    branches.add(record.branch);
    for (const c of record.cases) {
      if (c.status !== 'ok' || c.median_ns === null) continue;
      const key = `${c.id}\u0000${c.label}\u0000${record.runner}`;
      let acc = series.get(key);
      if (!acc) {
        series.set(key, (acc = { caseId: c.id, label: c.label, runner: record.runner, at: [], cases: [] }));
        if (!kinds.has(c.id)) kinds.set(c.id, c.kind);
      }
      if (acc.at[acc.at.length - 1] === k) continue; // the same case/label twice in one record: first wins
      acc.at.push(k);
      acc.cases.push(c);
    }
  });

  const files = new Map<string, { file: CaseSeriesFile; index: IndexSeries[] }>();
  for (const acc of series.values()) {
    const { kept, latest } = finishSeries(acc, ordered, maxRuns, shiftOpts, trendLength);
    let entry = files.get(acc.caseId);
    if (!entry) files.set(acc.caseId, (entry = { file: { schema: SERIES_SCHEMA_ID, case: acc.caseId, series: [] }, index: [] }));
    entry.file.series.push({ runner: acc.runner, label: acc.label, points: kept });
    entry.index.push({ runner: acc.runner, label: acc.label, points: kept.length, latest });
  }

  const catalogCases = new Map((opts.catalog?.cases ?? []).map((c) => [c.id, c]));
  const groupOf = (id: string, kind: Kind) => catalogCases.get(id)?.group ?? (id.startsWith('gab.') ? 'imported' : kind);
  const bySeries = (a: Series | IndexSeries, b: Series | IndexSeries) => byString(a.label, b.label) || byRunner(a.runner, b.runner);
  const caseIds = [...files.keys()].sort(byString);
  const cases: IndexCase[] = caseIds.map((id) => {
    const entry = files.get(id)!;
    entry.file.series.sort(bySeries);
    entry.index.sort(bySeries);
    const info = catalogCases.get(id);
    const kind = info?.kind ?? kinds.get(id) ?? 'cpu';
    return {
      id,
      kind,
      group: groupOf(id, kind),
      doc: info?.doc ?? '',
      file: seriesFile(id),
      ...(info?.formerly ? { formerly: [...info.formerly] } : {}),
      ...(info?.op ? { op: info.op } : {}),
      series: entry.index,
    };
  });

  const used = new Set(cases.map((c) => c.group));
  const groups = (opts.catalog?.groups ?? []).filter((g) => used.has(g.id)).map((g) => ({ id: g.id, title: g.title }));
  const known = new Set(groups.map((g) => g.id));
  for (const id of [...used].filter((g) => !known.has(g)).sort(byString)) groups.push({ id, title: FALLBACK_GROUPS[id] ?? id });

  const present = new Set([...series.values()].map((a) => a.runner));
  const countBoard = scoreboard(
    ordered.map((o) => o.loaded),
    maxRuns,
    groupOf,
    countFigure,
  );
  const index: HistoryIndex = {
    schema: INDEX_SCHEMA_ID,
    generated_from: all.length,
    branches: [...branches].sort(byString),
    default_branch: retained.default,
    expired_branches: retained.expired,
    runners: RUNNER_ORDER.filter((r) => present.has(r)),
    groups,
    cases,
    scoreboard: scoreboard(
      ordered.map((o) => o.loaded),
      maxRuns,
      groupOf,
    ),
    ...(countBoard.length > 0 ? { scoreboard_counts: countBoard } : {}),
    invalid: [...set.invalid].sort((a, b) => byString(a.file, b.file)).map((i) => ({ file: i.file, problem: i.problem })),
  };
  return { index, series: caseIds.map((id) => files.get(id)!.file) };
}

/** Per branch: retention, shift markers on the kept points, the index summary; then the kept points in order. */
function finishSeries(
  acc: Acc,
  ordered: readonly Ordered[],
  maxRuns: number,
  shiftOpts: ShiftOptions,
  trendLength: number,
): { kept: SeriesPoint[]; latest: IndexSeries['latest'] } {
  const perBranch = new Map<string, number[]>(); // branch -> positions into acc.at / acc.cases
  acc.at.forEach((k, i) => {
    const b = ordered[k]!.loaded.record.branch;
    const list = perBranch.get(b);
    if (list) list.push(i);
    else perBranch.set(b, [i]);
  });
  const keep = new Uint8Array(acc.at.length);
  const shifts = new Map<number, Shift>();
  const steps = new Map<number, CountStep>();
  const latest: IndexSeries['latest'] = {};
  const margin = shiftMargin(shiftOpts);
  for (const branch of [...perBranch.keys()].sort(byString)) {
    const list = perBranch.get(branch)!;
    const n = list.length;
    const from = Math.max(0, n - maxRuns);
    const start = Math.max(0, from - margin);
    const units = list.slice(start).map((i) => unitOf(acc.cases[i]!));
    for (const s of detectShifts(units, shiftOpts, from - start)) shifts.set(list[start + s.index]!, s);
    for (let j = from; j < n; j++) keep[list[j]!] = 1;
    // Count steps over the branch's whole counted history, like shifts, so retention does not move them.
    const counted = list.filter((i) => acc.cases[i]!.instructions);
    const countPoints = counted.map((i) => {
      const c = acc.cases[i]!;
      const rec = ordered[acc.at[i]!]!.loaded.record;
      return {
        unit: countUnitOf(c) as number,
        sha: rec.commit.sha,
        toolchain: toolchainOf(rec),
        host: hostOf(rec),
        ...(c.instructions!.aa_spread !== undefined ? { spread: c.instructions!.aa_spread } : {}),
      };
    });
    for (const [k, step] of countSteps(countPoints)) steps.set(counted[k]!, step);
    const last = acc.cases[list[n - 1]!]!;
    const prev = n > 1 ? acc.cases[list[n - 2]!]! : undefined;
    const record = ordered[acc.at[list[n - 1]!]!]!.loaded.record;
    const prevUnit = prev ? unitOf(prev) : 0;
    latest[branch] = {
      median_ns: last.median_ns as number,
      sha: record.commit.sha,
      timestamp: record.commit.timestamp,
      run_id: record.run.id,
      run_at: record.started_at,
      change: prev && prevUnit > 0 ? unitOf(last) / prevUnit - 1 : null,
      trend: list.slice(-trendLength).map((i) => acc.cases[i]!.median_ns as number),
      ops: last.work.ops,
      bytes: last.work.bytes,
      ...(lowPrecision(last.samples_ns, last.work) ? { low_precision: true as const } : {}),
      ...medianIntervalOf(last.samples_ns),
      ...(last.instructions
        ? countSummary(
            counted.map((i) => acc.cases[i]!),
            trendLength,
          )
        : {}),
    };
  }
  const kept: SeriesPoint[] = [];
  for (let i = 0; i < acc.at.length; i++) if (keep[i]) kept.push(point(ordered[acc.at[i]!]!, acc.cases[i]!, shifts.get(i), steps.get(i)));
  return { kept, latest };
}

/** The index's count figures of a branch whose latest point is counted: `cases` are its counted cases, oldest first. */
function countSummary(cases: readonly RecordCase[], trendLength: number): { instructions: number; count_change: number | null; count_trend: number[] } {
  const last = cases[cases.length - 1]!;
  const prev = cases[cases.length - 2];
  return {
    instructions: last.instructions!.median,
    count_change: prev ? (countUnitOf(last) as number) / (countUnitOf(prev) as number) - 1 : null,
    count_trend: cases.slice(-trendLength).map((c) => c.instructions!.median),
  };
}

/** The derived files as path (relative to the history folder) -> exact bytes, in path order. */
export function renderDerived(d: Derived): Map<string, string> {
  const out = new Map<string, string>();
  out.set(INDEX_FILE, stableJson(d.index));
  const files = d.series.map((s) => [seriesFile(s.case), stableJson(s)] as const).sort((a, b) => byString(a[0], b[0]));
  for (const [path, text] of files) {
    // Never two cases in one file (seriesFile rules it out; this keeps it so).
    if (out.has(path)) throw new Error(`history: two case ids map to the series file ${path}; nothing derived`);
    out.set(path, text);
  }
  return out;
}

/** deriveHistory + renderDerived: records in, the derived files' bytes out. */
export function derive(set: RecordSet, opts: DeriveOptions = {}): Map<string, string> {
  return renderDerived(deriveHistory(set, opts));
}

/**
 * At most this many iterations of a latest point go into the index, which the site loads on every
 * view and publish writes within its budget: beyond it, evenly spaced order statistics of the
 * sorted iterations (the ends kept). Fewer points only widen the scoreboard's ratio intervals, so
 * a ranking the index shows is one the full samples show too.
 */
export const INDEX_SAMPLES = 64;

function indexSamples(samples: readonly number[]): number[] {
  if (samples.length <= INDEX_SAMPLES) return [...samples];
  const sorted = [...samples].sort((a, b) => a - b);
  return Array.from({ length: INDEX_SAMPLES }, (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (INDEX_SAMPLES - 1))]!);
}

/** The latest point's median interval per iteration and its iterations (at most INDEX_SAMPLES), when it has samples enough for one (the site's scoreboard ranks with both). */
function medianIntervalOf(samples: readonly number[]): { median_interval?: { lo: number; hi: number }; samples_ns?: number[] } {
  const ci = costInterval(samples, 1);
  return ci ? { median_interval: ci, samples_ns: indexSamples(samples) } : {};
}
