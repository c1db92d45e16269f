// `bee-bench history import-gab` / `export-gab` as a user runs them: own process, a local bare
// remote, a real data.js (fixtures/gab/README.md names its source).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGab } from '../../src/history/gab.js';
import { bareRemote, cloneBranch, removeAll, runCli, tempDir, tip } from './helpers.js';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const MOJITO = join(import.meta.dirname, 'fixtures/gab/mojito-go.data.js');

describe('history import-gab / export-gab (CLI)', () => {
  it('imports a Go data.js with old-style units and exports the same entries back from the branch', async () => {
    const remote = await bareRemote(dirs);
    const imp = await runCli(['history', 'import-gab', '--remote', remote, '--workdir', join(tempDir('wd', dirs), 'h'), MOJITO]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.stderr).toMatch(/imported 8 record\(s\), 128 bench\(es\) charted, 0 stored without a time/);
    const clone = await cloneBranch(remote, dirs);
    const out = join(tempDir('out', dirs), 'data.js');
    const exp = await runCli(['history', 'export-gab', '--data-js', '--out', out, join(clone, 'bench')]);
    expect(exp.code, exp.stderr).toBe(0);
    const original = parseGab(MOJITO, readFileSync(MOJITO, 'utf8'));
    const back = parseGab(out, readFileSync(out, 'utf8'));
    expect(back.entries).toStrictEqual(original.entries);
    expect(back.repoUrl).toBe(original.repoUrl);
  });

  it('exports one imported record file as its benches', async () => {
    const remote = await bareRemote(dirs);
    expect((await runCli(['history', 'import-gab', '--remote', remote, '--workdir', join(tempDir('wd', dirs), 'h'), MOJITO])).code).toBe(0);
    const clone = await cloneBranch(remote, dirs);
    const original = parseGab(MOJITO, readFileSync(MOJITO, 'utf8'));
    const first = original.entries['Benchmark']![0]!;
    const { stdout } = await runCli(['history', 'export-gab', '--data-js', join(clone, 'bench')]);
    expect(stdout.startsWith('window.BENCHMARK_DATA = ')).toBe(true);
    const ts = new Date(first.date).toISOString().slice(0, 19).replace(/[-:]/g, '');
    const rec = join(clone, 'bench/runs', ts.slice(0, 4), ts.slice(4, 6), `${ts}Z-${first.commit.id.slice(0, 7)}-go-gab-benchmark-${first.date}.json`);
    const benches = await runCli(['history', 'export-gab', rec]);
    expect(benches.code, benches.stderr).toBe(0);
    expect(JSON.parse(benches.stdout)).toStrictEqual(first.benches);
  });

  it('fails with exit 1, lists every bench and why, and commits nothing when no bench has a time', async () => {
    const remote = await bareRemote(dirs);
    const file = join(tempDir('in', dirs), 'data.js');
    const entry = (date: number) => ({
      commit: { id: 'a'.repeat(40), message: 'm', timestamp: '2024-01-01T00:00:00Z' },
      date,
      tool: 'customBiggerIsBetter',
      benches: [
        { name: 'throughput', value: 80, unit: 'MB/s' },
        { name: 'score', value: 3, unit: 'points' },
      ],
    });
    writeFileSync(
      file,
      `window.BENCHMARK_DATA = ${JSON.stringify({ lastUpdate: 1, repoUrl: 'https://github.com/o/r', entries: { Bench: [entry(1704067200000)] } }, null, 2)}`,
    );
    const r = await runCli(['history', 'import-gab', '--remote', remote, '--workdir', join(tempDir('wd', dirs), 'h'), file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not charted: entries["Bench"][0].benches[0] "throughput": unit "MB/s" is not a time or a rate');
    expect(r.stderr).toContain('not charted: entries["Bench"][0].benches[1] "score": unit "points" is not a time or a rate');
    expect(r.stderr).toMatch(/no bench has a time to chart .*nothing imported/);
    expect(await tip(remote)).toBeNull();
  });
});
