// Release experiments in the history branch, against real git and a local bare repository: each
// summary is an immutable experiments/<id>.json, experiments/index.json is derived (newest first,
// trends for cells two experiments share), a different summary under an existing id is refused,
// and benchmark records written later leave the experiments as they are.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyse } from '../../src/experiment/analysis/analyse.js';
import { readJournal } from '../../src/experiment/analysis/read.js';
import { experimentSummary, publishExperiment } from '../../src/experiment/report/index.js';
import { ExperimentSummarySchema, RecordConflictError, writeHistory, type ExperimentIndex } from '../../src/history/index.js';
import { syntheticRows, writeJournal, type SyntheticOptions } from '../experiment/synthetic-journal.js';
import { bareRemote, git, lsTree, removeAll, show, smallRecord, tempDir } from './helpers.js';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

async function analysisOf(runId: string, releases: [string, string], slower: number, createdAt: string) {
  const dir = tempDir('exp', dirs);
  const o: SyntheticOptions = {
    sizes: [1000, 1_000_000],
    levels: [0, 2],
    strategies: ['DATA'],
    nodes: [
      { label: 'a', release: releases[0] },
      { label: 'b', release: releases[1] },
    ],
    replicates: 6,
    noise: 0.05,
    runId,
    factor: (r, s) => (r === releases[1] && s === 1_000_000 ? slower : 1),
  };
  const rows = syntheticRows(o).map((r) => (r.type === 'run' ? { ...r, created_at: createdAt } : r));
  writeJournal(join(dir, 'journal.jsonl'), rows);
  return analyse([await readJournal(dir)]);
}

describe('experiments in the history branch', () => {
  it('writes summaries under experiments/ with a derived index and per-cell trends', async () => {
    const remote = await bareRemote(dirs);
    const first = await analysisOf('run-27-28', ['2.7.0', '2.8.0'], 1.5, '2026-10-01T00:00:00.000Z');
    const r1 = await publishExperiment(first, { remote, workdir: tempDir('work', dirs) });
    expect(r1.added).toEqual(['experiments/run-27-28.json']);
    const tree = await lsTree(remote);
    expect(tree).toEqual(expect.arrayContaining(['bench/experiments/index.json', 'bench/experiments/run-27-28.json']));
    // The site goes with it when built (pages/dist): its experiments page is there to read the files.
    const stored = ExperimentSummarySchema.parse(JSON.parse(await show(remote, 'bench/experiments/run-27-28.json')));
    expect(stored).toEqual(experimentSummary(first));
    expect(stored.cells.filter((c) => c.family === 'download').map((c) => `${c.size}/${c.level}/${c.strategy}:${c.direction}`)).toEqual([
      '1000/0/NONE:unclear',
      '1000/2/DATA:unclear',
      '1000000/0/NONE:a-faster',
      '1000000/2/DATA:a-faster',
    ]);

    const second = await analysisOf('run-28-29', ['2.8.0', '2.9.0'], 0.7, '2026-11-01T00:00:00.000Z');
    await publishExperiment(second, { remote, workdir: tempDir('work', dirs) });
    const index = JSON.parse(await show(remote, 'bench/experiments/index.json')) as ExperimentIndex;
    expect(index.experiments.map((e) => [e.id, e.a, e.b, e.faster, e.slower, e.cells])).toEqual([
      ['run-28-29', '2.8.0', '2.9.0', 2, 0, 4],
      ['run-27-28', '2.7.0', '2.8.0', 0, 2, 4],
    ]);
    expect(index.trends.map((t) => `${t.size}/${t.level}/${t.strategy}`)).toEqual(['1000/0/NONE', '1000/2/DATA', '1000000/0/NONE', '1000000/2/DATA']);
    const mb = index.trends.find((t) => t.size === 1_000_000 && t.level === 0)!;
    expect(mb.points.map((p) => [p.id, p.a, p.b, p.direction])).toEqual([
      ['run-27-28', '2.7.0', '2.8.0', 'a-faster'],
      ['run-28-29', '2.8.0', '2.9.0', 'b-faster'],
    ]);
    expect(mb.points[0]!.shift_s).toBeGreaterThan(0.2);
    expect(mb.points[1]!.shift_s).toBeLessThan(-0.1);
    expect(index.invalid).toEqual([]);
  });

  it('refuses a different summary under an existing id; the same one is already present', async () => {
    const remote = await bareRemote(dirs);
    const a = await analysisOf('run-x', ['2.7.0', '2.8.0'], 1.5, '2026-10-01T00:00:00.000Z');
    const work = tempDir('work', dirs);
    await publishExperiment(a, { remote, workdir: work });
    const again = await publishExperiment(a, { remote, workdir: work });
    expect(again).toMatchObject({ commit: null, added: [], present: ['experiments/run-x.json'] });
    const other = await analysisOf('run-x', ['2.7.0', '2.8.0'], 1.2, '2026-10-01T00:00:00.000Z');
    await expect(publishExperiment(other, { remote, workdir: work })).rejects.toBeInstanceOf(RecordConflictError);
  });

  it('keeps experiments and their index when benchmark records are written afterwards', async () => {
    const remote = await bareRemote(dirs);
    const a = await analysisOf('run-y', ['2.7.0', '2.8.0'], 1.5, '2026-10-01T00:00:00.000Z');
    await publishExperiment(a, { remote, workdir: tempDir('work', dirs) });
    const before = await show(remote, 'bench/experiments/index.json');
    await writeHistory([smallRecord('js', 0)], { remote, workdir: tempDir('work', dirs), backoff: { baseMs: 40, maxMs: 600 } });
    expect(await show(remote, 'bench/experiments/index.json')).toBe(before);
    expect(await git(remote, 'diff', '--name-status', 'gh-pages~1', 'gh-pages', '--', 'bench/experiments')).toBe('');
  });
});
