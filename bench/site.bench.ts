// The trend site's first view against a big history, in headless Chromium: time until the first
// chart has painted and bytes transferred until the overview is ready (cold cache), then the
// time to open one case view of that history (for information).
// Bars: first chart < 1.5 s, <= 2 MB at first view.
// Run: npx tsx bench/site.bench.ts [historyDir]
//   historyDir defaults to bench/out/history-10k (the history bench's output: 10,000 runs x 30
//   series, derived by src/history with its retention) when it exists, else (or when the argument
//   is "synthetic") a synthetic history of that size written to bench/out/history-synthetic-10k
//   (reused on later runs). The synthetic one keeps every point in the series files (10,000 per
//   series: a stress test of the case view) and, like src/history's retention, the latest 200
//   scoreboard entries per branch.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bigHistory, writeHistory } from '../test/pages/fixture.js';
import { launch, serveSite } from '../test/pages/harness.js';
import { median, mib, openCold, total, viewReady as whenReady } from './site-measure.js';

const ROOT = resolve(import.meta.dirname, '..');
const BAR_FIRST_CHART_MS = 1500;
const BAR_FIRST_VIEW_BYTES = 2 * 1024 * 1024;
const ROUNDS = 5;

function pickHistory(): string {
  const arg = process.argv[2];
  if (arg && arg !== 'synthetic') return resolve(arg);
  const real = join(ROOT, 'bench/out/history-10k');
  if (!arg && existsSync(join(real, 'index.json'))) return real;
  const synth = join(ROOT, 'bench/out/history-synthetic-10k');
  if (!existsSync(join(synth, 'index.json'))) {
    const t0 = performance.now();
    writeHistory(synth, bigHistory({ runs: 10_000, cases: 10, scoreboardMax: 200 }));
    console.log(`wrote a synthetic history (10,000 runs x 30 series) to ${synth} in ${((performance.now() - t0) / 1e3).toFixed(1)} s`);
  }
  return synth;
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}

execFileSync(process.execPath, [join(ROOT, 'pages/build.mjs')], { stdio: 'inherit' });
const historyDir = pickHistory();
const srv = await serveSite(join(ROOT, 'pages/dist'), historyDir);
const browser = await launch();

const firstChart: number[] = [];
const viewReady: number[] = [];
const bytes: number[] = [];
const caseOpen: number[] = [];
let perFile = new Map<string, number>();
let caseId = '';
let caseBytes = 0;
try {
  for (let round = 0; round < ROUNDS; round++) {
    const { page, sizes } = await openCold(browser, srv.url);
    const marks = await whenReady(page, 'overview');
    const m = { ...marks, firstCase: (await page.locator('a.case-link').first().textContent()) ?? '' };
    firstChart.push(m.chart);
    viewReady.push(m.ready);
    bytes.push(total(sizes));
    perFile = new Map(sizes);
    caseId = m.firstCase;

    // Open the first case (its series file is the big one) from the overview.
    const before = new Set(sizes.keys());
    const t = await page.evaluate(() => {
      performance.clearMarks('bee-bench:view-ready');
      const t0 = performance.now();
      document.querySelector<HTMLAnchorElement>('a.case-link')!.click();
      return t0;
    });
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.body.dataset.view === 'case', undefined, { timeout: 120_000 });
    const done = await page.evaluate(() => performance.getEntriesByName('bee-bench:view-ready')[0]?.startTime ?? NaN);
    caseOpen.push(done - t);
    caseBytes = [...sizes.entries()].filter(([k]) => !before.has(k)).reduce((a, [, v]) => a + v, 0);
    await page.close();
  }
} finally {
  await browser.close();
  await srv.close();
}

const fc = median(firstChart);
const by = median(bytes);
console.log(`history: ${historyDir} (${mib(dirBytes(historyDir))} on disk)`);
console.log(`first view, cold cache, median of ${ROUNDS}:`);
console.log(`  first chart painted   ${fc.toFixed(0)} ms   (bar < ${BAR_FIRST_CHART_MS} ms)   runs: ${firstChart.map((x) => x.toFixed(0)).join(', ')}`);
console.log(`  overview ready        ${median(viewReady).toFixed(0)} ms`);
console.log(`  bytes transferred     ${mib(by)} (${by} B)   (bar <= ${mib(BAR_FIRST_VIEW_BYTES)})`);
for (const [u, n] of [...perFile.entries()].sort((a, b) => b[1] - a[1])) console.log(`    ${u.padEnd(40)} ${(n / 1024).toFixed(1).padStart(9)} KiB`);
console.log(`case view ${caseId} (lazy series file ${mib(caseBytes)}): ready ${median(caseOpen).toFixed(0)} ms after the click (median of ${ROUNDS})`);
const ok = fc < BAR_FIRST_CHART_MS && by <= BAR_FIRST_VIEW_BYTES;
console.log(ok ? 'PASS: both bars met' : 'FAIL: a bar was missed');
process.exitCode = ok ? 0 : 1;
