// The site's release experiments page in Chromium, on a history branch written by the real git
// writer into a local bare repository and cloned as a visitor would: the list (newest first),
// an experiment opened by its link (#id) with its per-cell shifts drawn and tabled, the trend per
// cell across experiments drawn, no console error, no request outside the site.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyse } from '../../src/experiment/analysis/analyse.js';
import { readJournal } from '../../src/experiment/analysis/read.js';
import { publishExperiment } from '../../src/experiment/report/index.js';
import { syntheticRows, writeJournal } from '../experiment/synthetic-journal.js';
import { bareRemote, cloneBranch, removeAll, tempDir } from '../history/helpers.js';
import { launch, serveSite, type Browser, type SiteServer } from './harness.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];

async function analysisOf(runId: string, releases: [string, string], slower: number, createdAt: string) {
  const dir = tempDir('exp-site', dirs);
  const rows = syntheticRows({
    sizes: [1000, 1_000_000],
    levels: [0, 2],
    strategies: ['DATA', 'RACE'],
    nodes: [
      { label: 'a', release: releases[0] },
      { label: 'b', release: releases[1] },
    ],
    replicates: 6,
    noise: 0.05,
    runId,
    factor: (r, s) => (r === releases[1] && s === 1_000_000 ? slower : 1),
  }).map((r) => (r.type === 'run' ? { ...r, created_at: createdAt } : r));
  writeJournal(join(dir, 'journal.jsonl'), rows);
  return analyse([await readJournal(dir)]);
}

describe('experiments.html in Chromium', () => {
  let browser: Browser;
  let server: SiteServer;
  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'pages/build.mjs')], { stdio: 'pipe' });
    const remote = await bareRemote(dirs);
    await publishExperiment(await analysisOf('run-27-28', ['2.7.0', '2.8.0'], 1.5, '2026-10-01T00:00:00.000Z'), {
      remote,
      workdir: tempDir('work', dirs),
    });
    await publishExperiment(await analysisOf('run-28-29', ['2.8.0', '2.9.0'], 0.7, '2026-11-01T00:00:00.000Z'), {
      remote,
      workdir: tempDir('work', dirs),
    });
    const clone = await cloneBranch(remote, dirs);
    server = await serveSite(join(ROOT, 'pages/dist'), join(clone, 'bench'));
    browser = await launch({ viewport: { width: 1300, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    removeAll(dirs);
  });

  it('lists the experiments, opens one by its link with its shifts drawn, and draws the trends', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${server.url}experiments.html#run-27-28`);
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && window.beeBenchExperiments !== undefined);
    const seen = await page.evaluate(() => {
      const charts = (
        window as unknown as {
          beeBenchExperiments: { charts: Array<{ canvas: HTMLCanvasElement; data: { datasets: Array<{ data: unknown[] }> } }> };
        }
      ).beeBenchExperiments.charts;
      return {
        titles: Array.from(document.querySelectorAll('.exp-list h3')).map((h) => h.textContent),
        links: Array.from(document.querySelectorAll<HTMLAnchorElement>('.exp-list h3 a')).map((a) => a.getAttribute('href')),
        open: document.querySelector('.exp-list li.open')?.id,
        rows: Array.from(document.querySelectorAll('li.open .exp-cells tr')).map((tr) => tr.textContent),
        charts: charts.map((c) => {
          const ctx = c.canvas.getContext('2d')!;
          const px = ctx.getImageData(0, 0, c.canvas.width, c.canvas.height).data;
          let inked = 0;
          for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) inked++;
          return { id: c.canvas.id, inked, points: c.data.datasets.reduce((n, d) => n + d.data.length, 0) };
        }),
      };
    });
    expect(errors).toEqual([]);
    expect(browser.external).toEqual([]);
    expect(seen.titles).toEqual(['2.9.0 against 2.8.0', '2.8.0 against 2.7.0']);
    expect(seen.links).toEqual(['#run-28-29', '#run-27-28']);
    expect(seen.open).toBe('exp-run-27-28');
    expect(seen.rows.length).toBe(1 + 2 * 3); // header + 2 sizes × (level 0 NONE, level 2 DATA, RACE)
    expect(seen.rows.filter((r) => r!.includes('2.7.0 faster')).length).toBe(3); // the 1 MB cells
    // Two estimate panels (1 KB, 1 MB) for the open experiment, then 6 trend panels (every cell twice).
    expect(seen.charts.map((c) => c.id)).toEqual([
      'chart-exp-1000',
      'chart-exp-1000000',
      'chart-trend-1000-0-NONE',
      'chart-trend-1000-2-DATA',
      'chart-trend-1000-2-RACE',
      'chart-trend-1000000-0-NONE',
      'chart-trend-1000000-2-DATA',
      'chart-trend-1000000-2-RACE',
    ]);
    for (const c of seen.charts) expect(c.inked, c.id).toBeGreaterThan(1000);
    expect(seen.charts.slice(2).every((c) => c.points === 2)).toBe(true);

    // Following the other link opens that experiment instead.
    await page.click('a[href="#run-28-29"]');
    await page.waitForFunction(() => document.querySelector('.exp-list li.open')?.id === 'exp-run-28-29' && document.body.dataset.state === 'ready');
    expect(await page.locator('li.open .exp-cells tr', { hasText: '2.9.0 faster' }).count()).toBe(3);
    expect(errors).toEqual([]);
  }, 60_000);
});
