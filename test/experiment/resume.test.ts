// A run SIGKILLed in the middle of its downloads and started again on the same folder: nothing
// lost, nothing repeated (against the fake node, through the CLI and the js runner); and the
// journal reader's handling of a torn last line, units and payloads that resumes rely on.
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunner } from '../../src/build/index.js';
import { JournalWriter, loadJournal } from '../../src/experiment/journal.js';
import { runStatus } from '../../src/experiment/status.js';
import { cliRun, expectNothingLostOrRepeated, journalRows } from './kill-resume.js';
import { FAKE_BATCH, startFakeNode, type FakeNode } from './fake-node.js';

let node: FakeNode;
beforeAll(async () => {
  await buildRunner({ runner: 'js', source: { kind: 'registry' }, log: () => {} });
  // Every third download of a payload fails once, so resumed units also carry failed attempts.
  node = await startFakeNode({ download: (size, n) => (size % 3 === 0 && n === 1 ? 'fail' : 'ok') });
}, 600_000);
afterAll(() => node?.close());

describe('kill -9 in the middle of the downloads, then resume', () => {
  it('continues after the last row: no unit lost or repeated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-exp-kill-'));
    const args = ['experiment', 'run', '--runner', 'js', '--out', dir, '--node', `a=x@${node.url}#${FAKE_BATCH}`, '--node', `b=y@${node.url}#${FAKE_BATCH}`];
    const design = ['--sizes', '999,1500,3000', '--levels', '0,2', '--strategies', 'DATA,RACE', '--replicates', '3', '--attempts', '3', '--timeout', '5'];
    const units = 3 * 3 * 2 * 3;
    const first = await cliRun([...args, ...design], { dir, killAt: units / 2, limitMs: 120_000 });
    expect(first.signal, first.stderr).toBe('SIGKILL');
    const before = journalRows(dir).filter((r) => r.type === 'download').length;
    expect(before).toBeGreaterThanOrEqual(units / 2);
    // The same command again (the design flags too: the same study, continued).
    const second = await cliRun([...args, ...design], { dir, limitMs: 120_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/continuing/);
    const rows = journalRows(dir);
    expectNothingLostOrRepeated(rows, units, 3);
    expect(rows.filter((r) => r.type === 'resume')).toHaveLength(1);
    const st = await runStatus(dir);
    expect(st).toMatchObject({ units, downloaded: units, downloadFailed: 0, left: { uploads: 0, syncs: 0, downloads: 0 } });
  }, 300_000);

  it('a design that differs from the folder’s run is refused, naming the fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-exp-other-'));
    const base = ['experiment', 'upload', '--runner', 'js', '--out', dir, '--node', `a=x@${node.url}#${FAKE_BATCH}`, '--levels', '0', '--replicates', '1'];
    expect((await cliRun([...base, '--sizes', '1000'], { dir, limitMs: 60_000 })).code).toBe(0);
    const again = await cliRun([...base, '--sizes', '2000'], { dir, limitMs: 60_000 });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already holds a run of another design.*use a new --out folder/);
  }, 120_000);
});

describe('the journal', () => {
  it('cuts a torn last line off, keeps it in journal.torn, reports it, and appends after the last complete row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-exp-torn-'));
    const w = await JournalWriter.open(dir);
    w.append({ type: 'phase', phase: 'upload', state: 'start', at: '2026-01-01T00:00:00Z' });
    w.close();
    appendFileSync(join(dir, 'journal.jsonl'), '{"type":"upload","unit":"10');
    const s = await loadJournal(dir);
    expect(s.torn).toBe('{"type":"upload","unit":"10');
    expect(s.rows).toBe(1);
    const w2 = await JournalWriter.open(dir);
    expect(w2.state.torn).toBe('{"type":"upload","unit":"10');
    w2.append({ type: 'resume', at: '2026-01-01T00:00:01Z' });
    w2.close();
    expect(readFileSync(join(dir, 'journal.torn'), 'utf8')).toBe('{"type":"upload","unit":"10\n');
    const lines = readFileSync(join(dir, 'journal.jsonl'), 'utf8').split('\n');
    expect(lines.map((l) => (l ? JSON.parse(l).type : ''))).toEqual(['phase', 'resume', '']);
  });

  it('a bad line before the last is an error naming the line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-exp-bad-'));
    appendFileSync(join(dir, 'journal.jsonl'), '{"type":"resume","at":"x"}\nnot json\n{"type":"resume","at":"y"}\n');
    await expect(loadJournal(dir)).rejects.toThrow(/journal\.jsonl:2: not JSON/);
  });
});
