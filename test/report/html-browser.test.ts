// report.html in a real browser (Debian's Chromium through playwright-core, as the site tests):
// every client's bar is drawn with a visible length in every chart, even 1000x apart, and the page
// of a CPU quick run stays compact. Screenshots go to test-artifacts/ (gitignored) for a look.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregate } from '../../src/report/model/aggregate.js';
import { renderHtml } from '../../src/report/render/html.js';
import { chartJsSource } from '../../src/report/write.js';
import { launch, serveSite, type Browser, type SiteServer } from '../pages/harness.js';
import { realSpec, syntheticResult } from './fixtures.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');
const { spec, hash } = realSpec();

/** A CPU quick run shaped like a real one: bee-js 300-1000x behind in the ECDSA and identity rows. */
function cpuQuickHtml(): string {
  const cost = (id: string, r: 'js' | 'go' | 'rs') => (/ecdsa|identity/.test(id) ? { js: 1000, go: 3, rs: 1 } : { js: 10, go: 1.5, rs: 1 })[r];
  const results = (['js', 'go', 'rs'] as const).map((r) => {
    const res = syntheticResult(r, spec, hash, {
      unitCost: (c) => cost(c.id, r),
      skip: (c, rr) => (c.id === 'cpu.bmt.encrypted-file-root' ? `no offline encrypting chunker in ${rr}` : undefined),
    });
    return { ...res, cases: res.cases.filter((c) => c.kind === 'cpu') };
  });
  return renderHtml(aggregate(results, spec, { specHash: hash, environment: { loadAverage: [1.2, 1.1, 0.9], cpus: 2 } }), { chartJs: chartJsSource() });
}

describe('report.html in Chromium', () => {
  let browser: Browser;
  let server: SiteServer;
  const dir = mkdtempSync(join(tmpdir(), 'bee-bench-report-html-'));
  beforeAll(async () => {
    writeFileSync(join(dir, 'index.html'), cpuQuickHtml());
    server = await serveSite(dir, dir);
    browser = await launch({ viewport: { width: 1400, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("draws every client's bar in every chart, and fits a CPU quick run in a compact page", async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(server.url);
    await page.waitForFunction(() => Array.isArray((window as unknown as { beeBenchCharts?: unknown[] }).beeBenchCharts));
    const bars = await page.evaluate(() => {
      type Bar = { x: number; base: number };
      type Chart = {
        data: { labels: string[]; datasets: Array<{ label: string; data: Array<number | null> }> };
        getDatasetMeta(i: number): { data: Bar[] };
        options: { scales: { x: { type: string } } };
      };
      const charts = (window as unknown as { beeBenchCharts: Chart[] }).beeBenchCharts;
      return charts.flatMap((c, ci) =>
        c.data.datasets.flatMap((d, di) =>
          d.data.flatMap((v, j) =>
            v === null
              ? []
              : [
                  {
                    chart: ci,
                    row: c.data.labels[j],
                    runner: d.label,
                    value: v,
                    px: Math.abs(c.getDatasetMeta(di).data[j]!.x - c.getDatasetMeta(di).data[j]!.base),
                    axis: c.options.scales.x.type,
                  },
                ],
          ),
        ),
      );
    });
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'report-html-cpu-quick.png'), fullPage: true });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(errors).toEqual([]);
    expect(bars.length).toBeGreaterThan(20);
    // Every bar of every runner shows, the fastest (1.00x) too, beside one 1000x slower.
    const short = bars.filter((b) => b.px < 4);
    expect(short).toEqual([]);
    expect(new Set(bars.map((b) => b.runner))).toEqual(new Set(['bee-js', 'bee-go', 'bee-rs']));
    expect(bars.some((b) => b.value >= 300)).toBe(true);
    expect(bars.filter((b) => b.value > 10 && b.axis !== 'logarithmic')).toEqual([]);
    // A CPU quick run of three clients: a screen or three, not ~7,300 px.
    expect(height).toBeLessThan(3500);
    writeFileSync(join(ARTIFACTS, 'report-html-cpu-quick.json'), JSON.stringify({ height, bars: bars.length }, null, 2));
  }, 60_000);
});
