// The trend site at scale, derived by src/history (not a hand-made fixture), in headless Chromium:
//  1. 10,000 runs over 400 branches (3 of 5 runs on main, the rest 25-run feature branches):
//     first-view bytes and first-chart time with the default branch retention, and with every
//     branch kept (what derive did before retention).
//  2. 10,000 runs on main, derived with --max-runs 10000: a case view of 10,000 points per
//     runner, from the click to the chart painted, and the paint alone (series file received ->
//     first chart).
// Bars: first view <= 2 MiB and first chart < 1.5 s; the 10,000-point case view paints < 1 s.
// Run: npx tsx bench/site-scale.bench.ts   (writes derived files to bench/out/scale-*; ~2 min)
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { derive, type DeriveOptions } from '../src/history/derive.js';
import { writeDerived } from '../src/history/store.js';
import { launch, serveSite } from '../test/pages/harness.js';
import { generateRecords } from './history-records.js';
import { median, mib, openCold, total, viewReady } from './site-measure.js';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = 10_000;
const ROUNDS = 3;
const BAR_FIRST_VIEW_BYTES = 2 * 1024 * 1024;
const BAR_FIRST_CHART_MS = 1500;
const BAR_CASE_PAINT_MS = 1000;

async function writeHistory(name: string, branchOf: (run: number) => string, opts: DeriveOptions): Promise<string> {
  const dir = join(ROOT, 'bench/out', name);
  rmSync(dir, { recursive: true, force: true });
  const records = generateRecords({ runs: RUNS, cases: 10, samples: 5, branchOf });
  await writeDerived(dir, derive({ records, invalid: [] }, opts));
  return dir;
}

execFileSync(process.execPath, [join(ROOT, 'pages/build.mjs')], { stdio: 'inherit' });
const feature = (run: number) => (run % 5 < 3 ? 'main' : `feature/topic-${String(Math.floor(run / 25) % 400).padStart(3, '0')}`);
const histories = {
  retained: await writeHistory('scale-400-branches', feature, {}),
  everyBranch: await writeHistory('scale-400-branches-all', feature, {
    branches: { maxBranches: Number.MAX_SAFE_INTEGER, activeDays: Number.MAX_SAFE_INTEGER },
  }),
  long: await writeHistory('scale-10k-points', () => 'main', { maxRuns: RUNS }),
};
const browser = await launch();
let ok = true;
try {
  for (const [name, dir] of [
    ['default branch retention', histories.retained],
    ['every branch kept (before)', histories.everyBranch],
  ] as const) {
    const srv = await serveSite(join(ROOT, 'pages/dist'), dir);
    const charts: number[] = [];
    const bytes: number[] = [];
    let index = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const { page, sizes } = await openCold(browser, srv.url);
      charts.push((await viewReady(page, 'overview')).chart);
      bytes.push(total(sizes));
      index = sizes.get('/index.json') ?? 0;
      await page.close();
    }
    await srv.close();
    const pass = median(bytes) <= BAR_FIRST_VIEW_BYTES && median(charts) < BAR_FIRST_CHART_MS;
    if (name.startsWith('default')) ok &&= pass;
    console.log(
      `400 branches, ${name}: first view ${mib(median(bytes))} (index.json ${mib(index)}), first chart ${median(charts).toFixed(0)} ms (runs ${charts.map((c) => c.toFixed(0)).join(', ')})${name.startsWith('default') ? (pass ? '  PASS' : '  FAIL') : ''}`,
    );
  }

  const srv = await serveSite(join(ROOT, 'pages/dist'), histories.long);
  const clickToChart: number[] = [];
  const paint: number[] = [];
  let seriesBytes = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const { page, sizes } = await openCold(browser, srv.url);
    await viewReady(page, 'overview');
    const t0 = await page.evaluate(() => {
      performance.clearMarks('bee-bench:first-chart');
      const t = performance.now();
      document.querySelector<HTMLAnchorElement>('a.case-link')!.click();
      return t;
    });
    const { chart } = await viewReady(page, 'case');
    const received = await page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/series/'))
          .map((e) => (e as PerformanceResourceTiming).responseEnd)
          .at(-1) ?? NaN,
    );
    clickToChart.push(chart - t0);
    paint.push(chart - received);
    seriesBytes = [...sizes].filter(([k]) => k.includes('/series/')).reduce((a, [, v]) => a + v, 0);
    await page.close();
  }
  await srv.close();
  const pass = median(paint) < BAR_CASE_PAINT_MS;
  ok &&= pass;
  console.log(
    `case view, 10,000 points per runner (series file ${mib(seriesBytes)}): click -> chart ${median(clickToChart).toFixed(0)} ms, paint (file received -> chart) ${median(paint).toFixed(0)} ms (runs ${paint.map((p) => p.toFixed(0)).join(', ')})  ${pass ? 'PASS' : 'FAIL'}`,
  );
} finally {
  await browser.close();
}
console.log(ok ? 'PASS: all bars met' : 'FAIL: a bar was missed');
process.exitCode = ok ? 0 : 1;
