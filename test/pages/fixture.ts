// Hand-made history for the trend-site tests (and the synthetic big history of bench/site.bench.ts):
// run list -> SeriesPoint per case x label x runner -> series/<case>.json, and index.json derived
// from them the way the contract in src/history/schema.ts describes it (latest per branch with a
// short trend, change = latest / previous median, scoreboard = geomean of per-op time / fastest).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CaseSeriesFile, HistoryIndex, IndexCase, ScoreboardEntry, Series, SeriesPoint } from '../../src/history/schema.js';
import type { Runner } from '../../src/spec/schema.js';
import { rng as unitRng } from '../stats/random.js';

export interface FixtureRun {
  run_id: string;
  branch: string;
  sha: string;
  message: string;
  author: string;
  timestamp: string;
  url?: string;
  versions: Record<Runner, string>;
}

export interface FixtureCase {
  id: string;
  kind: 'cpu' | 'net';
  group: string;
  doc: string;
  labels: string[];
  runners: Runner[];
  work: { ops?: number; bytes?: number };
  /** The case's unit of work as the report names it (IndexCase.op), when not "op". */
  op?: string;
  /** Median ns per iteration per runner, before noise. */
  baseNs: Partial<Record<Runner, number>>;
  /** Multiply a point's time (e.g. a step change); return undefined for "no point". */
  factor?: (runner: Runner, runIndex: number, run: FixtureRun) => number | undefined;
  /** Further figures of a point by unit (SeriesPoint.metrics), e.g. heap bytes per op. */
  metrics?: (runner: Runner, runIndex: number, run: FixtureRun) => Record<string, number> | undefined;
  /** Mark a shift at this point. */
  shift?: (runner: Runner, runIndex: number, run: FixtureRun) => { ratio: number; p: number } | undefined;
}

export interface History {
  index: HistoryIndex;
  files: Map<string, CaseSeriesFile>;
}

/** Deterministic noise in [-1, 1). */
export function rng(seed: number): () => number {
  const unit = unitRng(seed);
  return () => unit() * 2 - 1;
}

export function buildHistory(
  runs: FixtureRun[],
  cases: FixtureCase[],
  groups: HistoryIndex['groups'],
  opts: { trend?: number; scoreboardMax?: number; seed?: number } = {},
): History {
  const trendLen = opts.trend ?? 20;
  const noise = rng(opts.seed ?? 7);
  const files = new Map<string, CaseSeriesFile>();
  const indexCases: IndexCase[] = [];
  // per run: case/label -> runner -> per-op ns, for the scoreboard
  const perRun = new Map<string, Map<string, Partial<Record<Runner, number>>>>();

  for (const c of cases) {
    const series: Series[] = [];
    for (const label of c.labels) {
      for (const runner of c.runners) {
        const base = c.baseNs[runner];
        if (base === undefined) continue;
        const points: SeriesPoint[] = [];
        runs.forEach((run, i) => {
          const f = c.factor ? c.factor(runner, i, run) : 1;
          if (f === undefined) return;
          const median = Math.round(base * f * (1 + 0.03 * noise()));
          const p: SeriesPoint = {
            record: `runs/${run.timestamp.slice(0, 4)}/${run.timestamp.slice(5, 7)}/${run.timestamp.replace(/[:.]/g, '')}-${run.sha.slice(0, 7)}-${runner}-${run.run_id}.json`,
            branch: run.branch,
            sha: run.sha,
            message: run.message,
            author: run.author,
            timestamp: run.timestamp,
            run_id: run.run_id,
            client_version: run.versions[runner],
            median_ns: median,
            min_ns: Math.round(median * 0.97),
            max_ns: Math.round(median * 1.05),
            n: 10,
            ...c.work,
          };
          if (run.url !== undefined) p.url = run.url;
          const shift = c.shift?.(runner, i, run);
          if (shift) p.shift = shift;
          const metrics = c.metrics?.(runner, i, run);
          if (metrics) p.metrics = metrics;
          points.push(p);
          const key = `${c.id}\u0000${label}`;
          const m = perRun.get(run.run_id) ?? new Map();
          perRun.set(run.run_id, m);
          const row = m.get(key) ?? {};
          row[runner] = median / (c.work.ops ?? 1);
          m.set(key, row);
        });
        series.push({ runner, label, points });
      }
    }
    const file = `series/${c.id}.json`;
    files.set(file, { schema: 'bee-bench/history-series@1', case: c.id, series });
    indexCases.push({
      id: c.id,
      kind: c.kind,
      group: c.group,
      doc: c.doc,
      ...(c.op ? { op: c.op } : {}),
      file,
      series: series.map((s) => {
        const latest: IndexCase['series'][number]['latest'] = {};
        const byBranch = new Map<string, SeriesPoint[]>();
        for (const p of s.points) byBranch.set(p.branch, [...(byBranch.get(p.branch) ?? []), p]);
        for (const [branch, pts] of byBranch) {
          const last = pts[pts.length - 1]!;
          const prev = pts[pts.length - 2];
          const entry: IndexCase['series'][number]['latest'][string] = {
            median_ns: last.median_ns,
            sha: last.sha,
            timestamp: last.timestamp,
            // As src/history/derive.ts: time per work unit, latest / previous - 1.
            change: prev ? last.median_ns / prev.median_ns - 1 : null,
            trend: pts.slice(-trendLen).map((p) => p.median_ns),
          };
          if (last.ops !== undefined) entry.ops = last.ops;
          if (last.bytes !== undefined) entry.bytes = last.bytes;
          latest[branch] = entry;
        }
        return { runner: s.runner, label: s.label, points: s.points.length, latest };
      }),
    });
  }

  let scoreboard: ScoreboardEntry[] = [];
  for (const run of runs) {
    const rows = [...(perRun.get(run.run_id)?.values() ?? [])].filter((r) => Object.keys(r).length >= 2);
    if (rows.length === 0) continue;
    const logSum: Partial<Record<Runner, number>> = {};
    const count: Partial<Record<Runner, number>> = {};
    const wins: Partial<Record<Runner, number>> = {};
    for (const r of rows) {
      const fastest = Math.min(...Object.values(r));
      for (const [runner, v] of Object.entries(r) as Array<[Runner, number]>) {
        logSum[runner] = (logSum[runner] ?? 0) + Math.log(v / fastest);
        count[runner] = (count[runner] ?? 0) + 1;
        if (v === fastest) wins[runner] = (wins[runner] ?? 0) + 1;
      }
    }
    const geomean: Partial<Record<Runner, number>> = {};
    for (const runner of Object.keys(logSum) as Runner[]) geomean[runner] = Math.exp(logSum[runner]! / count[runner]!);
    scoreboard.push({ run_id: run.run_id, branch: run.branch, timestamp: run.timestamp, sha: run.sha, geomean, wins, rows: rows.length });
  }
  if (opts.scoreboardMax !== undefined) {
    const keep: ScoreboardEntry[] = [];
    for (const b of new Set(runs.map((r) => r.branch))) keep.push(...scoreboard.filter((e) => e.branch === b).slice(-opts.scoreboardMax));
    scoreboard = keep.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  }

  const branches = [...new Set(runs.map((r) => r.branch))];
  const index: HistoryIndex = {
    schema: 'bee-bench/history-index@1',
    generated_from: runs.length * 3,
    branches,
    default_branch: branches.includes('main') ? 'main' : (branches[0] ?? ''),
    expired_branches: 0,
    runners: ['js', 'go', 'rs'],
    groups,
    cases: indexCases,
    scoreboard,
    invalid: [],
  };
  return { index, files };
}

export function writeHistory(dir: string, h: History): void {
  mkdirSync(join(dir, 'series'), { recursive: true });
  writeFileSync(join(dir, 'index.json'), JSON.stringify(h.index));
  for (const [file, content] of h.files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), JSON.stringify(content));
  }
}

// ---- The small hand-made history the browser tests read ----

export const XSS_MESSAGE =
  'perf: faster BMT <img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script>\n\nSecond line that the tooltip leaves out.';
export const XSS_AUTHOR = '<b onmouseover="window.__xss=4">Mallory</b>';
export const FEATURE_BRANCH = 'feature/<i>x</i>';
export const MAIN_RUNS = 12;
export const FEATURE_RUNS = 4;
/** Index (in main's runs) of the run carrying the XSS message and a javascript: URL. */
export const XSS_RUN = 7;
export const JS_URL_RUN = 3;
/** bee-js changes version at this main run; bee-go shifts (x1.25) from this one. */
export const JS_VERSION_RUN = 6;
export const GO_SHIFT_RUN = 9;

export function smallRuns(): FixtureRun[] {
  const runs: FixtureRun[] = [];
  const t0 = Date.UTC(2025, 0, 6, 9, 0, 0);
  for (let i = 0; i < MAIN_RUNS; i++) {
    const sha = (0x1000000 + i * 7919).toString(16).padEnd(40, 'a');
    const run: FixtureRun = {
      run_id: String(1000 + i),
      branch: 'main',
      sha,
      message: i === XSS_RUN ? XSS_MESSAGE : `chore: change number ${i}\n\nbody text`,
      author: i === XSS_RUN ? XSS_AUTHOR : 'Alice Example',
      timestamp: new Date(t0 + i * 86_400_000).toISOString(),
      url: i === JS_URL_RUN ? 'javascript:window.__xss=3' : `https://github.com/ethersphere/bee-js/commit/${sha}`,
      versions: { js: i < JS_VERSION_RUN ? '9.0.0' : '9.1.0', go: '0.4.2', rs: '0.3.0' },
    };
    runs.push(run);
  }
  for (let i = 0; i < FEATURE_RUNS; i++) {
    const sha = (0x2000000 + i * 104729).toString(16).padEnd(40, 'b');
    runs.push({
      run_id: String(2000 + i),
      branch: FEATURE_BRANCH,
      sha,
      message: `feat: try things ${i}`,
      author: 'Bob Example',
      timestamp: new Date(t0 + (i * 2 + 1) * 86_400_000 + 3_600_000).toISOString(),
      url: `https://github.com/ethersphere/bee-js/commit/${sha}`,
      versions: { js: '9.2.0-rc', go: '0.4.2', rs: '0.3.0' },
    });
  }
  return runs.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
}

export const SMALL_GROUPS = [
  { id: 'harness', title: 'Harness' },
  { id: 'cpu', title: 'CPU (no network)' },
  { id: 'net-upload', title: 'Network upload' },
];

export function smallCases(runs: FixtureRun[]): FixtureCase[] {
  const mainIndex = new Map(runs.filter((r) => r.branch === 'main').map((r, i) => [r.run_id, i]));
  const mi = (run: FixtureRun): number => mainIndex.get(run.run_id) ?? -1;
  return [
    {
      id: 'cpu.harness.noop',
      kind: 'cpu',
      group: 'harness',
      doc: 'One empty timed iteration.',
      labels: ['<i>quick</i>'],
      runners: ['js', 'go', 'rs'],
      work: {},
      baseNs: { js: 900, go: 120, rs: 60 },
    },
    {
      id: 'cpu.keccak.chunk-hash',
      kind: 'cpu',
      group: 'cpu',
      doc: 'Content-address 4096-byte payloads through the chunk-address API (`makeContentAddressedChunk`).',
      labels: ['10000 chunks', 'quick'],
      runners: ['js', 'go', 'rs'],
      work: { ops: 10_000, bytes: 40_960_000 },
      baseNs: { js: 2.1e9, go: 6.2e8, rs: 3.9e8 },
      factor: (runner, _i, run) => (runner === 'go' && mi(run) >= GO_SHIFT_RUN ? 1.25 : 1),
      shift: (runner, _i, run) => (runner === 'go' && mi(run) === GO_SHIFT_RUN ? { ratio: 1.25, p: 0.002 } : undefined),
      // Heap bytes per op from allocation runs: go and rs only (bee-js ran none), go's grows at its shift.
      metrics: (runner, _i, run) => (runner === 'js' ? undefined : { 'B/op': runner === 'rs' ? 8160 : mi(run) >= GO_SHIFT_RUN ? 16_384 : 15_672 }),
    },
    {
      id: 'cpu.ecdsa.sign',
      kind: 'cpu',
      group: 'cpu',
      doc: 'Sign 1000 digests.',
      labels: ['1000 signatures'],
      runners: ['js', 'go'],
      work: { ops: 1000 },
      op: 'sign',
      baseNs: { js: 3.1e8, go: 9.0e7 },
    },
    {
      id: 'net.bzz.upload',
      kind: 'net',
      group: 'net-upload',
      doc: 'Upload a file with /bzz to a local Bee.',
      labels: ['1 MiB'],
      runners: ['js', 'go', 'rs'],
      work: { bytes: 1_048_576 },
      baseNs: { js: 2.4e7, go: 1.9e7, rs: 1.8e7 },
      // rs only ran on main
      factor: (runner, _i, run) => (runner === 'rs' && run.branch !== 'main' ? undefined : 1),
    },
  ];
}

export const INVALID_PROBLEM = 'commit.message: <img src=x onerror="window.__xss=5"> is not a string';

export function smallHistory(): History {
  const runs = smallRuns();
  const h = buildHistory(runs, smallCases(runs), SMALL_GROUPS);
  h.index.invalid = [{ file: 'runs/2025/01/20250107T090000Z-deadbee-js-1001.json', problem: INVALID_PROBLEM }];
  return h;
}

// ---- A big synthetic history (bench/site.bench.ts when bench/out/history-10k is absent) ----

export function bigHistory(opts: { runs: number; cases: number; scoreboardMax?: number }): History {
  const runs: FixtureRun[] = [];
  const t0 = Date.UTC(2020, 0, 1);
  for (let i = 0; i < opts.runs; i++) {
    const sha = (i * 2654435761 + 0x10000000).toString(16).slice(-8).padStart(8, '0').padEnd(40, '0');
    runs.push({
      run_id: String(10_000_000 + i),
      branch: i % 10 === 9 ? 'develop' : 'main',
      sha,
      message: `perf(bmt): change ${i} to the chunk hashing path for larger payloads\n\nLonger body of the commit message describing what changed and why, as real commits do.`,
      author: `Contributor ${i % 37}`,
      timestamp: new Date(t0 + i * 3_600_000).toISOString(),
      url: `https://github.com/ethersphere/bee-js/commit/${sha}`,
      versions: { js: `9.${Math.floor(i / 1000)}.0`, go: `0.${Math.floor(i / 2500)}.0`, rs: `0.${Math.floor(i / 3000)}.1` },
    });
  }
  const cases: FixtureCase[] = [];
  for (let k = 0; k < opts.cases; k++) {
    cases.push({
      id: `cpu.synthetic.case-${String(k).padStart(2, '0')}`,
      kind: k % 3 === 2 ? 'net' : 'cpu',
      group: k % 3 === 2 ? 'net-upload' : 'cpu',
      doc: `Synthetic case ${k}.`,
      labels: ['full'],
      runners: ['js', 'go', 'rs'],
      work: k % 2 === 0 ? { ops: 1000 } : { bytes: 10_485_760 },
      baseNs: { js: 3e8 * (1 + k / 10), go: 1e8 * (1 + k / 7), rs: 8e7 * (1 + k / 5) },
    });
  }
  return buildHistory(runs, cases, SMALL_GROUPS.slice(1), { trend: 30, scoreboardMax: opts.scoreboardMax, seed: 11 });
}
