// experiment-report.html in a real browser (Debian's Chromium through playwright-core, as the other
// page tests): every figure's every panel draws (a chart per canvas, non-blank pixels, data in each
// dataset that has values), no console error, no request leaves the page. A screenshot goes to
// test-artifacts/ (gitignored) for a look.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentReport } from '../../src/experiment/report/index.js';
import { launch, serveSite, type Browser, type SiteServer } from '../pages/harness.js';
import { syntheticRows, writeJournal } from './synthetic-journal.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');

describe('experiment-report.html in Chromium', () => {
  let browser: Browser;
  let server: SiteServer;
  const dir = mkdtempSync(join(tmpdir(), 'bee-bench-exp-html-'));
  beforeAll(async () => {
    const rows = syntheticRows({
      sizes: [1000, 100_000, 1_000_000],
      levels: [0, 2, 4],
      strategies: ['DATA', 'RACE'],
      nodes: [
        { label: 'a1', release: '2.7.0' },
        { label: 'b1', release: '2.8.0' },
        { label: 'a2', release: '2.7.0' },
        { label: 'b2', release: '2.8.0' },
      ],
      replicates: 5,
      factor: (r, s) => (r === '2.8.0' && s === 1_000_000 ? 1.4 : 1),
      failures: (r, s, l, st, rep) => (r === '2.8.0' && s === 1_000_000 && l === 2 && st === 'DATA' && rep === 1 ? 9 : 0),
    });
    writeJournal(join(dir, 'journal.jsonl'), rows);
    await experimentReport({ journals: [dir], out: dir });
    const { copyFileSync } = await import('node:fs');
    copyFileSync(join(dir, 'experiment-report.html'), join(dir, 'index.html'));
    server = await serveSite(dir, dir);
    browser = await launch({ viewport: { width: 1400, height: 900 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws every panel of every figure, without console errors or outside requests', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(server.url);
    await page.waitForFunction(() => Array.isArray((window as unknown as { beeBenchExperimentCharts?: unknown[] }).beeBenchExperimentCharts));
    const found = await page.evaluate(() => {
      type Chart = {
        canvas: HTMLCanvasElement;
        config: { type: string };
        data: { datasets: Array<{ label: string; data: unknown[] }> };
        getDatasetMeta(i: number): { data: Array<{ x: number; y: number }> };
      };
      const charts = (window as unknown as { beeBenchExperimentCharts: Chart[] }).beeBenchExperimentCharts;
      const canvases = Array.from(document.querySelectorAll('canvas'));
      return {
        canvases: canvases.length,
        figures: Array.from(document.querySelectorAll('section.figure')).map((s) => s.id),
        charts: charts.map((c) => {
          const ctx = c.canvas.getContext('2d')!;
          const px = ctx.getImageData(0, 0, c.canvas.width, c.canvas.height).data;
          let inked = 0;
          for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) inked++;
          const drawn = c.data.datasets.map((d, i) => {
            const withData = d.data.filter((v) => !(Array.isArray(v) && v.length === 0)).length;
            const placed = c.getDatasetMeta(i).data.filter((e) => Number.isFinite(e.x) && Number.isFinite(e.y)).length;
            return { label: d.label, withData, placed };
          });
          return { id: c.canvas.id, type: c.config.type, inked, width: c.canvas.width, drawn };
        }),
      };
    });
    expect(errors).toEqual([]);
    expect(browser.external).toEqual([]);
    expect(found.figures).toEqual([
      'figure-distributions',
      'figure-zscores',
      'figure-estimates',
      'figure-by-level',
      'figure-uploads',
      'figure-upload-estimates',
    ]);
    expect(found.charts.length).toBe(found.canvases);
    // 5 level × strategy rows × (all servers + 2 servers) + 5 z rows + 3 sizes + 2 × 3 + 3 + 3.
    expect(found.canvases).toBe(15 + 5 + 3 + 6 + 3 + 3);
    for (const c of found.charts) {
      expect(c.width, c.id).toBeGreaterThan(100);
      expect(c.inked, c.id).toBeGreaterThan(1000);
      for (const d of c.drawn) expect(d.placed, `${c.id} ${d.label}`).toBeGreaterThanOrEqual(d.withData);
    }
    expect(found.charts.filter((c) => c.type === 'boxplot').length).toBe(15 + 5 + 6 + 3);
    expect(found.charts.filter((c) => c.type === 'lineWithErrorBars').length).toBe(6);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'experiment-report.png'), fullPage: true });
  }, 60_000);
});
