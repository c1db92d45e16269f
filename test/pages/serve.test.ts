// `bee-bench site` in a real browser: a history of two local runs (one bee-bench commit, two run
// times, bee-go not run) published to a bare remote, served by the CLI on 127.0.0.1 from --remote
// and from --history; the page draws two x positions, names the client it has no results of, and
// takes its scoreboard over each row's latest value. Opened from file://, the page says in one
// line how to serve it (screenshot in bench/out/).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteDir, publishRecords } from '../../src/history/publish.js';
import { toRecord } from '../../src/history/record.js';
import { loadSpec } from '../../src/spec/load.js';
import { fileFor } from '../../src/cli/site-server.js';
import { bareRemote, cloneBranch, context, removeAll, smallResult, tempDir } from '../history/helpers.js';
import { launch, type Browser } from './harness.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
let remote: string;
let browser: Browser;
const servers: ChildProcess[] = [];

/** Two runs of one bee-bench commit an hour apart (run ids 1, 2), bee-js and bee-rs each. */
function twoLocalRuns() {
  const ctx = context(0);
  return [0, 1].flatMap((i) =>
    (['js', 'rs'] as const).map((runner) => toRecord(smallResult(runner, i), { ...ctx, event: 'local', run: { id: `local-${i + 1}` } })),
  );
}

/** Starts `bee-bench site ARGS --port 0` and resolves with the URL it prints. */
function startSite(args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli.ts'), 'site', ...args, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push(child);
  return new Promise((ok, fail) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (m) ok(m[0]);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => fail(new Error(`bee-bench site exited ${code}: ${out}${err}`)));
  });
}

beforeAll(async () => {
  remote = await bareRemote(dirs);
  const spec = loadSpec(join(ROOT, 'spec', 'bench-spec.json')).spec;
  await publishRecords(twoLocalRuns(), { remote, workdir: tempDir('bee-bench-serve-wd-', dirs), spec });
  browser = await launch();
}, 120_000);

afterAll(async () => {
  for (const s of servers) s.kill();
  await browser?.close();
  removeAll(dirs);
});

describe('bee-bench site', () => {
  it('serves a history from --remote: two runs of one commit draw two x positions, by run time', async () => {
    const url = await startSite(['--remote', remote]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await browser.context.newPage();
    await page.goto(`${url}#view=case&case=cpu.keccak.chunk-hash`);
    await page.waitForFunction(() => document.body.dataset.state === 'ready');
    const xs = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLCanvasElement>('figure.chart-card canvas')).map((c) => {
        const ch = window.beeBench!.getChart(c)!;
        return {
          title: (ch.options.scales!['x'] as { title: { text: string } }).title.text,
          xs: ch.data.datasets.map((d) => (d.data as Array<{ x: number }>).map((p) => p.x)),
        };
      }),
    );
    expect(xs.length).toBeGreaterThan(0);
    for (const chart of xs) {
      expect(chart.title).toBe('Run time (UTC)');
      for (const series of chart.xs) expect(new Set(series).size).toBe(2);
    }
    await page.close();
  });

  it('serves a history folder from --history: names the client it has no results of, scores the latest value per row', async () => {
    const clone = await cloneBranch(remote, dirs);
    const url = await startSite(['--history', join(clone, 'bench')]);
    const page = await browser.context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.state === 'ready');
    expect(await page.locator('.missing-clients').textContent()).toContain('Not in this history: bee-go');
    // Two rows (the net case was skipped), each client's latest value from the second run.
    expect(await page.locator('.score-table caption').textContent()).toMatch(/^Latest value of each row: 2 rows from 1 run · /);
    await page.close();
  });

  it('refuses paths outside the history and the site files', () => {
    const site = siteDir()!;
    const history = tempDir('bee-bench-serve-h-', dirs);
    mkdirSync(join(history, 'series'));
    expect(fileFor('/', history, site)).toBe(join(site, 'index.html'));
    expect(fileFor('/../package.json', history, site)).toBeNull();
    expect(fileFor('/%2e%2e/package.json', history, site)).toBeNull();
    expect(fileFor('/.git/config', history, site)).toBeNull();
    expect(fileFor('/series', history, site)).toBeNull();
  });

  it('opened from file://, the page says in one line how to serve it', async () => {
    const folder = tempDir('bee-bench-file-', dirs);
    cpSync(siteDir()!, folder, { recursive: true });
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(join(folder, 'index.html')).href);
    const hint = page.locator('.file-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toBe(
      'This page needs a web server (browsers do not run its script from a file): run npx bee-bench site --history <this folder> and open the URL it prints.',
    );
    mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'bench/out/site-file-hint.png') });
    await page.close();
  });
});
