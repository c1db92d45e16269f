// Benchmark of the history derivation: 10,000 runs x 30 series (10 cases x 3 runners, one label
// each: 30,000 records, 300,000 points) generated in memory, then derive() timed. Bar: < 5 s.
// The generated history is also written, with its derived files, to bench/out/history-10k (or the
// folder given as the first argument) for the site benchmark to load.
// Run: npx tsx bench/history.bench.ts [out-dir] [--max-runs N]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAX_RUNS, derive, deriveHistory, renderDerived } from '../src/history/derive.js';
import { readRecords } from '../src/history/read.js';
import { recordPath, serializeRecord, type LoadedRecord } from '../src/history/record.js';
import { RECORD_SCHEMA_ID, type HistoryRecord, type RecordCase } from '../src/history/schema.js';
import { writeDerived } from '../src/history/store.js';
import { RUNNERS } from '../src/spec/schema.js';
import { madRaw, max, median, min } from '../src/stats/index.js';
import { normals, rng } from '../test/stats/random.js';

const RUNS = 10_000;
const CASES = 10;
const SAMPLES = 5;
const BAR_MS = 5_000;

const args = process.argv.slice(2);
const flag = args.indexOf('--max-runs');
const maxRuns = flag >= 0 ? Number(args[flag + 1]) : DEFAULT_MAX_RUNS;
const outDir = args.find((a, i) => !a.startsWith('--') && i !== flag + 1) ?? join(dirname(fileURLToPath(import.meta.url)), 'out', 'history-10k');

function generate(): LoadedRecord[] {
  const u = rng(42);
  const z = normals(u);
  const level = { js: 4, go: 1.3, rs: 1 } as const;
  const out: LoadedRecord[] = [];
  const t0 = Date.UTC(2025, 0, 1);
  for (let run = 0; run < RUNS; run++) {
    const branch = run % 10 === 9 ? 'dev' : 'main';
    const sha = (run * 2654435761 + 0x1234567).toString(16).padStart(8, '0').slice(-8).repeat(5);
    const commitTime = new Date(t0 + run * 3_600_000).toISOString();
    for (const runner of RUNNERS) {
      const started = new Date(t0 + run * 3_600_000 + 60_000).toISOString();
      const cases: RecordCase[] = [];
      for (let c = 0; c < CASES; c++) {
        // A 10% step every 2,000 runs on a few cases, so shift detection has something to find.
        const step = c % 3 === 0 ? 1 + 0.1 * Math.floor(run / 2000) : 1;
        const ops = runner === 'js' ? 100 : 1000;
        const center = 1e4 * (c + 1) * level[runner] * ops * step;
        const samples = Array.from({ length: SAMPLES }, () => Math.round(center * Math.exp(0.02 * z())));
        cases.push({
          id: `cpu.bench.case-${String(c).padStart(2, '0')}`,
          kind: 'cpu',
          label: 'quick',
          param: { label: 'quick', count: ops },
          status: 'ok',
          n: SAMPLES,
          median_ns: median(samples),
          min_ns: min(samples),
          max_ns: max(samples),
          mad_ns: madRaw(samples),
          samples_ns: samples,
          work: { ops },
          peak_rss_bytes: 100 << 20,
        });
      }
      const record: HistoryRecord = {
        schema: RECORD_SCHEMA_ID,
        commit: { sha, message: `change ${run}\n\ndetails`, author: 'bench', timestamp: commitTime, url: `https://example.com/commit/${sha}` },
        branch,
        event: 'push',
        run: { id: String(5_000_000 + run), url: `https://example.com/runs/${5_000_000 + run}` },
        runner,
        client: { name: `bee-${runner}`, version: '1.0.0', source: 'registry' },
        host: { os: 'linux', arch: 'x64', cpu_model: 'bench cpu', cpus: 2, mem_mb: 7940, runtime: runner },
        bee: null,
        spec: { hash: 'ab'.repeat(32), profile: 'quick' },
        started_at: started,
        finished_at: started,
        cases,
      };
      out.push({ path: recordPath(record), record });
    }
  }
  return out;
}

const time = <T>(f: () => T): [T, number] => {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
};

const [records, genMs] = time(generate);
const set = { records, invalid: [] };
console.log(`generated ${records.length} records (${RUNS} runs x ${RUNNERS.length} runners x ${CASES} cases = 30 series) in ${genMs.toFixed(0)} ms`);

const runs: number[] = [];
let files = new Map<string, string>();
for (let i = 0; i < 3; i++) {
  const [f, ms] = time(() => derive(set, { maxRuns }));
  files = f;
  runs.push(ms);
}
const best = Math.min(...runs);
const [, objMs] = time(() => deriveHistory(set, { maxRuns }));
const [, allMs] = time(() => renderDerived(deriveHistory(set, { maxRuns: RUNS })));
const bytes = [...files.values()].reduce((s, t) => s + t.length, 0);
const index = JSON.parse(files.get('index.json')!);
const shifts = [...files.entries()].filter(([p]) => p.startsWith('series/')).reduce((s, [, t]) => s + (t.match(/"shift":/g)?.length ?? 0), 0);
console.log(`derive (maxRuns ${maxRuns}): best ${best.toFixed(0)} ms of ${runs.map((r) => r.toFixed(0)).join(', ')} (objects only ${objMs.toFixed(0)} ms); bar ${BAR_MS} ms: ${best < BAR_MS ? 'PASS' : 'FAIL'}`);
console.log(`derive without retention (maxRuns ${RUNS}): ${allMs.toFixed(0)} ms`);
console.log(`derived: ${files.size} files, ${(bytes / 1e6).toFixed(2)} MB (index.json ${(files.get('index.json')!.length / 1e3).toFixed(1)} kB, ${index.scoreboard.length} scoreboard entries, ${shifts} shift markers kept)`);

const [, writeMs] = time(() => {
  rmSync(outDir, { recursive: true, force: true });
  const made = new Set<string>();
  for (const { path, record } of records) {
    const abs = join(outDir, path);
    const dir = dirname(abs);
    if (!made.has(dir)) mkdirSync(dir, { recursive: true });
    made.add(dir);
    writeFileSync(abs, serializeRecord(record));
  }
});
await writeDerived(outDir, files);
writeFileSync(join(outDir, 'bench-info.json'), `${JSON.stringify({ runs: RUNS, records: records.length, series: 30, maxRuns }, null, 2)}\n`);
const [reread, readMs] = time(() => readRecords(outDir));
const [again, rederiveMs] = time(() => derive(reread, { maxRuns }));
const same = [...files].every(([p, t]) => again.get(p) === t) && again.size === files.size;
console.log(`wrote ${outDir}: records in ${writeMs.toFixed(0)} ms; read + validate back ${readMs.toFixed(0)} ms (${reread.invalid.length} invalid); re-derived ${rederiveMs.toFixed(0)} ms, identical: ${same}`);
if (best >= BAR_MS || !same) process.exitCode = 1;
