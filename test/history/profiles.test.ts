// Compact function profiles beside the records (src/history/profiles.ts), through real git against a
// local bare repository: a record's side file is written with it under profiles/, a rewrite with
// the same bytes is a no-op and with other bytes is refused like a record's, and reading back
// takes only a file of the right record, valid and within the size limit.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_RUN_PROFILES_BYTES, profilesPath, readRunProfiles } from '../../src/history/profiles.js';
import { recordPath, toRecord } from '../../src/history/record.js';
import { RecordConflictError, writeHistory } from '../../src/history/store.js';
import type { RunProfiles } from '../../src/profile/schema.js';
import { bareRemote, cloneBranch, context, countedResult, lsTree, removeAll, tempDir } from './helpers.js';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const profiles = (fn = 'swarm.calculateBMTRoot', cost = 1000): RunProfiles => ({
  runner: 'go',
  rows: [
    {
      caseId: 'cpu.bmt.file-root',
      label: 'quick',
      runner: 'go',
      total: 10_000,
      iterations: 3,
      cut: { self: 1, own: 1, allocations: 1 },
      self: [{ name: fn, self: cost }],
      own: [{ name: fn, cost, inclusive: cost, via: [{ name: 'runtime.mallocgc', ir: 10 }] }],
      allocations: [{ name: fn, calls: 5 }],
    },
  ],
});

describe('compact profiles in the history store', () => {
  it('writes a side file per record under profiles/, immutable like the record', async () => {
    const remote = await bareRemote(dirs);
    const record = toRecord(countedResult('go', 1), context(1));
    const workdir = tempDir('work', dirs);
    const first = await writeHistory([record], { remote, workdir, profiles: [profiles()] });
    expect(first.added).toEqual([recordPath(record)]);
    const files = await lsTree(remote);
    expect(files).toContain(`bench/${profilesPath(record)}`);
    expect(profilesPath(record)).toBe(recordPath(record).replace(/^runs\//, 'profiles/'));
    // The same bytes again: nothing to commit.
    expect((await writeHistory([record], { remote, workdir, profiles: [profiles()] })).commit).toBeNull();
    // Other bytes for the same record's side file: refused, as a changed record is.
    await expect(writeHistory([record], { remote, workdir, profiles: [profiles('swarm.other', 2000)] })).rejects.toThrow(RecordConflictError);
    // Another runner's profiles are not this record's.
    const other = toRecord(countedResult('rs', 2), context(2));
    await writeHistory([other], { remote, workdir, profiles: [profiles()] });
    expect(await lsTree(remote)).not.toContain(`bench/${profilesPath(other)}`);

    const clone = await cloneBranch(remote, dirs);
    const back = readRunProfiles(join(clone, 'bench'), record);
    expect(back).toEqual(profiles());
    expect(readRunProfiles(join(clone, 'bench'), other)).toBe('it ran without instruction counts, or before bee-bench kept profiles');
  });

  it('reads back only a valid file of its own record within the size limit', () => {
    const folder = tempDir('read', dirs);
    const record = toRecord(countedResult('go', 3), context(3));
    const put = (text: string) => {
      const path = join(folder, profilesPath(record));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    };
    const file = { schema: 'bee-bench/history-profiles@1', record: recordPath(record), runner: 'go', rows: profiles().rows };
    put(JSON.stringify(file));
    expect(readRunProfiles(folder, record)).toEqual(profiles());
    put(JSON.stringify({ ...file, record: 'runs/2026/11/other.json' }));
    expect(readRunProfiles(folder, record)).toMatch(/names another record/);
    put(JSON.stringify({ ...file, rows: [{ ...file.rows[0], self: [{ name: 'x'.repeat(1000), self: 1 }] }] }));
    expect(readRunProfiles(folder, record)).toMatch(/is not valid: rows\[0\]\.self\[0\]\.name/);
    put(JSON.stringify({ ...file, extra: 1 }));
    expect(readRunProfiles(folder, record)).toMatch(/is not valid/);
    put(' '.repeat(MAX_RUN_PROFILES_BYTES + 1));
    expect(readRunProfiles(folder, record)).toMatch(new RegExp(`${MAX_RUN_PROFILES_BYTES + 1} bytes, more than the ${MAX_RUN_PROFILES_BYTES} read`));
  });
});
