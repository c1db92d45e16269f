// Long series in a real browser: the case view draws a decimated subset (Chart.js decimation) but
// keeps every version/shift marker drawn, and tables and downloads still hold every point.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bigHistory, writeHistory } from './fixture.js';
import { servedSite } from './suite.js';

const RUNS = 6000; // main gets 9 of every 10 runs: 5,400 points per runner, above 4 per pixel of width
const site = servedSite(() => {
  const dir = mkdtempSync(join(tmpdir(), 'bee-bench-long-'));
  writeHistory(dir, bigHistory({ runs: RUNS, cases: 1 }));
  return dir;
});

describe('a case view of long series', () => {
  it('draws a decimated line with every marker, and downloads every point', async () => {
    const page = await site.browser.context.newPage();
    await page.goto(`${site.srv.url}#view=case&case=cpu.synthetic.case-00&branch=main`);
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.body.dataset.view === 'case', undefined, { timeout: 60_000 });
    const drawn = await page.evaluate(() => {
      const ch = window.beeBench!.getChart(document.querySelector<HTMLCanvasElement>('figure.chart-card canvas')!)!;
      return ch.data.datasets.map((_d, i) => {
        const els = ch.getDatasetMeta(i).data as unknown as Array<{ options: { pointStyle: unknown } }>;
        return { drawn: els.length, markers: els.filter((e) => e.options.pointStyle === 'rectRot').length };
      });
    });
    // js changes version every 1,000 runs (5 changes), go every 2,500 (2), rs every 3,000 (1).
    expect(drawn.map((d) => d.markers)).toEqual([5, 2, 1]);
    for (const d of drawn) expect(d.drawn).toBeLessThan(2500);
    expect(await page.locator('figure.chart-card .count').textContent()).toBe('16,200 points');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#download-csv')]);
    const lines = readFileSync((await dl.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(lines.length - 1).toBe((3 * (RUNS * 9)) / 10);
    await page.close();
  }, 120_000);
});
