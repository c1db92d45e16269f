// Result files (one or more runners) + the spec -> the aggregate model every renderer reads.
// Grouping and arithmetic only: every statistic comes from src/stats.
import { overheadAndThroughput, summarize } from '../../stats/index.js';
import { RUNNERS, type CaseResult, type RunSize, type Result, type Runner, type Spec, type SpecCase } from '../../spec/schema.js';
import { effectiveParam, type ParamValues } from '../../spec/select.js';
import {
  AGGREGATE_SCHEMA_ID,
  NET_SCOPE_CAVEAT,
  RUNNER_LABEL,
  type AggregateModel,
  type Basis,
  type CaseModel,
  type Cell,
  type DigestValue,
  type Environment,
  type NotRun,
  type Fit,
  type GroupModel,
  type Row,
  type RunnerInfo,
  type ScoreEntry,
  type AllocScoreEntry,
} from './types.js';
import { cellAllocations, hasAllocations, markMemoryStories } from './memory.js';
import { normalHost } from '../../spec/platform.js';
import {
  boardRows,
  costInterval,
  costRatioInterval,
  costSamples,
  rankingOpen,
  scoreRows,
  scores,
  UNSCORED_GROUPS,
  type RowCost,
  type ScoreRow,
} from '../../stats/scoreboard.js';
import { caseAliases, currentId } from '../../spec/aliases.js';
import { precisionReasons } from '../../verdict/precision.js';
import { opLabelOf } from '../units.js';

export interface AggregateOptions {
  /** SHA-256 of the spec file the report is built against; results with another hash are flagged. */
  specHash?: string;
  /** Runners the run was asked for that produced no result, and why (every report names them). */
  notRun?: readonly NotRun[];
  environment?: Environment;
}

/** Build the aggregate model. Pure: same inputs, same model (no clock, no environment). */
export function aggregate(results: readonly Result[], spec: Spec, opts: AggregateOptions = {}): AggregateModel {
  const warnings: string[] = [];
  const byRunner = pickPerRunner(results, warnings);
  const runners = RUNNERS.filter((r) => byRunner.has(r));

  const specHashes = [...new Set(results.map((r) => r.spec.hash))].sort();
  if (specHashes.length > 1) {
    const per = runners.map((r) => `${RUNNER_LABEL[r]} ${short(byRunner.get(r)!.at(-1)!.spec.hash)}`).join(', ');
    warnings.push(`Results were produced from ${specHashes.length} different spec files (${per}): rows may compare different work.`);
  }
  if (opts.specHash && results.some((r) => r.spec.hash !== opts.specHash)) {
    const off = results.filter((r) => r.spec.hash !== opts.specHash).map((r) => RUNNER_LABEL[r.runner]);
    warnings.push(
      `${[...new Set(off)].join(', ')} ran a spec other than the one this report reads (${short(opts.specHash)}): case docs and groups may not match.`,
    );
  }
  const profiles = [...new Set(results.map((r) => r.spec.profile))].sort() as RunSize[];
  if (profiles.length > 1) warnings.push(`Results mix profiles (${profiles.join(', ')}): iteration counts differ between runners.`);
  for (const r of results) {
    if (r.finished_at === null)
      warnings.push(`The ${RUNNER_LABEL[r.runner]} run started ${r.started_at} did not finish: cases after the last one written are missing.`);
  }

  // (case id, label) -> runner -> case result; the last result file of a runner wins a duplicate.
  // A result written before a case was renamed names it by its former id: it reads as the case.
  const aliases = caseAliases(spec);
  const found = new Map<string, Map<string, Map<Runner, CaseResult>>>();
  for (const runner of runners) {
    for (const result of byRunner.get(runner)!) {
      for (const c of result.cases) {
        const id = currentId(aliases, c.id);
        const label = labelOf(
          c,
          spec.cases.find((s) => s.id === id),
          runner,
        );
        const byLabel = found.get(id) ?? new Map<string, Map<Runner, CaseResult>>();
        found.set(id, byLabel);
        const cells = byLabel.get(label) ?? new Map<Runner, CaseResult>();
        byLabel.set(label, cells);
        cells.set(runner, c);
      }
    }
  }

  const caseModels: CaseModel[] = [];
  for (const sc of spec.cases) {
    const byLabel = found.get(sc.id);
    if (!byLabel) continue;
    caseModels.push(buildCase(sc, byLabel, runners));
  }
  markMemoryStories(caseModels, runners);
  checkSameAs(spec, caseModels, runners);
  markKnown(spec, caseModels);
  const unknown = [...found.keys()].filter((id) => !spec.cases.some((c) => c.id === id));
  if (unknown.length > 0) warnings.push(`Results hold cases the spec does not declare (not reported): ${unknown.sort().join(', ')}.`);

  const groups: GroupModel[] = spec.groups
    .map((g) => ({ id: g.id, title: g.title, note: g.note, cases: caseModels.filter((c) => c.group === g.id) }))
    .filter((g) => g.cases.length > 0);

  const starts = results.map((r) => r.started_at).sort();
  const ends = results
    .map((r) => r.finished_at)
    .filter((t): t is string => t !== null)
    .sort();
  return {
    schema: AGGREGATE_SCHEMA_ID,
    runners: runners.map((r) => runnerInfo(byRunner.get(r)!.at(-1)!)),
    notRun: (opts.notRun ?? []).filter((n) => !byRunner.has(n.runner)).map((n) => ({ ...n })),
    ...(opts.environment ? { environment: opts.environment } : {}),
    specHashes,
    profiles,
    warnings,
    groups,
    scoreboard: scoreboard(groups, runners),
    scoreboardRows: boardRows(timeScoreRows(groups, runners)),
    ...(hasAllocations(caseModels) ? { allocScoreboard: allocScoreboard(groups, runners) } : {}),
    hasNet: caseModels.some((c) => c.kind === 'net'),
    startedAt: starts[0] ?? null,
    finishedAt: ends.at(-1) ?? null,
  };
}

/**
 * A case whose digest must equal another case's digest of the same input (`digest.same_as`: a
 * net reference and the offline BMT root): every digest of both rows for one input must agree,
 * else the row is flagged like a cross-client disagreement.
 */
function checkSameAs(spec: Spec, models: readonly CaseModel[], runners: readonly Runner[]): void {
  for (const sc of spec.cases) {
    const other = sc.digest?.same_as;
    const model = models.find((m) => m.id === sc.id);
    const otherModel = models.find((m) => m.id === other);
    const otherSpec = spec.cases.find((c) => c.id === other);
    if (!other || !model || !otherModel || !otherSpec) continue;
    for (const row of model.rows) {
      const values = (m: CaseModel, c: SpecCase, r: Row): Array<DigestValue & { input: string }> =>
        runners.flatMap((runner) => {
          const d = r.cells[runner]?.digest;
          return d ? [{ runner, digest: d, caseId: m.id, input: digestInput(c, r.label, runner) }] : [];
        });
      const mine = values(model, sc, row);
      const inputs = new Set(mine.map((v) => v.input));
      const theirs = otherModel.rows.flatMap((r) => values(otherModel, otherSpec, r)).filter((v) => inputs.has(v.input));
      const all = [...mine, ...theirs];
      if (theirs.length > 0 && new Set(all.map((v) => v.digest)).size > 1)
        row.digestMismatch = all.map(({ runner, digest, caseId }) => ({ runner, digest, caseId }));
    }
  }
}

/**
 * A disagreement is known when the spec lists it (case `known`): the runners outside the entry
 * agree among themselves and only the entry's runners differ. Anything else stays a new finding.
 */
function markKnown(spec: Spec, models: readonly CaseModel[]): void {
  for (const m of models) {
    const known = spec.cases.find((c) => c.id === m.id)?.known ?? [];
    for (const row of m.rows) {
      if (!row.digestMismatch) continue;
      const entry = known.find((k) => {
        const others = row.digestMismatch!.filter((d) => !k.runners.includes(d.runner));
        const odd = row.digestMismatch!.filter((d) => k.runners.includes(d.runner));
        const agreed = new Set(others.map((d) => d.digest));
        return odd.length > 0 && agreed.size === 1 && odd.every((d) => !agreed.has(d.digest));
      });
      if (entry) row.digestKnown = { finding: entry.finding, runners: [...entry.runners], doc: entry.doc, url: entry.url };
    }
  }
}

/** The digest input of a row for one runner: its effective param with digest_with over it. */
function digestInput(sc: SpecCase, label: string, runner: Runner): string {
  const p = [...sc.params.full, ...sc.params.quick].find((q) => q.label === label);
  if (!p) return `?${label}`;
  const values: ParamValues = { ...effectiveParam(p, runner), ...(p.digest_with ?? {}) };
  return JSON.stringify(
    Object.entries(values)
      .filter(([k]) => k !== 'label')
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Results per runner, oldest first (a later file's cases override an earlier one's). */
function pickPerRunner(results: readonly Result[], warnings: string[]): Map<Runner, Result[]> {
  const out = new Map<Runner, Result[]>();
  for (const r of [...results].sort((a, b) => a.started_at.localeCompare(b.started_at))) {
    const list = out.get(r.runner) ?? [];
    list.push(r);
    out.set(r.runner, list);
  }
  for (const [runner, list] of out) {
    const versions = new Set(list.map((r) => `${r.client.name}@${r.client.version}${r.client.commit ? `#${r.client.commit}` : ''}`));
    if (versions.size > 1) {
      warnings.push(
        `${RUNNER_LABEL[runner]} results come from ${versions.size} client builds (${[...versions].join(', ')}); the latest run wins where they overlap.`,
      );
    }
  }
  return out;
}

function runnerInfo(r: Result): RunnerInfo {
  return {
    runner: r.runner,
    label: RUNNER_LABEL[r.runner],
    client: r.client,
    host: normalHost(r.host),
    bee: r.bee,
    specHash: r.spec.hash,
    profile: r.spec.profile,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

/** The param label a result row belongs to: its recorded label, else the spec param it equals. */
function labelOf(c: CaseResult, sc: SpecCase | undefined, runner: Runner): string {
  const recorded = c.param['label'];
  if (typeof recorded === 'string' && recorded.length > 0) return recorded;
  const same = (a: ParamValues, b: ParamValues) => {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => k !== 'label'));
    return [...keys].every((k) => a[k] === b[k]);
  };
  for (const p of sc ? [...sc.params.full, ...sc.params.quick] : []) {
    if (same(effectiveParam(p, runner), c.param)) return p.label;
  }
  return Object.keys(c.param)
    .sort()
    .map((k) => `${k}=${String(c.param[k])}`)
    .join(', ');
}

function basisOf(sc: SpecCase): Basis {
  if (sc.work.bytes && sc.work.bytes.length > 0) return 'bytes';
  if (sc.work.ops.length > 0) return 'ops';
  return 'iteration';
}

function buildCase(sc: SpecCase, byLabel: Map<string, Map<Runner, CaseResult>>, runners: readonly Runner[]): CaseModel {
  const order = [...sc.params.full, ...sc.params.quick].map((p) => p.label);
  const labels = [...byLabel.keys()].sort((a, b) => rank(order, a) - rank(order, b));
  const opLabel = opLabelOf(sc.work.ops);
  const basis = basisOf(sc);
  const rows = labels.map((label) => buildRow(sc, label, byLabel.get(label)!, runners, basis, opLabel));
  return {
    id: sc.id,
    kind: sc.kind,
    group: sc.group,
    doc: sc.doc,
    ...(sc.digest ? { digestDoc: sc.digest.doc } : {}),
    opLabel,
    rows,
    fits: fits(rows, runners),
  };
}

function rank(order: readonly string[], label: string): number {
  const i = order.indexOf(label);
  return i === -1 ? order.length : i;
}

function buildRow(sc: SpecCase, label: string, results: Map<Runner, CaseResult>, runners: readonly Runner[], basis: Basis, opLabel: string): Row {
  const cells: Partial<Record<Runner, Cell>> = {};
  for (const runner of runners) {
    const c = results.get(runner);
    // The harness group is never scored (it times the runners), so its precision is not judged.
    if (c) cells[runner] = buildCell(runner, c, basis, !UNSCORED_GROUPS.has(sc.group));
  }
  const ok = runners.map((r) => cells[r]).filter((c): c is Cell => c?.status === 'ok' && c.unitCostNs !== undefined && c.unitCostNs > 0);
  const contested = ok.length >= 2;
  const best = Math.min(...ok.map((c) => c.unitCostNs!));
  const fastest: Runner[] = [];
  if (contested) {
    const top = ok.find((c) => c.unitCostNs === best)!;
    for (const c of ok) {
      c.ratio = c.unitCostNs! / best;
      c.fastest = c.unitCostNs === best;
      if (c.fastest) fastest.push(c.runner);
      const ri = costRatioInterval(rowCost(c), rowCost(top));
      if (ri && !c.fastest) c.ratioInterval = ri;
    }
  }
  const works = new Set(Object.values(cells).map((c) => `${c.work.ops ?? ''}/${c.work.bytes ?? ''}`));
  const digests: DigestValue[] = runners.flatMap((r) => {
    const d = cells[r]?.digest;
    return d ? [{ runner: r, digest: d }] : [];
  });
  const row: Row = {
    caseId: sc.id,
    group: sc.group,
    kind: sc.kind,
    label,
    basis,
    opLabel,
    scaled: works.size > 1,
    cells,
    contested,
    fastest,
  };
  if (new Set(digests.map((d) => d.digest)).size > 1) row.digestMismatch = digests;
  if (ok.some((c) => c.lowPrecision)) row.lowPrecision = true;
  if (contested && !UNSCORED_GROUPS.has(sc.group) && rankingOpen({ costs: ok.map(rowCost) })) row.rankingOpen = true;
  if (sc.kind === 'net') row.caveat = NET_SCOPE_CAVEAT;
  return row;
}

function buildCell(runner: Runner, c: CaseResult, basis: Basis, judged: boolean): Cell {
  const cell: Cell = {
    runner,
    status: c.status,
    param: c.param,
    work: c.work,
    n: c.samples_ns.length,
    warmup: c.warmup,
    peakRssBytes: c.peak_rss_bytes,
    samplesNs: c.samples_ns,
  };
  const reason = c.status === 'skipped' ? c.skip_reason : c.status === 'failed' ? c.error : undefined;
  if (reason) cell.reason = reason;
  if (c.digest) cell.digest = c.digest;
  if (c.status !== 'ok') return cell;
  const alloc = cellAllocations(c);
  if (alloc) cell.alloc = alloc;
  if (c.samples_ns.length === 0) return cell;
  const reasons = judged ? precisionReasons(c.samples_ns, c.work) : [];
  if (reasons.length > 0) cell.lowPrecision = reasons;

  const s = summarize(c.samples_ns);
  cell.medianNs = s.median;
  cell.minNs = s.min;
  cell.maxNs = s.max;
  cell.madNs = s.madScaled;
  if (Number.isFinite(s.cv)) cell.cv = s.cv;
  if (s.p95 !== null) cell.p95Ns = s.p95;
  if (s.median > 0) cell.spread = Math.max(s.median - s.min, s.max - s.median) / s.median;
  const { bytes, ops } = c.work;
  if (bytes && s.median > 0) cell.bytesPerNs = bytes / s.median;
  if (ops) cell.perOpNs = s.median / ops;
  const units = basis === 'bytes' ? bytes : basis === 'ops' ? ops : 1;
  if (units && units > 0) {
    cell.unitCostNs = s.median / units;
    const ci = costInterval(c.samples_ns, units);
    if (ci) cell.costInterval = ci;
  }
  const wall = sum(c.samples_ns);
  const cpu = sum(c.cpu_ns);
  if (wall > 0 && cpu > 0) cell.cpuWallRatio = cpu / wall;
  return cell;
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

/** time = overhead + bytes / throughput, per runner over the case's rows with distinct byte sizes. */
function fits(rows: readonly Row[], runners: readonly Runner[]): Fit[] {
  const out: Fit[] = [];
  for (const runner of runners) {
    const pts = rows.flatMap((row) => {
      const c = row.cells[runner];
      return c?.status === 'ok' && c.work.bytes && c.medianNs !== undefined ? [{ x: c.work.bytes, y: c.medianNs }] : [];
    });
    if (new Set(pts.map((p) => p.x)).size < 2) continue;
    const f = overheadAndThroughput(
      pts.map((p) => p.x),
      pts.map((p) => p.y),
    );
    out.push({
      runner,
      points: f.n,
      overheadNs: f.overhead,
      bytesPerNs: Number.isFinite(f.throughput) && f.throughput > 0 ? f.throughput : null,
      r2: f.r2,
    });
  }
  return out;
}

type CostOf = (row: Row, cell: Cell) => number | undefined;

/** A time cell as a scoreboard cost: time per unit of work, its median's interval and its iterations in the same unit. */
function rowCost(cell: Cell): RowCost {
  const units = cell.medianNs !== undefined && cell.unitCostNs! > 0 ? cell.medianNs / cell.unitCostNs! : 0;
  const samples = costSamples(cell.samplesNs, units);
  return { runner: cell.runner, unitCost: cell.unitCostNs!, ...(cell.costInterval ? { interval: cell.costInterval } : {}), ...(samples ? { samples } : {}) };
}

/**
 * The report's rows as scoreboard rows (src/stats/scoreboard.ts, shared with the trend site), each
 * cell's cost by `costOf`; with `intervals`, each time cost carries its median's interval and its iterations, so a row
 * whose ranking the iterations leave open is not scored.
 */
function scoreRowsOf(groups: readonly GroupModel[], runners: readonly Runner[], costOf: CostOf, intervals = false): ScoreRow[] {
  return groups.flatMap((g) =>
    g.cases.flatMap((c) =>
      c.rows.map((row) => ({
        group: g.id,
        costs: runners.flatMap((runner) => {
          const cell = row.cells[runner];
          const unitCost = cell ? costOf(row, cell) : undefined;
          if (unitCost === undefined) return [];
          return [intervals ? { ...rowCost(cell!), unitCost } : { runner, unitCost }];
        }),
      })),
    ),
  );
}

/** Time per unit of work, in contested rows; rows whose ranking is open are compared but not scored. */
function timeScoreRows(groups: readonly GroupModel[], runners: readonly Runner[]): ScoreRow[] {
  return scoreRowsOf(groups, runners, (row, cell) => (row.contested && cell.ratio !== undefined ? cell.unitCostNs : undefined), true);
}

function scoreboard(groups: readonly GroupModel[], runners: readonly Runner[]): ScoreEntry[] {
  return scoreRows(
    timeScoreRows(groups, runners),
    runners,
    groups.map((g) => g.id),
  );
}

/**
 * Heap bytes per unit of the row's work (per byte on byte rows, per op otherwise, as time), over
 * rows where two or more runners have figures. A row where some runner allocated nothing has no
 * ratios (nothing divides by zero): it is left out of the mean and counted in zeroRows instead.
 */
function allocScoreboard(groups: readonly GroupModel[], runners: readonly Runner[]): AllocScoreEntry[] {
  const rows = scoreRowsOf(groups, runners, (row, cell) => {
    if (!cell.alloc) return undefined;
    const units = row.basis === 'bytes' ? cell.work.bytes : row.basis === 'ops' ? cell.work.ops : 1;
    return units && units > 0 ? cell.alloc.bytes / units : undefined;
  });
  const withZero = rows.filter((r) => scores(r) && r.costs.some((c) => c.unitCost === 0));
  const entries = scoreRows(
    rows.filter((r) => !withZero.includes(r)),
    runners,
    groups.map((g) => g.id),
  );
  return entries.map((e) => ({ ...e, zeroRows: withZero.filter((r) => r.costs.some((c) => c.runner === e.runner && c.unitCost === 0)).length }));
}

function short(hash: string): string {
  return hash.slice(0, 12);
}
