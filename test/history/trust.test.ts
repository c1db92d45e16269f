// The history store refuses what it cannot keep: a symlink committed on the history branch (a
// runs/ month pointing at an absolute folder, or the folder itself) fails the publish before any
// file is written, with nothing reported as added, nothing written outside the clone and the
// branch unchanged; records dated beyond the present are refused, and one already in the branch is
// set aside as invalid instead of expiring every other branch from the derived files.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { listRecordFiles, readRecords } from '../../src/history/read.js';
import { profilesPath, readRunProfiles } from '../../src/history/profiles.js';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordPath, serializeRecord } from '../../src/history/record.js';
import type { HistoryIndex } from '../../src/history/schema.js';
import { HistoryLinkError, writeHistory, type WriteOptions } from '../../src/history/store.js';
import { bareRemote, cloneBranch, commitRaw, git, lsTree, removeAll, smallRecord, tempDir, tip } from './helpers.js';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));
const opts = (remote: string, extra: Partial<WriteOptions> = {}): WriteOptions => ({
  remote,
  workdir: tempDir('work', dirs),
  backoff: { baseMs: 40, maxMs: 600 },
  ...extra,
});

/** Commits a symlink `path` -> `target` on the branch. */
async function commitLink(remote: string, path: string, target: string): Promise<void> {
  const d = await cloneBranch(remote, dirs);
  mkdirSync(join(d, path, '..'), { recursive: true });
  symlinkSync(target, join(d, path));
  await git(d, 'add', '--', path);
  await git(d, 'commit', '-q', '-m', 'test: a symlink');
  await git(d, 'push', '-q', 'origin', 'HEAD:refs/heads/gh-pages');
}

describe('symlinks on the history branch', () => {
  it.each([
    ['a runs/ month', 'bench/runs/2026/11'],
    ['runs/ itself', 'bench/runs'],
    ['the series folder', 'bench/series'],
  ])('%s pointing outside the clone fails the publish loudly, nothing lost or added', async (_what, link) => {
    const remote = await bareRemote(dirs);
    await writeHistory([smallRecord('go', 1)], opts(remote));
    const outside = tempDir('outside', dirs);
    const d = await cloneBranch(remote, dirs);
    await git(d, 'rm', '-q', '-r', '--ignore-unmatch', '--', link);
    await git(d, 'commit', '-q', '--allow-empty', '-m', 'test: make room for the link');
    await git(d, 'push', '-q', 'origin', 'HEAD:refs/heads/gh-pages');
    await commitLink(remote, link, outside);
    const before = await tip(remote);
    const treeBefore = await lsTree(remote);

    const err = await writeHistory([smallRecord('js', 2)], opts(remote)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HistoryLinkError);
    expect((err as Error).message).toContain(link);
    expect((err as Error).message).toMatch(/nothing was published/);
    expect(readdirSync(outside)).toEqual([]);
    expect(await tip(remote)).toBe(before);
    expect(await lsTree(remote)).toEqual(treeBefore);
  });
});

describe('reads follow no link', () => {
  it('listing records refuses a symlink at runs/ or under it, naming it; a profile side file behind a link is not read', async () => {
    const outside = tempDir('outside', dirs);
    writeFileSync(join(outside, 'token'), 'ghs_secret');
    const folder = tempDir('folder', dirs);
    mkdirSync(join(folder, 'runs', '2026'), { recursive: true });
    symlinkSync(join(outside, 'token'), join(folder, 'runs', '2026', 'x.json'));
    expect(() => listRecordFiles(folder)).toThrow(new HistoryLinkError('runs/2026/x.json').message);
    const linked = tempDir('linked', dirs);
    symlinkSync(outside, join(linked, 'runs'));
    expect(() => readRecords(linked)).toThrow(HistoryLinkError);
    const r = smallRecord('go', 1);
    const side = join(folder, profilesPath(r));
    mkdirSync(join(side, '..'), { recursive: true });
    symlinkSync(join(outside, 'token'), side);
    expect(readRunProfiles(folder, r)).toBe(`${profilesPath(r)} is a symbolic link; not read`);
  });
});

describe('records from the future', () => {
  const NOW = Date.UTC(2026, 11, 1);

  it('refuses a record dated beyond the present plus the skew, before touching the branch', async () => {
    const remote = await bareRemote(dirs);
    await writeHistory([smallRecord('go', 1)], opts(remote, { now: () => NOW }));
    const before = await tip(remote);
    const late = smallRecord('js', 2);
    late.started_at = '9999-12-31T00:00:00Z';
    await expect(writeHistory([late], opts(remote, { now: () => NOW }))).rejects.toThrow(/dated in the future \(started_at 9999-12-31T00:00:00Z\)/);
    const lateCommit = smallRecord('js', 3);
    lateCommit.commit.timestamp = new Date(NOW + 3_600_000).toISOString();
    await expect(writeHistory([lateCommit], opts(remote, { now: () => NOW }))).rejects.toThrow(/commit\.timestamp/);
    expect(await tip(remote)).toBe(before);
    // Within the skew is fine (clocks differ a little).
    const close = smallRecord('js', 4);
    close.commit.timestamp = new Date(NOW + 60_000).toISOString();
    expect((await writeHistory([close], opts(remote, { now: () => NOW }))).added).toEqual([recordPath(close)]);
  });

  it('a record from 9999 already on the branch is set aside: other branches stay in the derived files', async () => {
    const remote = await bareRemote(dirs);
    const feature = smallRecord('js', 5, 'feature');
    await writeHistory([smallRecord('js', 1, 'main'), feature], opts(remote, { now: () => NOW }));
    const planted = smallRecord('go', 6, 'main');
    planted.commit.timestamp = '9999-01-01T00:00:00Z';
    const plantedPath = 'runs/2026/11/20261120T060500Z-planted-go-1.json';
    await commitRaw(remote, { [`bench/${plantedPath}`]: serializeRecord(planted) }, dirs);
    const res = await writeHistory([smallRecord('rs', 7, 'main')], opts(remote, { now: () => NOW }));
    expect(res.invalid.map((i) => i.file)).toEqual([plantedPath]);
    expect(res.invalid[0]!.problem).toMatch(/dated in the future/);
    const clone = await cloneBranch(remote, dirs);
    const index = JSON.parse(readFileSync(join(clone, 'bench', 'index.json'), 'utf8')) as HistoryIndex;
    expect(JSON.stringify(index)).toContain('feature');
    // The planted file itself is left as it was.
    expect(readFileSync(join(clone, 'bench', plantedPath), 'utf8')).toBe(serializeRecord(planted));
    expect(existsSync(join(clone, 'bench', plantedPath))).toBe(true);
  });
});
