// The trend site in a real browser: headless Chromium (Debian's /usr/bin/chromium) via
// playwright-core, the built pages/dist/ and a hand-made history served from 127.0.0.1.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SeriesPoint } from '../../src/history/schema.js';
import { csvRecords } from '../fixtures/csv.js';
import {
  FEATURE_BRANCH,
  GO_SHIFT_RUN,
  INVALID_PROBLEM,
  JS_URL_RUN,
  JS_VERSION_RUN,
  MAIN_RUNS,
  smallHistory,
  writeHistory,
  XSS_AUTHOR,
  XSS_MESSAGE,
  XSS_RUN,
} from './fixture.js';
import { servedSite } from './suite.js';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'bench/out');
const CASE = 'cpu.keccak.chunk-hash';

const history = smallHistory();
const site = servedSite(() => {
  const dir = mkdtempSync(join(tmpdir(), 'bee-bench-history-'));
  writeHistory(dir, history);
  return dir;
});
const problems: string[] = [];

interface ChartView {
  labels: string[];
  counts: number[];
  visible: boolean[];
  xs: number[][];
  ys: number[][];
  styles: unknown[][];
  xMin: number;
  xMax: number;
  yType: string;
}

async function charts(page: Page, selector: string): Promise<ChartView[]> {
  return page.evaluate((sel) => {
    return Array.from(document.querySelectorAll<HTMLCanvasElement>(sel)).map((canvas) => {
      const ch = window.beeBench!.getChart(canvas)!;
      const ds = ch.data.datasets as Array<{ label?: string; data: Array<{ x: number; y: number }>; pointStyle?: unknown }>;
      return {
        labels: ds.map((d) => d.label ?? ''),
        counts: ds.map((d) => d.data.length),
        visible: ds.map((_d, i) => ch.isDatasetVisible(i)),
        xs: ds.map((d) => d.data.map((p) => p.x)),
        ys: ds.map((d) => d.data.map((p) => p.y)),
        styles: ds.map((_d, i) => ch.getDatasetMeta(i).data.map((e) => (e as unknown as { options: { pointStyle: unknown } }).options.pointStyle)),
        xMin: ch.scales.x!.min,
        xMax: ch.scales.x!.max,
        yType: ch.scales.y!.type,
      };
    });
  }, selector);
}

const caseCharts = (page: Page) => charts(page, 'figure.chart-card canvas');
const scoreChart = async (page: Page) => (await charts(page, '.scoreboard canvas'))[0]!;

/** The overview's link to a case (its text is split into segments that wrap at dots). */
const caseLink = (page: Page, id: string) => page.getByRole('link', { name: id, exact: true });

async function renderCount(page: Page): Promise<number> {
  return page.evaluate(() => Number(document.body.dataset.render ?? 0));
}

/** Wait until a render newer than `after` has finished. */
async function rendered(page: Page, after: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.body.dataset.render ?? 0) > n && document.body.dataset.state !== 'loading', after);
}

/** Where point `idx` of the first series of the first case chart is, in page coordinates. */
async function pointOnPage(page: Page, idx: number): Promise<{ x: number; y: number }> {
  return page.evaluate((i) => {
    const canvas = document.querySelector<HTMLCanvasElement>('figure.chart-card canvas')!;
    const ch = window.beeBench!.getChart(canvas)! as unknown as { getDatasetMeta(i: number): { data: Array<{ x: number; y: number }> } };
    const el = ch.getDatasetMeta(0).data[i]!;
    const r = canvas.getBoundingClientRect();
    return { x: r.left + el.x, y: r.top + el.y };
  }, idx);
}

async function open(hash = ''): Promise<Page> {
  const page = await site.browser.context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(site.srv.url + hash);
  await rendered(page, 0);
  return page;
}

function points(branch: string, label: string, runner: string): SeriesPoint[] {
  const f = history.files.get(`series/${CASE}.json`)!;
  return f.series.find((s) => s.label === label && s.runner === runner)!.points.filter((p) => p.branch === branch);
}

async function downloadText(page: Page, button: string): Promise<string> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return readFileSync((await dl.path())!, 'utf8');
}

describe('trend site', () => {
  it('opens on the overview from index.json alone: one sparkline per case x param x runner, no series file', async () => {
    const page = await open();
    const expected = history.index.cases.reduce((n, c) => n + c.series.filter((s) => s.latest.main).length, 0);
    expect(await page.locator('svg.spark').count()).toBe(expected);
    expect(await page.locator('section.group h3').allTextContents()).toEqual(['Harness', 'CPU (no network)', 'Network upload']);
    // Latest figure of bee-rs chunk-hash "10000 chunks" is MB/s, from the index's latest entry.
    const l = history.index.cases.find((c) => c.id === CASE)!.series.find((s) => s.runner === 'rs' && s.label === '10000 chunks')!.latest.main!;
    const mbps = ((l.bytes! / l.median_ns) * 1e3).toPrecision(3);
    await expect.poll(() => page.locator('table.cases td.cell .value').allTextContents()).toContain(`${mbps} MB/s`);
    // Its change in the report's words: the index holds time per unit (latest / previous - 1), so
    // more time is "slower" (and coloured worse) whatever the MB/s figure beside it does.
    const pct = (Math.abs(l.change!) * 100).toFixed(1);
    const cell = page.locator('tr', { hasText: '10000 chunks' }).locator('td.cell').nth(2);
    const change = cell.locator('.change');
    expect(await change.textContent()).toBe(pct === '0.0' ? 'no change' : `${pct}% ${l.change! > 0 ? 'slower' : 'faster'}`);
    expect(await change.getAttribute('class')).toBe(`change ${pct === '0.0' ? 'same' : l.change! > 0 ? 'worse' : 'better'}`);
    expect(site.srv.requests.filter((p) => p.startsWith('/series/'))).toEqual([]);
    expect(site.srv.requests).toContain('/index.json');
    await page.close();
  });

  it('draws the scoreboard now (latest entry) and over time (one point per run and runner)', async () => {
    const page = await open();
    const main = history.index.scoreboard.filter((e) => e.branch === 'main');
    const sc = await scoreChart(page);
    expect(sc.labels).toEqual(['bee-js', 'bee-go', 'bee-rs']);
    expect(sc.counts).toEqual(['js', 'go', 'rs'].map((r) => main.filter((e) => e.geomean[r as 'js'] !== undefined).length));
    const rows = await page.locator('.score-table tbody tr').allTextContents();
    expect(rows[0]).toMatch(/^bee-rs1\.00x/);
    expect(rows).toHaveLength(3);
    await page.close();
  });

  it('the branch selector filters points: overview and case view show only the chosen branch', async () => {
    const page = await open();
    expect(await page.locator('#branch option').allTextContents()).toEqual(['main', FEATURE_BRANCH]);
    let n = await renderCount(page);
    await page.selectOption('#branch', FEATURE_BRANCH);
    await rendered(page, n);
    const feature = history.index.scoreboard.filter((e) => e.branch === FEATURE_BRANCH);
    expect((await scoreChart(page)).counts).toEqual(['js', 'go', 'rs'].map((r) => feature.filter((e) => e.geomean[r as 'js'] !== undefined).length));
    // net.bzz.upload's bee-rs ran on main only: its cell is empty on the feature branch.
    const row = page.locator('tr', { has: page.locator('a', { hasText: 'net.bzz.upload' }) });
    expect(await row.locator('svg.spark').count()).toBe(2);

    n = await renderCount(page);
    await caseLink(page, CASE).click();
    await rendered(page, n);
    expect(await page.evaluate(() => location.hash)).toContain(`branch=${encodeURIComponent(FEATURE_BRANCH)}`);
    const cs = await caseCharts(page);
    expect(cs).toHaveLength(2);
    for (const [i, label] of ['10000 chunks', 'quick'].entries()) {
      expect(cs[i]!.counts).toEqual(['js', 'go', 'rs'].map((r) => points(FEATURE_BRANCH, label, r).length));
      expect(cs[i]!.xs[0]).toEqual(points(FEATURE_BRANCH, label, 'js').map((p) => Date.parse(p.timestamp)));
    }
    n = await renderCount(page);
    await page.selectOption('#branch', 'main');
    await rendered(page, n);
    expect((await caseCharts(page))[0]!.counts).toEqual([MAIN_RUNS, MAIN_RUNS, MAIN_RUNS]);
    await page.close();
  });

  it('case view: one chart per label, one line per runner, values per basis, shift and version markers', async () => {
    const page = await open(`#view=case&case=${CASE}`);
    expect(await page.locator('figure.chart-card figcaption .label').allTextContents()).toEqual(['10000 chunks', 'quick']);
    const [first] = await caseCharts(page);
    expect(first!.labels).toEqual(['bee-js', 'bee-go', 'bee-rs']);
    expect(first!.counts).toEqual([MAIN_RUNS, MAIN_RUNS, MAIN_RUNS]);
    const rs = points('main', '10000 chunks', 'rs');
    expect(first!.ys[2]).toEqual(rs.map((p) => p.bytes! / p.median_ns));
    expect(first!.styles[1]![GO_SHIFT_RUN]).toBe('star');
    expect(first!.styles[0]![JS_VERSION_RUN]).toBe('rectRot');
    expect(first!.styles[2]!.filter((s) => s === 'star' || s === 'rectRot')).toEqual([]);
    // Lazy: exactly this case's series file was fetched.
    expect(site.srv.requests.filter((p) => p.startsWith('/series/'))).toContain(`/series/${CASE}.json`);
    await page.close();
  });

  it("case view: times per op in the report's unit of the case (µs/sign), in the axis, the table and the tooltip", async () => {
    const page = await open('#view=case&case=cpu.ecdsa.sign');
    expect(await page.locator('p.meta').first().textContent()).toContain('Time per sign (lower is better)');
    const card = page.locator('figure.chart-card').first();
    await card.locator('details.data-table summary').click();
    // The table is filled when its details open: wait for its cells, as the other table test does.
    await expect.poll(() => card.locator('table.points td.num').count()).toBeGreaterThan(0);
    const values = await card.locator('table.points td.num').allTextContents();
    for (const v of values) expect(v).toMatch(/^[\d.]+ (ns|µs|ms|s)\/sign$/);
    const axis = await page.evaluate(() => {
      const ch = window.beeBench!.getChart(document.querySelector<HTMLCanvasElement>('figure.chart-card canvas')!)! as unknown as {
        options: { scales: { y: { title: { text: string }; ticks: { callback(this: unknown, v: number): string } } } };
        scales: { y: { max: number; type: string } };
      };
      const y = ch.options.scales.y;
      return { title: y.title.text, tick: y.ticks.callback.call(ch.scales.y, ch.scales.y.max) };
    });
    expect(axis.title).toBe('Time per sign (lower is better)');
    expect(axis.tick).toMatch(/\/sign$/);
    const at = await pointOnPage(page, 2);
    await page.mouse.move(at.x, at.y);
    const tip = card.locator('.tooltip');
    await expect.poll(() => tip.isVisible()).toBe(true);
    expect(await tip.locator('.tt-value').textContent()).toMatch(/^[\d.]+ (ns|µs|ms|s)\/sign$/);
    await page.close();
  });

  it('zoom by Ctrl + mouse wheel narrows the x range of every chart and the permalink; reset restores it', async () => {
    const page = await open(`#view=case&case=${CASE}`);
    const before = await caseCharts(page);
    const box = (await page.locator('figure.chart-card canvas').first().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -600);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => location.hash.includes('from='));
    const after = await caseCharts(page);
    for (const [i, c] of after.entries()) {
      expect(c.xMin).toBeGreaterThan(before[i]!.xMin);
      expect(c.xMax).toBeLessThan(before[i]!.xMax);
    }
    expect(Math.round(after[1]!.xMin)).toBe(Math.round(after[0]!.xMin));
    expect(await page.locator('#reset-zoom').isEnabled()).toBe(true);
    await page.click('#reset-zoom');
    const reset = await caseCharts(page);
    for (const [i, c] of reset.entries()) {
      expect(c.xMin).toBe(before[i]!.xMin);
      expect(c.xMax).toBe(before[i]!.xMax);
    }
    expect(await page.evaluate(() => location.hash)).not.toContain('from=');
    expect(await page.locator('#reset-zoom').isEnabled()).toBe(false);
    await page.close();
  });

  it('zoom by the plugin API and by dragging a range also change the scale', async () => {
    const page = await open(`#view=case&case=${CASE}`);
    const before = (await caseCharts(page))[0]!;
    const box = (await page.locator('figure.chart-card canvas').first().boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.5, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(() => location.hash.includes('from='));
    const dragged = (await caseCharts(page))[0]!;
    expect(dragged.xMin).toBeGreaterThan(before.xMin);
    expect(dragged.xMax).toBeLessThan(before.xMax);
    await page.evaluate(() => {
      const ch = window.beeBench!.getChart(document.querySelector<HTMLCanvasElement>('figure.chart-card canvas')!)! as unknown as { zoom(n: number): void };
      ch.zoom(1.5);
    });
    const api = (await caseCharts(page))[0]!;
    expect(api.xMax - api.xMin).toBeLessThan(dragged.xMax - dragged.xMin);
    await page.close();
  });

  it('the log toggle switches the y scale type and is kept in the URL', async () => {
    const page = await open(`#view=case&case=${CASE}`);
    expect((await caseCharts(page)).map((c) => c.yType)).toEqual(['linear', 'linear']);
    await page.check('#log-scale');
    expect((await caseCharts(page)).map((c) => c.yType)).toEqual(['logarithmic', 'logarithmic']);
    expect(await page.evaluate(() => location.hash)).toContain('log=1');
    await page.uncheck('#log-scale');
    expect((await caseCharts(page)).map((c) => c.yType)).toEqual(['linear', 'linear']);
    expect(await page.evaluate(() => location.hash)).not.toContain('log=1');
    await page.close();
  });

  it('charts a heap metric the points carry instead of time, and keeps it in the URL', async () => {
    const page = await open(`#view=case&case=${CASE}`);
    expect(await page.locator('#figure option').allTextContents()).toEqual(['Time', 'B/op']);
    const before = await renderCount(page);
    await page.selectOption('#figure', 'B/op');
    await rendered(page, before);
    expect(await page.evaluate(() => location.hash)).toContain('metric=B%2Fop');
    const cs = await caseCharts(page);
    const mainRuns = points('main', '10000 chunks', 'rs').length;
    // bee-js has no allocation figures: no line, rather than a line at zero.
    expect(cs[0]!.labels).toEqual(['bee-go', 'bee-rs']);
    expect(cs[0]!.counts).toEqual([mainRuns, mainRuns]);
    expect(new Set(cs[0]!.ys[0])).toEqual(new Set([15_672, 16_384]));
    expect(new Set(cs[0]!.ys[1])).toEqual(new Set([8160]));
    expect(await page.locator('p.meta').first().textContent()).toContain('Heap bytes per op (lower is better)');
    await page.close();
  });

  it('a permalink reload restores case, branch, log scale and zoom range', async () => {
    const feature = points(FEATURE_BRANCH, '10000 chunks', 'js').map((p) => Date.parse(p.timestamp));
    const from = feature[1]! - 3_600_000;
    const to = feature[3]! + 3_600_000;
    const q = new URLSearchParams({
      view: 'case',
      case: CASE,
      branch: FEATURE_BRANCH,
      log: '1',
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
    });
    const page = await open(`#${q}`);
    const check = async (): Promise<void> => {
      expect(await page.locator('#branch').inputValue()).toBe(FEATURE_BRANCH);
      expect(await page.locator('#log-scale').isChecked()).toBe(true);
      expect(await page.locator('h2').first().textContent()).toBe(CASE);
      const cs = await caseCharts(page);
      expect(cs.map((c) => c.yType)).toEqual(['logarithmic', 'logarithmic']);
      expect(cs[0]!.counts).toEqual([4, 4, 4]);
      expect(cs[0]!.xMin).toBe(from);
      expect(cs[0]!.xMax).toBe(to);
    };
    await check();
    await page.reload();
    await rendered(page, 0);
    await check();
    await page.close();
  });

  it('CSV and JSON downloads hold exactly the points shown (branch, visible runners, zoomed range)', async () => {
    const main = points('main', '10000 chunks', 'js').map((p) => Date.parse(p.timestamp));
    const from = main[2]! - 60_000;
    const to = main[8]! + 60_000;
    const q = new URLSearchParams({ view: 'case', case: CASE, branch: 'main', from: new Date(from).toISOString(), to: new Date(to).toISOString() });
    const page = await open(`#${q}`);
    // Hide bee-go in the first chart by clicking its legend entry.
    const legendAt = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('figure.chart-card canvas')!;
      const ch = window.beeBench!.getChart(canvas)! as unknown as {
        legend: { legendHitBoxes: Array<{ left: number; top: number; width: number; height: number }> };
      };
      const hit = ch.legend.legendHitBoxes[1]!;
      const r = canvas.getBoundingClientRect();
      return { x: r.left + hit.left + hit.width / 2, y: r.top + hit.top + hit.height / 2 };
    });
    await page.mouse.click(legendAt.x, legendAt.y);
    await expect.poll(async () => (await caseCharts(page))[0]!.visible).toEqual([true, false, true]);
    const cs = await caseCharts(page);
    expect(cs[0]!.visible).toEqual([true, false, true]);

    // What the charts show, read from Chart.js itself.
    const shown: string[] = [];
    for (const [ci, c] of cs.entries()) {
      const label = ['10000 chunks', 'quick'][ci]!;
      c.xs.forEach((xs, di) => {
        if (!c.visible[di]) return;
        xs.forEach((x, pi) => {
          if (x >= c.xMin && x <= c.xMax) shown.push(`${label}|${c.labels[di]}|${new Date(x).toISOString()}|${c.ys[di]![pi]! * 1e3}`);
        });
      });
    }
    // ... and what the history says should be there.
    const expected: string[] = [];
    for (const label of ['10000 chunks', 'quick']) {
      for (const r of ['js', 'go', 'rs']) {
        if (label === '10000 chunks' && r === 'go') continue;
        for (const p of points('main', label, r)) {
          const x = Date.parse(p.timestamp);
          if (x >= from && x <= to) expected.push(`${label}|bee-${r}|${p.timestamp}|${(p.bytes! / p.median_ns) * 1e3}`);
        }
      }
    }
    expect(shown.sort()).toEqual(expected.sort());
    expect(shown).toHaveLength(7 * 5);

    const csv = csvRecords(await downloadText(page, '#download-csv'), 'lf');
    const json = JSON.parse(await downloadText(page, '#download-json')) as {
      case: string;
      branch: string;
      unit: string;
      from: string;
      to: string;
      rows: Array<Record<string, unknown>>;
    };
    // CSV/JSON carry MB/s (bytes/ns x 1000), the chart bytes/ns.
    const key = (r: Record<string, unknown>): string => `${String(r.label)}|bee-${String(r.runner)}|${String(r.timestamp)}|${Number(r.value)}`;
    expect(csv.map(key).sort()).toEqual(shown.sort());
    expect(json.rows.map(key).sort()).toEqual(shown.sort());
    expect(json).toMatchObject({ case: CASE, branch: 'main', unit: 'MB/s', from: new Date(from).toISOString(), to: new Date(to).toISOString() });
    expect(csv.every((r) => r.unit === 'MB/s' && r.branch === 'main')).toBe(true);
    // The XSS run is inside the range: its message is a plain field (first line only), not markup.
    const xssRow = csv.find((r) => r.timestamp === points('main', 'quick', 'js')[XSS_RUN]!.timestamp && r.runner === 'js' && r.label === 'quick')!;
    expect(xssRow.message).toBe(XSS_MESSAGE.split('\n')[0]);
    await page.close();
  });

  it('commit messages, authors, labels and branch names are text: the tooltip shows them and nothing runs', async () => {
    const page = await open(`#view=case&case=${CASE}`);
    const at = await pointOnPage(page, XSS_RUN);
    await page.mouse.move(at.x, at.y);
    const tip = page.locator('figure.chart-card').first().locator('.tooltip');
    await expect.poll(() => tip.isVisible()).toBe(true);
    const text = (await tip.textContent()) ?? '';
    expect(text).toContain('<img src=x onerror="window.__xss=1">');
    expect(text).toContain('<script>window.__xss=2</script>');
    expect(text).not.toContain('Second line');
    expect(text).toContain(XSS_AUTHOR);
    expect(await tip.locator('img, script, b, i').count()).toBe(0);
    // Pin it: the commit link is a real https link.
    await page.mouse.click(at.x, at.y);
    await expect.poll(() => tip.evaluate((n) => n.classList.contains('pinned'))).toBe(true);
    const href = await tip.locator('a.sha').getAttribute('href');
    expect(href).toMatch(/^https:\/\/github\.com\//);
    await page.keyboard.press('Escape');
    await expect.poll(() => tip.isHidden()).toBe(true);

    // The run whose url is javascript: gets no link at all.
    const at3 = await pointOnPage(page, JS_URL_RUN);
    await page.mouse.click(at3.x, at3.y);
    // Wait for this run's tooltip (its sha is plain text), not the previous one still in the DOM.
    await expect.poll(() => tip.locator('span.sha').count()).toBe(1);
    expect(await tip.locator('a').count()).toBe(0);
    await page.keyboard.press('Escape');

    // The data table carries the same text.
    await page.locator('details.data-table summary').first().click();
    const table = page.locator('details.data-table').first();
    await expect.poll(() => table.locator('td.msg').count()).toBeGreaterThan(0);
    expect(await table.locator('td.msg').allTextContents()).toContain(XSS_MESSAGE.split('\n')[0]);
    expect(await table.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.locator('main img, main script').count()).toBe(0);
    // Labels and branch names: text in the overview.
    const n = await renderCount(page);
    await page.selectOption('#branch', FEATURE_BRANCH);
    await rendered(page, n);
    await page.click('nav.crumbs a');
    await page.waitForSelector('table.cases');
    expect(await page.locator('td.label').allTextContents()).toContain('<i>quick</i>');
    // Records that failed validation are listed, as text.
    expect(await page.locator('details.notice summary').textContent()).toContain('1 history record failed validation');
    expect(await page.locator('details.notice li').textContent()).toContain(INVALID_PROBLEM);
    expect(await page.locator('main i, header i, main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    await page.close();
  });

  it('an unknown case in a permalink says so and links back', async () => {
    const page = await open('#view=case&case=cpu.nope&branch=no-such-branch');
    expect(await page.locator('main .error').textContent()).toContain('cpu.nope');
    expect(await page.locator('#branch').inputValue()).toBe('main');
    await page.close();
  });

  it('screenshots of the overview and a case view, light and dark (bench/out/)', async () => {
    mkdirSync(OUT, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await site.browser.context.pages()[0]?.emulateMedia({ colorScheme: scheme });
      const page = await open();
      await page.emulateMedia({ colorScheme: scheme });
      const n = await renderCount(page);
      await page.evaluate(() => window.dispatchEvent(new HashChangeEvent('hashchange')));
      await rendered(page, n);
      await page.screenshot({ path: join(OUT, `site-overview-${scheme}.png`), fullPage: true });
      const m = await renderCount(page);
      await caseLink(page, CASE).click();
      await rendered(page, m);
      const at = await pointOnPage(page, XSS_RUN);
      await page.mouse.click(at.x, at.y);
      await page.screenshot({ path: join(OUT, `site-case-${scheme}.png`), fullPage: true });
      await page.close();
    }
  });

  it('has a favicon the server serves (no 404 on every load)', async () => {
    const page = await open();
    const href = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel~="icon"]')?.href ?? null);
    expect(href).not.toBeNull();
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^image\//);
    await page.close();
  });

  it("the spec's `code` marks show as code on the case page and are dropped from the overview's tooltip, never as backticks", async () => {
    const page = await open();
    const title = await caseLink(page, CASE).getAttribute('title');
    expect(title).toBe('Content-address 4096-byte payloads through the chunk-address API (makeContentAddressedChunk).');
    await page.close();
    const caseView = await open(`#view=case&case=${CASE}`);
    expect(await caseView.locator('p.doc code').allTextContents()).toEqual(['makeContentAddressedChunk']);
    expect(await caseView.locator('p.doc').textContent()).not.toContain('`');
    await caseView.close();
  });

  it('case ids in the overview wrap at dots, never inside a word', async () => {
    const page = await open();
    // A case column narrower than the ids, as the longest real ids (cpu.bmt.encrypted-file-root) get.
    await page.evaluate(() => document.querySelectorAll<HTMLElement>('table.cases col.col-case').forEach((c) => (c.style.width = '7rem')));
    const breaks = await page.evaluate(() =>
      Array.from(document.querySelectorAll('a.case-link')).flatMap((a) => {
        // Characters whose box starts a new line: the character before each must be a dot.
        const chars: Array<{ ch: string; top: number }> = [];
        const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (let i = 0; i < n.textContent!.length; i++) {
            const r = document.createRange();
            r.setStart(n, i);
            r.setEnd(n, i + 1);
            chars.push({ ch: n.textContent![i]!, top: Math.round(r.getBoundingClientRect().top) });
          }
        }
        return chars.flatMap((c, i) => (i > 0 && c.top > chars[i - 1]!.top ? [`${a.textContent}: after "${chars[i - 1]!.ch}"`] : []));
      }),
    );
    expect(breaks.length).toBeGreaterThan(0); // the narrow page does wrap them
    expect(breaks.filter((b) => !b.endsWith('after "."'))).toEqual([]);
    await page.close();
  });

  it('no request left 127.0.0.1 and the pages logged no error (CSP included)', () => {
    expect(site.browser.external).toEqual([]);
    expect(problems).toEqual([]);
  });
});
