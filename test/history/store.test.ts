// The gh-pages store against real git and local bare repositories.
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordPath, serializeRecord } from '../../src/history/record.js';
import type { HistoryIndex } from '../../src/history/schema.js';
import { redact } from '../../src/history/git.js';
import { RecordConflictError, staleDerived, writeHistory, type WriteOptions } from '../../src/history/store.js';
import { bareRemote, cloneBranch, commitRaw, git, lsTree, removeAll, show, smallRecord, tempDir, tip } from './helpers.js';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const FAST = { baseMs: 40, maxMs: 600 };
const opts = (remote: string, extra: Partial<WriteOptions> = {}): WriteOptions => ({ remote, workdir: tempDir('work', dirs), backoff: FAST, ...extra });

/** A fresh clone of the branch: its derived files must equal a fresh derivation of its runs/. */
async function expectConsistent(remote: string, folder = 'bench', deriveOpts = {}): Promise<string> {
  const clone = await cloneBranch(remote, dirs);
  expect(await staleDerived(join(clone, folder), deriveOpts)).toEqual([]);
  return clone;
}

describe('writeHistory', () => {
  it('creates the branch on an empty remote, then appends; derived files equal a fresh derivation', async () => {
    const remote = await bareRemote(dirs);
    const a = smallRecord('js', 0);
    const first = await writeHistory([a], opts(remote));
    expect(first).toMatchObject({ attempts: 1, added: [recordPath(a)], present: [], invalid: [] });
    expect(await tip(remote)).toBe(first.commit);
    expect(await git(remote, 'rev-list', '--count', 'gh-pages')).toBe('1\n');
    expect(await lsTree(remote)).toEqual([
      'bench/index.json',
      `bench/${recordPath(a)}`,
      'bench/series/cpu.ecdsa.sign.json',
      'bench/series/cpu.keccak.chunk-hash.json',
    ]);
    expect(await show(remote, `bench/${recordPath(a)}`)).toBe(serializeRecord(a));

    // Second write through the same (reused) clone: a child commit that only adds.
    const work = opts(remote).workdir;
    const b = smallRecord('go', 1);
    const second = await writeHistory([b], { remote, workdir: work, backoff: FAST });
    const third = await writeHistory([smallRecord('rs', 2)], { remote, workdir: work, backoff: FAST });
    expect(await git(remote, 'rev-parse', `${third.commit}^`)).toBe(`${second.commit}\n`);
    expect(await git(remote, 'rev-parse', `${second.commit}^`)).toBe(`${first.commit}\n`);
    expect(
      (await git(remote, 'diff', '--name-status', first.commit!, third.commit!, '--', 'bench/runs'))
        .trim()
        .split('\n')
        .every((l) => l.startsWith('A\t')),
    ).toBe(true);
    const clone = await expectConsistent(remote);
    const index = JSON.parse(readFileSync(join(clone, 'bench/index.json'), 'utf8')) as HistoryIndex;
    expect(index.generated_from).toBe(3);
  });

  it('writing the same record again changes nothing', async () => {
    const remote = await bareRemote(dirs);
    const a = smallRecord('js', 4);
    const first = await writeHistory([a], opts(remote));
    const again = await writeHistory([a], opts(remote));
    expect(again).toMatchObject({ commit: null, added: [], present: [recordPath(a)] });
    expect(await tip(remote)).toBe(first.commit);
  });

  it('refuses to overwrite an existing record with different bytes', async () => {
    const remote = await bareRemote(dirs);
    const a = smallRecord('js', 5);
    await writeHistory([a], opts(remote));
    const before = await tip(remote);
    const changed = { ...a, commit: { ...a.commit, message: 'rewritten' } };
    expect(recordPath(changed)).toBe(recordPath(a));
    await expect(writeHistory([changed], opts(remote))).rejects.toThrow(RecordConflictError);
    await expect(writeHistory([changed], opts(remote))).rejects.toThrow(`${recordPath(a)}: a different record already exists`);
    expect(await tip(remote)).toBe(before);
    expect(await show(remote, `bench/${recordPath(a)}`)).toBe(serializeRecord(a));
  });

  it('reports a corrupt record and one of unknown schema version by file and field, and leaves them byte-identical', async () => {
    const remote = await bareRemote(dirs);
    await writeHistory([smallRecord('js', 6)], opts(remote));
    const corrupt = 'runs/2026/11/20261120T060000Z-deadbee-js-77.json';
    const future = 'runs/2026/11/20261120T070000Z-deadbee-go-78.json';
    const corruptText = '{"schema": "bee-bench/history-record@1", "cases": [\n  {"id": 1,,}\n';
    const futureText = serializeRecord({ ...smallRecord('go', 7), schema: 'bee-bench/history-record@9' as never });
    await commitRaw(remote, { [`bench/${corrupt}`]: corruptText, [`bench/${future}`]: futureText }, dirs);

    const logs: string[] = [];
    const rep = await writeHistory([smallRecord('rs', 8)], opts(remote, { log: (l) => logs.push(l) }));
    expect(rep.invalid.map((i) => i.file)).toEqual([corrupt, future]);
    expect(rep.invalid[0]!.problem).toMatch(/^invalid JSON at line 2, column 12/);
    expect(rep.invalid[1]!.problem).toContain('schema: unknown record version "bee-bench/history-record@9"');
    expect(await show(remote, `bench/${corrupt}`)).toBe(corruptText);
    expect(await show(remote, `bench/${future}`)).toBe(futureText);
    const clone = await expectConsistent(remote);
    const index = JSON.parse(readFileSync(join(clone, 'bench/index.json'), 'utf8')) as HistoryIndex;
    expect(index.generated_from).toBe(2);
    expect(index.invalid).toEqual(rep.invalid);
    expect(readFileSync(join(clone, 'bench/series/cpu.ecdsa.sign.json'), 'utf8')).not.toContain('deadbee');
  });

  it('retention bounds the series files but keeps every record', async () => {
    const remote = await bareRemote(dirs);
    const records = Array.from({ length: 6 }, (_, i) => smallRecord('go', 10 + i));
    await writeHistory(records, opts(remote, { derive: { maxRuns: 2 } }));
    const clone = await expectConsistent(remote, 'bench', { maxRuns: 2 });
    expect((await lsTree(remote)).filter((p) => p.startsWith('bench/runs/'))).toHaveLength(6);
    const series = JSON.parse(readFileSync(join(clone, 'bench/series/cpu.ecdsa.sign.json'), 'utf8'));
    expect(series.series[0].points.map((p: { run_id: string }) => p.run_id)).toEqual(['1014', '1015']);
  });

  it('copies the site into the folder root in the same commit, and honours another folder', async () => {
    const remote = await bareRemote(dirs);
    const site = tempDir('site', dirs);
    writeFileSync(join(site, 'index.html'), '<!doctype html><script src="app.js"></script>');
    mkdirSync(join(site, 'assets'));
    writeFileSync(join(site, 'assets/app.js'), 'console.log(1)');
    const rep = await writeHistory([smallRecord('js', 20)], opts(remote, { siteDir: site, folder: 'perf/' }));
    expect(await git(remote, 'show', '--name-only', '--format=', rep.commit!)).toContain('perf/index.html');
    expect(await show(remote, 'perf/assets/app.js')).toBe('console.log(1)');
    await expectConsistent(remote, 'perf');

    writeFileSync(join(site, 'index.json'), '{}');
    await expect(writeHistory([smallRecord('js', 21)], opts(remote, { siteDir: site, folder: 'perf' }))).rejects.toThrow(/site file index\.json would shadow/);
  });

  it('fails clearly on an unreachable remote and never shows a credential', async () => {
    const remote = join(tempDir('missing', dirs), 'nope.git');
    await expect(writeHistory([smallRecord('js', 40)], opts(remote))).rejects.toThrow(
      /history: cannot fetch gh-pages: .*does not appear to be a git repository/,
    );
    expect(redact("fatal: unable to access 'https://x-access-token:ghs_secret@github.com/o/r.git/': 403")).toBe(
      "fatal: unable to access 'https://***@github.com/o/r.git/': 403",
    );
  });

  it('twelve writers sharing one workdir take turns: no record lost, no git error', async () => {
    const remote = await bareRemote(dirs);
    const workdir = join(tempDir('shared', dirs), 'history');
    const records = Array.from({ length: 12 }, (_, i) => smallRecord((['js', 'go', 'rs'] as const)[i % 3]!, 60 + i));
    const reports = await Promise.all(records.map((r) => writeHistory([r], opts(remote, { workdir }))));
    expect(reports.every((r) => r.commit !== null && r.added.length === 1)).toBe(true);
    const paths = (await lsTree(remote)).filter((p) => p.startsWith('bench/runs/'));
    expect(paths).toEqual(records.map((r) => `bench/${recordPath(r)}`).sort());
    await expectConsistent(remote);
  });

  it('a lock left by a writer that died does not block the next one', async () => {
    const remote = await bareRemote(dirs);
    const workdir = join(tempDir('stale', dirs), 'history');
    mkdirSync(`${workdir}.lock`, { recursive: true });
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(`${workdir}.lock`, old, old);
    const rep = await writeHistory([smallRecord('js', 75)], opts(remote, { workdir }));
    expect(rep.added).toHaveLength(1);
  });

  it('twelve writers pushing at once to an empty remote lose no record; derived files equal a fresh derivation', async () => {
    const remote = await bareRemote(dirs);
    const runners = ['js', 'go', 'rs'] as const;
    const records = Array.from({ length: 12 }, (_, i) => smallRecord(runners[i % 3]!, 31 + Math.floor(i / 3), i % 2 ? 'main' : 'dev'));
    const reports = await Promise.all(records.map((r) => writeHistory([r], opts(remote, { maxAttempts: 40 }))));
    expect(reports.every((r) => r.commit !== null && r.added.length === 1)).toBe(true);
    const paths = (await lsTree(remote)).filter((p) => p.startsWith('bench/runs/'));
    expect(paths).toEqual(records.map((r) => `bench/${recordPath(r)}`).sort());
    for (const r of records) expect(await show(remote, `bench/${recordPath(r)}`)).toBe(serializeRecord(r));
    const clone = await expectConsistent(remote);
    // One linear history, one commit per writer, and every commit only adds records.
    expect(await git(remote, 'rev-list', '--count', '--merges', 'gh-pages')).toBe('0\n');
    expect(await git(remote, 'rev-list', '--count', 'gh-pages')).toBe('12\n');
    const changes = await git(clone, 'log', '--format=', '--name-status', '--', 'bench/runs');
    expect(
      changes
        .trim()
        .split('\n')
        .filter(Boolean)
        .every((l) => l.startsWith('A\t')),
    ).toBe(true);
    expect(JSON.parse(readFileSync(join(clone, 'bench/index.json'), 'utf8')).generated_from).toBe(12);
    expect(reports.some((r) => r.attempts > 1)).toBe(true);
  });
});
