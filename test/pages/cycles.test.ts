// Estimated cycles on the trend site, in a real browser: results with counts and cycles turned
// into records the way a push run writes them (toRecord), derived by src/history, served from
// 127.0.0.1 and opened in Chromium. The case view offers the cycles in its figure select beside
// time and instruction counts, charts one point per run with the record's figure, and words the
// axis. A 1% cycles step at one commit shows on the chart where the counts stay flat.
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { derive } from '../../src/history/derive.js';
import { recordPath, toRecord } from '../../src/history/record.js';
import { CYCLES_METRICS } from '../../src/evidence/history-metrics.js';
import type { Runner } from '../../src/spec/schema.js';
import { context, countedResult } from '../history/helpers.js';
import { openRendered, writeHistoryFolder } from './harness.js';
import { servedSite } from './suite.js';

const ARTIFACTS = join(resolve(import.meta.dirname, '../..'), 'test-artifacts');
const CASE = 'cpu.ecdsa.sign';
const COMMITS = 6;
const STEP = 4;
const RUNNERS: Runner[] = ['go', 'rs'];

/** Cycles per iteration of a run: 1.3x the counts' last iteration, 1% more from commit STEP on (the counts do not move). */
const cyclesOf = (instructions: number, i: number) => Math.round(instructions * 1.3 * (i >= STEP ? 1.01 : 1));

const records = RUNNERS.flatMap((runner) =>
  Array.from({ length: COMMITS }, (_, i) => {
    const r = countedResult(runner, i);
    return toRecord({ ...r, cases: r.cases.map((c) => (c.instructions ? { ...c, cycles: [cyclesOf(c.instructions.at(-1)!, i)] } : c)) }, context(i));
  }),
);

const historyDir = () =>
  writeHistoryFolder(
    'bee-bench-cycles-site-',
    derive({ records: records.map((record) => ({ path: recordPath(record), record })), invalid: [] }, { branches: { default: 'main' } }),
  );
const site = servedSite(historyDir, { viewport: { width: 1100, height: 900 } });
const problems: string[] = [];
const open = (hash: string): Promise<Page> => openRendered(site.browser, site.srv.url, hash, problems);

describe('estimated cycles on the site', () => {
  it('are a figure of the case view: charted per run from the records, axis worded, kept in the URL', async () => {
    const page = await open(`#view=case&case=${CASE}&branch=main`);
    const options = await page.locator('#figure option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options).toEqual(expect.arrayContaining([CYCLES_METRICS.perIteration, CYCLES_METRICS.perOp]));
    const before = Number(await page.evaluate(() => document.body.dataset.render));
    await page.selectOption('#figure', CYCLES_METRICS.perIteration);
    await page.waitForFunction((n) => Number(document.body.dataset.render ?? 0) > n && document.body.dataset.state !== 'loading', before);
    expect(await page.evaluate(() => location.hash)).toContain(`metric=${encodeURIComponent(CYCLES_METRICS.perIteration)}`);
    expect(await page.locator('p.meta').first().textContent()).toContain('Estimated cycles per iteration (lower is better)');
    const chart = await page.evaluate(() => {
      const ch = window.beeBench!.getChart(document.querySelector<HTMLCanvasElement>('figure.chart-card canvas')!)!;
      return (ch.data.datasets as unknown as Array<{ label?: string; data: Array<{ y: number }> }>).map((d) => ({
        label: d.label ?? '',
        ys: d.data.map((p) => p.y),
      }));
    });
    expect(chart.map((d) => d.label)).toEqual(['bee-go', 'bee-rs']);
    for (const d of chart) {
      const runner = d.label === 'bee-go' ? 'go' : 'rs';
      const want = records.filter((r) => r.runner === runner).map((r) => r.cases.find((c) => c.id === CASE)!.metrics![CYCLES_METRICS.perIteration]);
      expect(d.ys).toEqual(want);
      expect(d.ys[STEP]! / d.ys[STEP - 1]!).toBeCloseTo(1.01, 3);
    }
    await page
      .locator('figure.chart-card')
      .first()
      .screenshot({ path: join(ARTIFACTS, 'site-cycles-chart.png') });
    await page.close();
    expect(problems).toEqual([]);
  });
});
