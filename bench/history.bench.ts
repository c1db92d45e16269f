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
import { serializeRecord } from '../src/history/record.js';
import { writeDerived } from '../src/history/store.js';
import { RUNNERS } from '../src/spec/schema.js';
import { generateRecords } from './history-records.js';

const RUNS = 10_000;
const CASES = 10;
const SAMPLES = 5;
const BAR_MS = 5_000;

const args = process.argv.slice(2);
const flag = args.indexOf('--max-runs');
const maxRuns = flag >= 0 ? Number(args[flag + 1]) : DEFAULT_MAX_RUNS;
const outDir =
  args.find((a, i) => !a.startsWith('--') && !(flag >= 0 && i === flag + 1)) ?? join(dirname(fileURLToPath(import.meta.url)), 'out', 'history-10k');

const time = <T>(f: () => T): [T, number] => {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
};

const [records, genMs] = time(() => generateRecords({ runs: RUNS, cases: CASES, samples: SAMPLES, branchOf: (run) => (run % 10 === 9 ? 'dev' : 'main') }));
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
console.log(
  `derive (maxRuns ${maxRuns}): best ${best.toFixed(0)} ms of ${runs.map((r) => r.toFixed(0)).join(', ')} (objects only ${objMs.toFixed(0)} ms); bar ${BAR_MS} ms: ${best < BAR_MS ? 'PASS' : 'FAIL'}`,
);
console.log(`derive without retention (maxRuns ${RUNS}): ${allMs.toFixed(0)} ms`);
console.log(
  `derived: ${files.size} files, ${(bytes / 1e6).toFixed(2)} MB (index.json ${(files.get('index.json')!.length / 1e3).toFixed(1)} kB, ${index.scoreboard.length} scoreboard entries, ${shifts} shift markers kept)`,
);

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
console.log(
  `wrote ${outDir}: records in ${writeMs.toFixed(0)} ms; read + validate back ${readMs.toFixed(0)} ms (${reread.invalid.length} invalid); re-derived ${rederiveMs.toFixed(0)} ms, identical: ${same}`,
);
if (best >= BAR_MS || !same) process.exitCode = 1;
