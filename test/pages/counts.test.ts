// Instruction counts on the trend site, in a real browser: records written the way a push run
// writes them (toRecord of results with counts), derived by src/history, served from 127.0.0.1 and
// opened in Chromium. A 1% step injected at one commit of 20 is marked at exactly that commit with
// its change, and nowhere else, while wall times wander by ±15%; a Go version change at one commit
// is marked as a toolchain change; the overview and the scoreboard switch to counts. Screenshots go
// to test-artifacts/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { derive } from '../../src/history/derive.js';
import { recordPath } from '../../src/history/record.js';
import type { HistoryRecord } from '../../src/history/schema.js';
import { countHistory, RUNTIMES } from '../history/helpers.js';
import { openRendered, writeHistoryFolder } from './harness.js';
import { servedSite } from './suite.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const CASE = 'cpu.keccak.chunk-hash';
const COMMITS = 20;
const STEP = 11;
const TOOLCHAIN = 6;

const main = countHistory({ commits: COMMITS, noise: 0.15, counts: (_r, i) => (i >= STEP ? 1.01 : 1) });
const tools = countHistory({
  commits: COMMITS,
  first: 30,
  branch: 'toolchain',
  runtime: (r, i) => (r === 'go' && i >= TOOLCHAIN ? 'go1.23.4 linux/amd64' : RUNTIMES[r]),
  counts: (r, i) => (r === 'go' && i >= TOOLCHAIN ? 0.997 : 1),
});
const shaOf = (records: HistoryRecord[], i: number) => records.filter((r) => r.runner === 'go')[i]!.commit.sha;

/** Both histories derived by src/history, in a folder of their own. */
const historyDir = () =>
  writeHistoryFolder(
    'bee-bench-counts-site-',
    derive({ records: [...main, ...tools].map((record) => ({ path: recordPath(record), record })), invalid: [] }, { branches: { default: 'main' } }),
  );
const site = servedSite(historyDir, { viewport: { width: 1100, height: 900 } });
const problems: string[] = [];
beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

const open = (hash: string): Promise<Page> => openRendered(site.browser, site.srv.url, hash, problems);

/** The first chart of the case view: per runner, its values and point styles. */
async function firstChart(page: Page) {
  await page.waitForSelector('figure.chart-card canvas');
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('figure.chart-card canvas')!;
    const ch = window.beeBench!.getChart(canvas)!;
    const ds = ch.data.datasets as unknown as Array<{ label?: string; data: Array<{ y: number; pt: { sha: string } }> }>;
    return ds.map((d, i) => ({
      label: d.label ?? '',
      ys: d.data.map((p) => p.y),
      shas: d.data.map((p) => p.pt.sha),
      styles: ch.getDatasetMeta(i).data.map((e) => (e as unknown as { options: { pointStyle: unknown } }).options.pointStyle),
    }));
  });
}

/** The data table's Marks column, by commit, for the marked rows only. */
async function tableMarks(page: Page): Promise<Array<[string, string]>> {
  const table = page.locator('figure.chart-card').first().locator('details.data-table');
  await table.locator('summary').click();
  // The rows are filled when the table opens: wait for them rather than read an empty body.
  await table.locator('tbody tr').first().waitFor();
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')));
  return rows.filter((r) => r[7] !== '').map((r) => [r[4]!, r[7]!] as [string, string]);
}

const POINT_STYLE: Record<string, string> = { 'bee-js': 'circle', 'bee-go': 'rect', 'bee-rs': 'triangle' };

describe('count trend on the site', () => {
  it('opens a counted case on instructions per byte and marks the injected 1% step at exactly its commit, nothing else', async () => {
    const page = await open(`#view=case&case=${CASE}&branch=main`);
    expect(await page.locator('#figure').inputValue()).toBe('=count');
    expect(await page.locator('p.meta').first().textContent()).toContain('Instructions per byte (lower is better)');
    const chart = await firstChart(page);
    expect(chart.map((d) => d.label)).toEqual(['bee-js', 'bee-go', 'bee-rs']);
    const stepSha = shaOf(main, STEP);
    for (const d of chart) {
      expect(d.ys).toHaveLength(COMMITS);
      // Flat before and after the step, 1% up at it (wall times wandered ±15% meanwhile).
      expect(new Set(d.ys.slice(0, STEP)).size).toBe(1);
      expect(d.ys[STEP]! / d.ys[STEP - 1]!).toBeCloseTo(1.01, 4);
      const marked = d.styles.flatMap((s, i) => (s === POINT_STYLE[d.label] ? [] : [i]));
      expect(marked).toEqual([STEP]);
      expect(d.styles[STEP]).toBe('star');
      expect(d.shas[STEP]).toBe(stepSha);
    }
    await page
      .locator('figure.chart-card')
      .first()
      .screenshot({ path: join(ARTIFACTS, 'site-count-chart.png') });
    const marks = await tableMarks(page);
    expect(marks.map(([sha]) => sha)).toEqual([stepSha.slice(0, 7), stepSha.slice(0, 7), stepSha.slice(0, 7)]);
    for (const [, text] of marks)
      expect(text).toBe(`✱ Count step +1.00% in commits ${shaOf(main, STEP - 1).slice(0, 7)}…${stepSha.slice(0, 7)} (A/A spread 0.05% (default))`);
    await page
      .locator('figure.chart-card')
      .first()
      .screenshot({ path: join(ARTIFACTS, 'site-count-step.png') });
    await page.close();
  });

  it('time is one choice away, and keeps its own marks (no count marks on it)', async () => {
    const page = await open(`#view=case&case=${CASE}&branch=main`);
    const before = Number(await page.evaluate(() => document.body.dataset.render));
    await page.selectOption('#figure', '');
    await page.waitForFunction((n) => Number(document.body.dataset.render ?? 0) > n && document.body.dataset.state !== 'loading', before);
    expect(await page.evaluate(() => location.hash)).toContain('figure=time');
    expect(await page.locator('p.meta').first().textContent()).toContain('Throughput');
    const chart = await firstChart(page);
    for (const d of chart) expect(d.styles.filter((s) => s === 'star' || s === 'cross')).toEqual([]);
    await page.close();
  });

  it('a Go version change is marked as a toolchain change at its commit, not as a client change', async () => {
    const page = await open(`#view=case&case=${CASE}&branch=toolchain`);
    const chart = await firstChart(page);
    const go = chart.find((d) => d.label === 'bee-go')!;
    expect(go.styles.flatMap((s, i) => (s === 'rect' ? [] : [[i, s]]))).toEqual([[TOOLCHAIN, 'cross']]);
    for (const d of chart.filter((x) => x.label !== 'bee-go')) expect(d.styles.every((s) => s === POINT_STYLE[d.label])).toBe(true);
    const marks = await tableMarks(page);
    const at = shaOf(tools, TOOLCHAIN).slice(0, 7);
    expect(marks).toEqual([
      [
        at,
        `✚ Toolchain changed: go1.22.5 linux/amd64; callgrind valgrind-3.22.0 → go1.23.4 linux/amd64; callgrind valgrind-3.22.0; counts -0.30% (commits ${shaOf(tools, TOOLCHAIN - 1).slice(0, 7)}…${at})`,
      ],
    ]);
    expect(marks[0]![1]).not.toContain('◆');
    await page
      .locator('figure.chart-card')
      .first()
      .screenshot({ path: join(ARTIFACTS, 'site-count-toolchain.png') });
    await page.close();
  });

  it('the overview and the scoreboard switch to counts, and the choice is in the URL', async () => {
    const page = await open('#branch=main');
    expect(await page.locator('#scoreboard-h').textContent()).toBe('Cross-client scoreboard');
    const before = Number(await page.evaluate(() => document.body.dataset.render));
    await page.selectOption('#overview-figure', 'count');
    await page.waitForFunction((n) => Number(document.body.dataset.render ?? 0) > n && document.body.dataset.state !== 'loading', before);
    expect(await page.evaluate(() => location.hash)).toContain('figure=count');
    expect(await page.locator('#scoreboard-h').textContent()).toBe('Cross-client scoreboard (instructions)');
    const values = await page.locator('table.cases td.cell .value').allTextContents();
    expect(values.length).toBe(6);
    for (const v of values) expect(v).toMatch(/ instr\/(B|op)$/);
    // The latest run did not move the counts.
    expect(new Set(await page.locator('table.cases td.cell .change').allTextContents())).toEqual(new Set(['+0.00%']));
    await page.screenshot({ path: join(ARTIFACTS, 'site-count-overview.png'), fullPage: true });
    await page.close();
  });

  it('no request left 127.0.0.1 and the pages logged no error', () => {
    expect(site.browser.external).toEqual([]);
    expect(problems).toEqual([]);
  });
});
