// The "Done when" on real Bee dev nodes from ../shared/bee, on loopback, through the js
// runner: a reduced factorial (1KB/10KB/100KB × levels 0,2,4 × DATA,RACE × 5 replicates) with
// v2.7.0 and v2.8.0 side by side, SIGKILLed halfway through its downloads and resumed (nothing lost
// or repeated), then reported (every figure and table); and an A/A (v2.8.0 twice) whose analysis
// flags no cell after BH. Skips with the summary's one line where ../shared/bee is missing.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunner } from '../../src/build/index.js';
import { experimentReport } from '../../src/experiment/report/index.js';
import { noRealBee, realBeeSkipNote, realNodes, type RealNode } from '../bee/real-node.js';
import { cliRun, expectNothingLostOrRepeated, journalRows } from './kill-resume.js';

const DESIGN = ['--sizes', '1KB,10KB,100KB', '--levels', '0,2,4', '--strategies', 'DATA,RACE', '--replicates', '5', '--attempts', '3', '--timeout', '30'];
const CELLS = 3 * (1 + 2 + 2);

describe.skipIf(noRealBee)(`the experiment on real dev nodes${realBeeSkipNote}`, () => {
  const nodes = realNodes();
  let v27: RealNode;
  let v28: RealNode;
  beforeAll(async () => {
    await buildRunner({ runner: 'js', source: { kind: 'registry' }, log: () => {} });
    [v27, v28] = await Promise.all([nodes.start('2.7.0'), nodes.start('2.8.0')]);
  }, 600_000);
  afterAll(nodes.stopAll);

  it('v2.7.0 and v2.8.0 side by side: killed halfway, resumed, reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-exp-real-'));
    // No batch ids: the engine buys one on each dev node.
    const args = ['experiment', 'run', '--runner', 'js', '--out', dir, '--node', `a=2.7.0@${v27.url}`, '--node', `b=2.8.0@${v28.url}`, ...DESIGN];
    const units = CELLS * 2 * 5;
    const first = await cliRun(args, { dir, killAt: units / 2, limitMs: 300_000 });
    expect(first.signal, first.stderr).toBe('SIGKILL');
    const second = await cliRun(['experiment', 'run', '--runner', 'js', '--out', dir], { dir, limitMs: 300_000 });
    expect(second.code, second.stderr).toBe(0);
    const rows = journalRows(dir);
    expectNothingLostOrRepeated(rows, units, 3);
    const run = rows[0]!;
    expect(run.type === 'run' && run.nodes.map((n) => n.version.slice(0, 5))).toEqual(['2.7.0', '2.8.0']);
    expect(run.type === 'run' && run.design.nodes.every((n) => /^[0-9a-f]{64}$/.test(n.batch_id ?? ''))).toBe(true);
    // A dev node holds every chunk: every download right at the first attempt, no sync wait.
    expect(rows.filter((r) => r.type === 'download').every((r) => r.type === 'download' && r.ok && r.attempt === 1)).toBe(true);
    expect(rows.filter((r) => r.type === 'sync').every((r) => r.type === 'sync' && r.signal === 'none')).toBe(true);
    // Both releases see the same minutes: in each block every cell's two nodes follow one another.
    const uploads = rows.filter((r) => r.type === 'upload');
    for (let i = 0; i < uploads.length; i += 2) {
      const [x, y] = [uploads[i]!, uploads[i + 1]!];
      expect(x.type === 'upload' && y.type === 'upload' && x.size === y.size && x.level === y.level && x.strategy === y.strategy && x.node !== y.node).toBe(
        true,
      );
    }
    const out = join(dir, 'report');
    const rep = await experimentReport({ journals: [dir], out });
    expect(rep.analysis.mode).toBe('side-by-side');
    for (const f of ['experiment-report.md', 'experiment-report.csv', 'experiment-report.html', 'experiment-analysis.json'])
      expect(existsSync(join(out, f)), f).toBe(true);
    const md = readFileSync(join(out, 'experiment-report.md'), 'utf8');
    expect(md).toMatch(/2\.7\.0/);
    expect(md).toMatch(/2\.8\.0/);
    expect(rep.analysis.comparisons.filter((c) => c.family === 'download' && c.scope === 'pooled')).toHaveLength(CELLS);
  }, 900_000);

  it('an A/A (v2.8.0 on two nodes) flags no cell after BH', async () => {
    const other = await nodes.start('2.8.0');
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-exp-aa-'));
    const args = ['experiment', 'run', '--runner', 'js', '--out', dir, '--node', `a=2.8.0@${v28.url}`, '--node', `b=2.8.0@${other.url}`, ...DESIGN];
    const r = await cliRun(args, { dir, limitMs: 300_000 });
    expect(r.code, r.stderr).toBe(0);
    const rep = await experimentReport({ journals: [dir], out: join(dir, 'report') });
    expect(rep.analysis.mode).toBe('a/a');
    const flagged = rep.analysis.comparisons.filter((c) => c.family === 'download' && c.q < 0.05);
    expect(flagged.map((c) => `${c.size}-L${c.level}-${c.strategy} ${c.scope}: q ${c.q}`)).toEqual([]);
  }, 900_000);
});
