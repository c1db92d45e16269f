// The release experiment's analysis: from one or more journals (read.ts), the arms being compared
// (two releases side by side in one run, or one release per run for `compare A B`, or two nodes of
// one release for an A/A), then per cell (size × level × strategy; per server and pooled over an
// arm's servers) the download time = the first ok attempt, a Mann–Whitney test of B against A, the
// Hodges–Lehmann shift B − A in seconds with its 95% interval, BH across the cells of one family,
// the relative change, the direction (src/verdict), failures, and the replicates Noether's formula
// asks for to see a given shift; the same for uploads by size × level, and RACE vs DATA within
// each arm. Pure once the journals are read.
import { benjaminiHochberg, hodgesLehmannTwoSample, mannWhitney, median, quantile, replicatesForShift, zScores } from '../../stats/index.js';
import { cellDirection, type CellDirection } from '../../verdict/index.js';
import type { Strategy } from '../schema.js';
import { levelName, seconds, sizeLabel } from './names.js';
import type { Journal, UnitRecord } from './read.js';

export { LEVEL_NAMES, levelName, seconds, sizeLabel } from './names.js';

export interface AnalysisOptions {
  /** FDR level a cell's q is held against (default 0.05, as Swarm's release reports). */
  alpha?: number;
  /** The shift the power column is for, as a fraction of the cell's pooled median (default 0.1 = 10 %). */
  powerShift?: number;
  /** Wanted power for that column (default 0.8). */
  power?: number;
}

export const ANALYSIS_DEFAULTS = { alpha: 0.05, powerShift: 0.1, power: 0.8 } as const;

export interface Arm {
  /** What the report calls it: the release, made unique when two arms share one. */
  label: string;
  release: string;
  runId: string;
  /** Node labels of this arm, in design order: server k is nodes[k - 1]. */
  nodes: string[];
  client: string;
  runner: string;
}

export type Mode = 'side-by-side' | 'compare' | 'a/a' | 'single';

export interface Cell {
  size: number;
  level: number;
  /** NONE at level 0; for uploads the strategy does not apply ("any"). */
  strategy: Strategy | 'any';
}

export interface GroupFigures {
  n: number;
  median: number;
  /** Units with no ok attempt. */
  failures: number;
  /** Failed attempts, including those of units that later succeeded. */
  failedAttempts: number;
}

export type Family = 'download' | 'upload' | 'strategy';

export interface Comparison extends Cell {
  family: Family;
  /** "pooled" or "server k". */
  scope: string;
  /** For the strategy family: the arm within which RACE is set against DATA. */
  arm?: string;
  /** What is compared: "B vs A" labels, or "RACE vs DATA". */
  aLabel: string;
  bLabel: string;
  a: GroupFigures;
  b: GroupFigures;
  /** Hodges–Lehmann shift of B against A (B − A), seconds; NaN when a side is empty. */
  shift: number;
  lo: number;
  hi: number;
  /** Coverage of the interval actually achieved. */
  confLevel: number;
  /** shift / median of A. */
  relative: number;
  p: number;
  q: number;
  direction: CellDirection;
  /** Replicates per arm to see a shift of powerShift × the pooled median (Noether); NaN when too few values. */
  replicatesNeeded: number;
}

export interface SampleGroup extends Cell {
  kind: 'download' | 'upload';
  arm: string;
  node: string;
  /** 1-based position of node among its arm's nodes. */
  server: number;
  /** Seconds, in journal order. */
  values: number[];
  /** z-scores of values within (cell, server) pooled over the arms (NaN without spread). */
  z: number[];
  /** z-scores within (cell) pooled over servers and arms. */
  zPooled: number[];
}

export interface SyncFigures {
  arm: string;
  units: number;
  synced: number;
  /** Units whose wait hit the ceiling (the download still ran). */
  ceilingReached: number;
  signals: string[];
  medianWaitS: number;
  maxWaitS: number;
  /** Up to five cells where the ceiling was reached, with detail. */
  examples: string[];
}

export interface FailureRow extends Cell {
  arm: string;
  node: string;
  units: number;
  failures: number;
  failedAttempts: number;
  lastError?: string;
}

export interface Analysis {
  mode: Mode;
  arms: Arm[];
  options: Required<AnalysisOptions>;
  journals: { file: string; runId: string; createdAt: string; rows: number; resumes: number; seed: string }[];
  notes: string[];
  comparisons: Comparison[];
  samples: SampleGroup[];
  sync: SyncFigures[];
  failures: FailureRow[];
  totals: { units: number; downloads: number; failedUnits: number; failedAttempts: number };
  summary: string;
}

const key = (c: Cell) => `${c.size}|${c.level}|${c.strategy}`;
const byCell = (a: Cell, b: Cell) => a.size - b.size || a.level - b.level || String(a.strategy).localeCompare(String(b.strategy));

/** The arms of the inputs: releases of one run, runs of one release each, or nodes of one release (A/A). */
export function armsOf(journals: readonly Journal[]): { mode: Mode; arms: Arm[]; armOf: (j: number, u: UnitRecord) => string | undefined } {
  const client = (j: Journal) => `${j.run.client.name} ${j.run.client.version}`;
  if (journals.length === 1) {
    const j = journals[0]!;
    const releases = [...new Set(j.run.design.nodes.map((n) => n.release))];
    if (releases.length >= 2) {
      const arms = releases.map((release) => ({
        label: release,
        release,
        runId: j.run.run_id,
        nodes: j.run.design.nodes.filter((n) => n.release === release).map((n) => n.label),
        client: client(j),
        runner: j.run.runner,
      }));
      return { mode: 'side-by-side', arms, armOf: (_j, u) => u.release };
    }
    const nodes = j.run.design.nodes.map((n) => n.label);
    if (nodes.length >= 2) {
      // One release on several nodes: an A/A, each node one arm.
      const arms = nodes.map((node) => ({
        label: `${releases[0]} on ${node}`,
        release: releases[0]!,
        runId: j.run.run_id,
        nodes: [node],
        client: client(j),
        runner: j.run.runner,
      }));
      return { mode: 'a/a', arms, armOf: (_j, u) => `${u.release} on ${u.node}` };
    }
    const only = { label: releases[0]!, release: releases[0]!, runId: j.run.run_id, nodes, client: client(j), runner: j.run.runner };
    return { mode: 'single', arms: [only], armOf: () => only.label };
  }
  const releaseOf = (j: Journal) => [...new Set(j.run.design.nodes.map((n) => n.release))].join('+');
  const labels = journals.map(releaseOf);
  const arms = journals.map((j, i) => ({
    label: labels.filter((l) => l === labels[i]).length > 1 ? `${labels[i]} (run ${j.run.run_id})` : labels[i]!,
    release: labels[i]!,
    runId: j.run.run_id,
    nodes: j.run.design.nodes.map((n) => n.label),
    client: client(j),
    runner: j.run.runner,
  }));
  return { mode: 'compare', arms, armOf: (j) => arms[j]!.label };
}

export function analyse(journals: readonly Journal[], opts: AnalysisOptions = {}): Analysis {
  if (journals.length === 0) throw new Error('no journal to analyse: give at least one run folder or journal.jsonl');
  const options = { ...ANALYSIS_DEFAULTS, ...opts };
  const { mode, arms, armOf } = armsOf(journals);
  const notes = journals.flatMap((j) => j.notes);

  // Sample groups: per arm × node × cell, downloads and uploads.
  const groups = new Map<string, SampleGroup>();
  const unitsByGroup = new Map<string, UnitRecord[]>();
  const group = (kind: SampleGroup['kind'], arm: string, u: UnitRecord, cell: Cell) => {
    const k = `${kind}|${arm}|${u.node}|${key(cell)}`;
    let g = groups.get(k);
    if (!g) {
      const server = (arms.find((a) => a.label === arm)?.nodes.indexOf(u.node) ?? -1) + 1;
      g = { kind, arm, node: u.node, server, ...cell, values: [], z: [], zPooled: [] };
      groups.set(k, g);
      unitsByGroup.set(k, []);
    }
    unitsByGroup.get(k)!.push(u);
    return g;
  };
  let totalUnits = 0;
  let downloads = 0;
  journals.forEach((j, ji) => {
    for (const u of j.units) {
      const arm = armOf(ji, u);
      if (arm === undefined) continue;
      totalUnits++;
      downloads += u.attempts;
      const d = group('download', arm, u, { size: u.size, level: u.level, strategy: u.strategy });
      if (u.downloadMs !== null) d.values.push(u.downloadMs / 1000);
      const up = group('upload', arm, u, { size: u.size, level: u.level, strategy: 'any' });
      if (u.uploadMs !== null) up.values.push(u.uploadMs / 1000);
    }
  });
  const samples = [...groups.values()].sort((a, b) => byCell(a, b) || a.arm.localeCompare(b.arm) || a.server - b.server);
  addZScores(samples);

  const figures = (kind: SampleGroup['kind'], arm: string, cell: Cell, server?: number): { values: number[]; fig: GroupFigures } => {
    const values: number[] = [];
    let n = 0;
    let failures = 0;
    let failedAttempts = 0;
    for (const [k, g] of groups) {
      if (g.kind !== kind || g.arm !== arm || key(g) !== key(cell) || (server !== undefined && g.server !== server)) continue;
      values.push(...g.values);
      for (const u of unitsByGroup.get(k)!) {
        n++;
        if (kind === 'download') {
          failedAttempts += u.failedAttempts;
          if (u.downloadMs === null && u.attempts > 0) failures++;
        } else if (u.uploadOk === false) {
          failures++;
          failedAttempts++;
        }
      }
    }
    void n;
    return { values, fig: { n: values.length, median: median(values), failures, failedAttempts } };
  };

  const cellsOf = (kind: SampleGroup['kind']) => {
    const m = new Map<string, Cell>();
    for (const g of groups.values()) if (g.kind === kind) m.set(key(g), { size: g.size, level: g.level, strategy: g.strategy });
    return [...m.values()].sort(byCell);
  };

  const comparisons: Comparison[] = [];
  const compare = (
    family: Family,
    scope: string,
    cell: Cell,
    aLabel: string,
    bLabel: string,
    a: { values: number[]; fig: GroupFigures },
    b: { values: number[]; fig: GroupFigures },
    arm?: string,
  ): Comparison => {
    const enough = a.values.length > 0 && b.values.length > 0;
    const t = enough ? mannWhitney(b.values, a.values) : undefined;
    const hl = enough ? hodgesLehmannTwoSample(b.values, a.values) : undefined;
    const pooledMedian = median([...a.values, ...b.values]);
    const shift = hl?.estimate ?? NaN;
    const need =
      a.values.length >= 2 && b.values.length >= 2
        ? replicatesForShift([a.values, b.values], options.powerShift * pooledMedian, { alpha: options.alpha, power: options.power })
        : NaN;
    return {
      family,
      scope,
      ...cell,
      ...(arm !== undefined ? { arm } : {}),
      aLabel,
      bLabel,
      a: a.fig,
      b: b.fig,
      shift,
      lo: hl?.lo ?? NaN,
      hi: hl?.hi ?? NaN,
      confLevel: hl?.achievedConfLevel ?? NaN,
      relative: shift / a.fig.median,
      p: t?.p ?? NaN,
      q: NaN,
      direction: 'unclear',
      replicatesNeeded: need,
    };
  };

  // B against A for each pair of consecutive arms (two arms: one pair).
  for (let i = 1; i < arms.length; i++) {
    const A = arms[0]!;
    const B = arms[i]!;
    const servers = Math.min(A.nodes.length, B.nodes.length);
    for (const kind of ['download', 'upload'] as const) {
      for (const cell of cellsOf(kind)) {
        comparisons.push(compare(kind, 'pooled', cell, A.label, B.label, figures(kind, A.label, cell), figures(kind, B.label, cell)));
        if (servers > 1 || (A.nodes.length > 1 && B.nodes.length > 1))
          for (let s = 1; s <= servers; s++)
            comparisons.push(compare(kind, `server ${s}`, cell, A.label, B.label, figures(kind, A.label, cell, s), figures(kind, B.label, cell, s)));
      }
    }
  }
  // RACE (or PROX) against DATA within each arm, pooled over its servers.
  for (const A of arms) {
    const cells = cellsOf('download').filter((c) => c.level > 0);
    for (const cell of cells.filter((c) => c.strategy === 'DATA')) {
      for (const other of cells.filter((c) => c.size === cell.size && c.level === cell.level && c.strategy !== 'DATA')) {
        const data = figures('download', A.label, cell);
        const alt = figures('download', A.label, other);
        if (data.values.length === 0 && alt.values.length === 0) continue;
        comparisons.push(compare('strategy', 'pooled', { ...cell, strategy: other.strategy }, 'DATA', String(other.strategy), data, alt, A.label));
      }
    }
  }
  // BH within each family × scope kind (pooled cells together, per-server cells together, each arm's strategy cells together).
  const families = new Map<string, Comparison[]>();
  for (const c of comparisons) {
    const f = `${c.family}|${c.scope === 'pooled' ? 'pooled' : 'server'}|${c.arm ?? ''}|${c.aLabel}|${c.bLabel}`;
    (families.get(f) ?? families.set(f, []).get(f)!).push(c);
  }
  for (const list of families.values()) {
    const q = benjaminiHochberg(list.map((c) => c.p));
    list.forEach((c, i) => {
      c.q = q[i]!;
      c.direction = cellDirection(c.q, c.shift, options.alpha);
    });
  }

  const sync = arms.map((A) => syncFigures(A, journals, armOf));
  const failures: FailureRow[] = [];
  for (const [k, g] of groups) {
    if (g.kind !== 'download') continue;
    const us = unitsByGroup.get(k)!;
    const failed = us.filter((u) => u.downloadMs === null && u.attempts > 0).length;
    const attempts = us.reduce((s, u) => s + u.failedAttempts, 0);
    if (failed === 0 && attempts === 0) continue;
    const last = us.find((u) => u.downloadMs === null && u.lastError)?.lastError ?? us.find((u) => u.lastError)?.lastError;
    failures.push({
      arm: g.arm,
      node: g.node,
      size: g.size,
      level: g.level,
      strategy: g.strategy,
      units: us.length,
      failures: failed,
      failedAttempts: attempts,
      ...(last !== undefined ? { lastError: last } : {}),
    });
  }
  failures.sort((a, b) => byCell(a, b) || a.arm.localeCompare(b.arm) || a.node.localeCompare(b.node));
  const failedUnits = failures.reduce((s, f) => s + f.failures, 0);
  const failedAttempts = failures.reduce((s, f) => s + f.failedAttempts, 0);

  const analysis: Analysis = {
    mode,
    arms,
    options,
    journals: journals.map((j) => ({
      file: j.file,
      runId: j.run.run_id,
      createdAt: j.run.created_at,
      rows: j.rows,
      resumes: j.resumes,
      seed: j.run.seed,
    })),
    notes,
    comparisons,
    samples,
    sync,
    failures,
    totals: { units: totalUnits, downloads, failedUnits, failedAttempts },
    summary: '',
  };
  analysis.summary = summaryOf(analysis);
  return analysis;
}

function addZScores(samples: SampleGroup[]): void {
  const pool = (k: (g: SampleGroup) => string, set: (g: SampleGroup, z: number[]) => void) => {
    const m = new Map<string, SampleGroup[]>();
    for (const g of samples) (m.get(k(g)) ?? m.set(k(g), []).get(k(g))!).push(g);
    for (const list of m.values()) {
      const z = zScores(list.flatMap((g) => g.values));
      let at = 0;
      for (const g of list) {
        set(g, z.slice(at, at + g.values.length));
        at += g.values.length;
      }
    }
  };
  pool(
    (g) => `${g.kind}|${key(g)}|${g.server}`,
    (g, z) => (g.z = z),
  );
  pool(
    (g) => `${g.kind}|${key(g)}`,
    (g, z) => (g.zPooled = z),
  );
}

function syncFigures(A: Arm, journals: readonly Journal[], armOf: (j: number, u: UnitRecord) => string | undefined): SyncFigures {
  const waits: number[] = [];
  let units = 0;
  let synced = 0;
  let ceiling = 0;
  const signals = new Set<string>();
  const examples: string[] = [];
  journals.forEach((j, ji) => {
    for (const u of j.units) {
      if (armOf(ji, u) !== A.label || !u.sync) continue;
      units++;
      signals.add(u.sync.signal);
      waits.push(u.sync.waitedMs / 1000);
      if (u.sync.synced) synced++;
      else if (u.sync.signal !== 'none') {
        ceiling++;
        if (examples.length < 5) examples.push(`${u.unit}${u.sync.detail ? `: ${u.sync.detail}` : ''}`);
      }
    }
  });
  return {
    arm: A.label,
    units,
    synced,
    ceilingReached: ceiling,
    signals: [...signals].sort(),
    medianWaitS: median(waits),
    maxWaitS: waits.length ? quantile(waits, 1) : NaN,
    examples,
  };
}

export function cellLabel(c: Cell): string {
  const level = levelName(c.level);
  return c.strategy === 'any' ? `${sizeLabel(c.size)}, level ${level}` : `${sizeLabel(c.size)}, level ${level}, ${c.strategy}`;
}

function pct(r: number): string {
  return Number.isFinite(r) ? `${r >= 0 ? '+' : ''}${(r * 100).toFixed(1)} %` : '–';
}

function summaryOf(a: Analysis): string {
  if (a.arms.length < 2) {
    const units = a.totals.units;
    return `One arm (${a.arms[0]?.label ?? '?'}): ${units} units, ${a.totals.failedUnits} failed downloads; nothing to compare. Give a second run (compare A B) or a design with two releases.`;
  }
  const A = a.arms[0]!.label;
  const B = a.arms[1]!.label;
  const cells = a.comparisons.filter((c) => c.family === 'download' && c.scope === 'pooled' && c.bLabel === B);
  const faster = cells.filter((c) => c.direction === 'b-faster');
  const slower = cells.filter((c) => c.direction === 'a-faster');
  const how = a.mode === 'side-by-side' ? 'measured side by side in one run' : a.mode === 'a/a' ? 'an A/A: one release on two nodes' : 'two runs compared';
  const range = (list: Comparison[]) => {
    const abs = list.map((c) => Math.abs(c.shift));
    const rel = list.map((c) => Math.abs(c.relative * 100));
    if (list.length === 1) return `by ${seconds(abs[0]!)} (${rel[0]!.toFixed(0)} %)`;
    return `by ${seconds(Math.min(...abs))} to ${seconds(Math.max(...abs))} (${Math.min(...rel).toFixed(0)}–${Math.max(...rel).toFixed(0)} %)`;
  };
  const where = (list: Comparison[]) => list.map((c) => cellLabel(c)).join('; ');
  const parts = [
    `${B} against ${A} (${how}; ${a.arms[0]!.client} through the ${a.arms[0]!.runner} runner), download time per cell, pooled over servers, FDR ${a.options.alpha}:`,
  ];
  if (faster.length) parts.push(`${B} is faster in ${faster.length} of ${cells.length} cells ${range(faster)} (${where(faster)});`);
  if (slower.length) parts.push(`${B} is slower in ${slower.length} of ${cells.length} cells ${range(slower)} (${where(slower)});`);
  const unclear = cells.length - faster.length - slower.length;
  if (!faster.length && !slower.length) parts.push(`no cell differs after BH correction (all ${cells.length} cells q ≥ ${a.options.alpha}).`);
  else parts.push(`${unclear} cell${unclear === 1 ? '' : 's'} show no clear difference.`);
  const biggest = [...faster, ...slower].sort((x, y) => Math.abs(y.shift) - Math.abs(x.shift))[0];
  if (biggest)
    parts.push(
      `The largest shift: ${cellLabel(biggest)}, ${B} ${biggest.shift < 0 ? 'faster' : 'slower'} by ${seconds(Math.abs(biggest.shift))} (95 % interval ${seconds(biggest.lo)} to ${seconds(biggest.hi)}, ${pct(biggest.relative)}, q = ${biggest.q.toPrecision(2)}).`,
    );
  const ups = a.comparisons.filter((c) => c.family === 'upload' && c.scope === 'pooled' && c.bLabel === B);
  const upF = ups.filter((c) => c.direction === 'b-faster').length;
  const upS = ups.filter((c) => c.direction === 'a-faster').length;
  parts.push(`Uploads: ${B} faster in ${upF}, slower in ${upS} of ${ups.length} size × level cells.`);
  parts.push(
    a.totals.failedUnits
      ? `${a.totals.failedUnits} download${a.totals.failedUnits === 1 ? '' : 's'} never succeeded (${a.totals.failedAttempts} failed attempts; see the failures table).`
      : `Every download succeeded${a.totals.failedAttempts ? ` (${a.totals.failedAttempts} failed attempts before an ok one)` : ''}.`,
  );
  const ceiling = a.sync.reduce((s, x) => s + x.ceilingReached, 0);
  if (ceiling) parts.push(`The sync wait reached its ceiling for ${ceiling} upload${ceiling === 1 ? '' : 's'}; those downloads ran anyway.`);
  return parts.join(' ');
}
