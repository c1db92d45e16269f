// The trend site's scoreboard caption and renamed cases, in Chromium. The history holds two runs
// of bee-js and bee-rs: result files the runners wrote in a real quick run on a loaded 2-core
// machine (test/fixtures/results: BEE_BENCH_ITERS=15, bee-js recovering one signature per
// iteration, 15 ops in all), the first run stored under the case ids of that time. Derived by src/history with the spec's catalog, served
// from 127.0.0.1: the headline ranks every row the iterations rank (the low-precision mark no
// longer keeps a row out), leaves out the rows whose ranking is open and its caption says how many;
// an old permalink opens the renamed case. Screenshot to test-artifacts/.
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogFromSpec, derive } from '../../src/history/derive.js';
import { recordPath, toRecord } from '../../src/history/record.js';
import type { HistoryIndex, HistoryRecord } from '../../src/history/schema.js';
import { caseAliases } from '../../src/spec/aliases.js';
import { parseResult } from '../../src/spec/load.js';
import type { Result } from '../../src/spec/schema.js';
import { costInterval, RANKING_RULE, rankingOpen, unitCosts } from '../../src/stats/scoreboard.js';
import { median } from '../../src/stats/summary.js';
import { lowPrecision } from '../../src/verdict/precision.js';
import { spec } from '../fixtures/spec.js';
import { context } from '../history/helpers.js';
import { openRendered, writeHistoryFolder } from './harness.js';
import { servedSite } from './suite.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const RESULTS = join(ROOT, 'test/fixtures/results');

const results = (['js', 'rs'] as const).map((r) => parseResult(`${r}.json`, readFileSync(join(RESULTS, `quick-${r}.json`), 'utf8')));
const formerOf = new Map([...caseAliases(spec)].map(([old, now]) => [now, old]));
/** The same result as written before the rename: each renamed case under its former id. */
const asBefore = (r: Result): Result => ({ ...r, cases: r.cases.map((c) => ({ ...c, id: formerOf.get(c.id) ?? c.id })) });
const records: HistoryRecord[] = [...results.map((r) => toRecord(asBefore(r), context(0))), ...results.map((r) => toRecord(r, context(1)))];

/** Rows both clients ran (ok) in the latest run, those with a low-precision figure, and those whose ranking is open, by the rules. */
function latestRows(): { compared: string[]; low: string[]; open: string[] } {
  const [js, rs] = results;
  const compared: string[] = [];
  const low: string[] = [];
  const open: string[] = [];
  for (const c of js!.cases) {
    const other = rs!.cases.find((o) => o.id === c.id && o.param['label'] === c.param['label']);
    if (c.status !== 'ok' || other?.status !== 'ok' || spec.cases.find((s) => s.id === c.id)?.group === 'harness') continue;
    const pair = [c, other];
    const medians = pair.map((x) => median(x.samples_ns));
    const costs = unitCosts(pair.map((x, i) => ({ median_ns: medians[i]!, ops: x.work.ops, bytes: x.work.bytes })));
    if (!costs) continue;
    compared.push(c.id);
    if (lowPrecision(c.samples_ns, c.work) || lowPrecision(other.samples_ns, other.work)) low.push(c.id);
    const row = pair.map((x, i) => ({
      runner: x === c ? ('js' as const) : ('rs' as const),
      unitCost: costs[i]!,
      interval: costInterval(x.samples_ns, medians[i]! / costs[i]!)!,
    }));
    if (rankingOpen({ costs: row })) open.push(c.id);
  }
  return { compared, low, open };
}

/** The records derived by src/history with the spec's catalog, in a folder of their own. */
const historyDir = () =>
  writeHistoryFolder(
    'bee-bench-precision-site-',
    derive({ records: records.map((record) => ({ path: recordPath(record), record })), invalid: [] }, { catalog: catalogFromSpec(spec) }),
  );
const site = servedSite(historyDir, { viewport: { width: 1200, height: 900 } });
const problems: string[] = [];
beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

const open = (hash: string): Promise<Page> => openRendered(site.browser, site.srv.url, hash, problems);

describe('the scoreboard headline on the site', () => {
  it('the fixture holds low-precision rows, bee-js recovering one signature in each of 15 iterations among them, ranked all the same', () => {
    const verify = results[0]!.cases.find((c) => c.id === 'cpu.ecdsa.verify')!;
    expect([verify.work.ops, verify.samples_ns.length]).toEqual([1, 15]);
    const { compared, low, open } = latestRows();
    expect(low).toContain('cpu.ecdsa.verify');
    expect(open).not.toContain('cpu.ecdsa.verify');
    expect(compared.length - open.length).toBeGreaterThan(compared.length - low.length);
  });

  it('the derived index marks the latest low-precision figures, keeps their intervals and counts the open rows of each run', () => {
    const index = JSON.parse(readFileSync(join(site.dataDir, 'index.json'), 'utf8')) as HistoryIndex;
    const { compared, open } = latestRows();
    const verify = index.cases.find((c) => c.id === 'cpu.ecdsa.verify')!;
    const latestJs = verify.series.find((s) => s.runner === 'js')!.latest['main']!;
    expect(latestJs.low_precision).toBe(true);
    expect(latestJs.median_interval!.lo).toBeLessThanOrEqual(latestJs.median_ns);
    const latest = index.scoreboard.at(-1)!;
    expect([latest.rows, latest.open ?? 0]).toEqual([compared.length - open.length, open.length]);
  });

  it('ranks the rows the iterations rank in the headline and says how many it leaves out in its caption', async () => {
    const { compared, open: left } = latestRows();
    const page = await open('#branch=main');
    const caption = page.locator('.score-table caption');
    const scored = compared.length - left.length;
    await expect.poll(() => caption.textContent()).toContain(`Latest value of each row: ${scored} row${scored === 1 ? '' : 's'} from 1 run`);
    expect(await caption.locator('.ranking-note').textContent()).toBe(
      left.length > 0
        ? ` ${left.length} row${left.length === 1 ? ' is' : 's are'} left out: ${RANKING_RULE}.`
        : ` Every shared row is ranked: ${RANKING_RULE}.`,
    );
    const won = await page.locator('.score-table tbody td:nth-child(3)').allTextContents();
    for (const w of won) expect(w).toMatch(new RegExp(` of ${scored}$`));
    await page.locator('section.scoreboard').screenshot({ path: join(ARTIFACTS, 'site-scoreboard-low-precision.png') });
    await page.close();
  });

  it('opens a renamed case from a permalink with its former id, one series of both runs', async () => {
    const page = await open('#view=case&case=cpu.ecdsa.verify-1000&branch=main');
    await expect.poll(() => page.locator('#view-heading').textContent()).toContain('cpu.ecdsa.verify');
    expect(await page.locator('p.formerly').textContent()).toBe('Formerly cpu.ecdsa.verify-1000: its series continue here.');
    expect(await page.locator('p.error').count()).toBe(0);
    await page.close();
  });

  it('logged no page error', () => {
    expect(problems).toEqual([]);
  });
});
