// Times the release experiment's analysis on a journal the size of Swarm's full study run side by
// side: 6 sizes × (level 0 + levels 1-4 × DATA, RACE) × 3 servers per release × 2 releases × 30
// replicates = 9,720 units, with failed attempts on top: over 10,000 download rows. Measured:
// reading the journal (streamed) + the analysis, and the whole report (md, csv, html with the chart
// bundle already built, json). Bar: the read + analysis under 2 s.
// Run: npx tsx bench/experiment-analysis.bench.ts
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { analyse } from '../src/experiment/analysis/analyse.js';
import { readJournal } from '../src/experiment/analysis/read.js';
import { experimentChartsSource } from '../src/experiment/report/bundle.js';
import { experimentReport } from '../src/experiment/report/index.js';
import { syntheticRows, writeJournal } from '../test/experiment/synthetic-journal.js';

const BAR_MS = 2000;
const dir = mkdtempSync(join(tmpdir(), 'bee-bench-exp-bench-'));
try {
  const rows = syntheticRows({
    sizes: [1e3, 1e4, 1e5, 1e6, 1e7, 5e7],
    levels: [0, 1, 2, 3, 4],
    strategies: ['DATA', 'RACE'],
    nodes: ['1', '2', '3'].flatMap((s) => [
      { label: `a${s}`, release: '2.7.0' },
      { label: `b${s}`, release: '2.8.0' },
    ]),
    replicates: 30,
    attempts: 15,
    base: (size) => 0.05 + size / 2e6,
    factor: (r, size) => (r === '2.8.0' && size >= 1e7 ? 1.3 : 1),
    failures: (r, size, level, st, rep) => (rep % 10 === 0 ? 1 : size === 5e7 && level === 2 && st === 'DATA' && rep <= 2 ? 15 : 0),
  });
  const file = join(dir, 'journal.jsonl');
  writeJournal(file, rows);
  const downloads = rows.filter((r) => r.type === 'download').length;
  await experimentChartsSource(); // bundle once, outside the timing

  const times: number[] = [];
  let units = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const a = analyse([await readJournal(file)]);
    times.push(performance.now() - t0);
    units = a.totals.units;
  }
  const t1 = performance.now();
  await experimentReport({ journals: [file], out: join(dir, 'report') });
  const reportMs = performance.now() - t1;
  times.sort((a, b) => a - b);
  const median = times[2]!;
  console.log(
    `journal: ${rows.length} rows (${downloads} download rows, ${units} units), ${(statSync(file).size / 1e6).toFixed(1)} MB\n` +
      `read + analyse: median ${median.toFixed(0)} ms of 5 (min ${times[0]!.toFixed(0)}, max ${times[4]!.toFixed(0)}); bar ${BAR_MS} ms\n` +
      `whole report (md, csv, html, json): ${reportMs.toFixed(0)} ms`,
  );
  if (median > BAR_MS) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
