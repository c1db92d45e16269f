// The engine against a misbehaving node, through the real js runner's `ops`: downloads that fail k
// times then succeed (each attempt journaled), never succeed (the unit fails after `attempts`),
// return a wrong byte (a failure, never a time), hang (ended by the per-attempt timeout); a sync
// signal that never completes (the ceiling, journaled synced:false, the download still made); and
// a runner that stops answering (killed, started again, the attempt journaled as failed).
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunner, type BuiltRunner } from '../../src/build/index.js';
import { checkDesign } from '../../src/experiment/design.js';
import { runExperiment } from '../../src/experiment/index.js';
import { loadJournal } from '../../src/experiment/journal.js';
import { DESIGN_SCHEMA, JournalRowSchema, type DownloadRow, type JournalRow, type SyncRow } from '../../src/experiment/schema.js';
import { runStatus } from '../../src/experiment/status.js';
import { FAKE_BATCH, startFakeNode, type Answer, type FakeNode } from './fake-node.js';

let js: BuiltRunner;
const nodes: FakeNode[] = [];
beforeAll(async () => {
  js = await buildRunner({ runner: 'js', source: { kind: 'registry' }, log: () => {} });
}, 600_000);
afterAll(async () => {
  for (const n of nodes) await n.close();
});

const rows = (dir: string): JournalRow[] =>
  readFileSync(join(dir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JournalRowSchema.parse(JSON.parse(l)));

function design(url: string, over: Record<string, unknown> = {}) {
  return checkDesign(
    {
      schema: DESIGN_SCHEMA,
      sizes: [1000],
      levels: [0],
      strategies: [],
      nodes: [{ label: 'a', release: 'fake', url, batch_id: FAKE_BATCH }],
      replicates: 1,
      attempts: 3,
      upload: 'deferred',
      endpoint: 'bytes',
      wait: { signal: 'auto', ceiling_s: 1, poll_s: 0.2 },
      timeout_s: 2,
      seed: '11'.repeat(32),
      ...over,
    },
    'test design',
  );
}

async function fake(download: (size: number, n: number) => Answer, o: { mode?: 'dev' | 'full'; syncs?: boolean } = {}) {
  const n = await startFakeNode({ download, ...o });
  nodes.push(n);
  return n;
}

const tmp = () => mkdtempSync(join(tmpdir(), 'bee-bench-exp-'));

describe('the experiment against a faulty node (js runner)', () => {
  it('journals every attempt: fail k times then succeed, never, wrong bytes, hang', async () => {
    // Sizes pick the fault: 1000 fails twice then answers, 2000 never, 3000 a wrong byte, 4000 hangs once then answers.
    const node = await fake((size, n) => {
      if (size === 1000) return n <= 2 ? 'fail' : 'ok';
      if (size === 2000) return 'fail';
      if (size === 3000) return 'wrong';
      if (size === 4000) return n === 1 ? 'hang' : 'ok';
      return 'ok';
    });
    const dir = tmp();
    await runExperiment({
      dir,
      design: design(node.url, { sizes: [1000, 2000, 3000, 4000] }),
      runner: 'js',
      command: js.command,
      phases: ['upload', 'sync', 'download'],
      log: () => {},
    });
    const all = rows(dir);
    expect(all[0]!.type).toBe('run');
    const dl = (size: number) => all.filter((r): r is DownloadRow => r.type === 'download' && r.size === size);
    expect(dl(1000).map((r) => [r.attempt, r.ok])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(dl(1000)[0]!.error).toMatch(/500/);
    expect(dl(1000)[2]!.bytes).toBe(1000);
    expect(dl(2000).map((r) => [r.attempt, r.ok])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(dl(3000).every((r) => !r.ok && /^content mismatch: sha256/.test(r.error ?? ''))).toBe(true);
    expect(dl(3000)).toHaveLength(3);
    expect(dl(4000).map((r) => [r.attempt, r.ok])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(dl(4000)[0]!.error).toBe('timeout after 2000 ms');
    // A dev node: the sync wait is "none", said in the row.
    const syncs = all.filter((r): r is SyncRow => r.type === 'sync');
    expect(syncs).toHaveLength(4);
    expect(syncs.every((s) => s.signal === 'none' && s.synced && /dev node/.test(s.detail ?? ''))).toBe(true);
    const st = await runStatus(dir);
    expect(st).toMatchObject({ units: 4, uploaded: 4, downloaded: 2, downloadFailed: 2, left: { uploads: 0, syncs: 0, downloads: 0 } });
    expect(st.phasesDone.sort()).toEqual(['download', 'sync', 'upload']);
  }, 120_000);

  it('a sync signal that never completes: the ceiling is journaled and the unit still downloaded', async () => {
    const node = await fake(() => 'ok', { mode: 'full', syncs: false });
    const dir = tmp();
    await runExperiment({ dir, design: design(node.url), runner: 'js', command: js.command, phases: ['upload', 'sync', 'download'], log: () => {} });
    const all = rows(dir);
    const sync = all.find((r): r is SyncRow => r.type === 'sync')!;
    expect(sync).toMatchObject({ signal: 'tag', synced: false });
    expect(sync.waited_ms).toBeGreaterThanOrEqual(1000);
    expect(sync.detail).toMatch(/ceiling of 1 s reached: tag \d+: synced 0 \+ seen 0 of split 1/);
    expect(all.filter((r) => r.type === 'download').map((r) => (r as DownloadRow).ok)).toEqual([true]);
    expect((await runStatus(dir)).ceilingReached).toBe(1);
  }, 60_000);

  it('a tag that syncs ends the wait', async () => {
    const node = await fake(() => 'ok', { mode: 'full', syncs: true });
    const dir = tmp();
    await runExperiment({ dir, design: design(node.url), runner: 'js', command: js.command, phases: ['upload', 'sync'], log: () => {} });
    expect(rows(dir).find((r) => r.type === 'sync')).toMatchObject({ signal: 'tag', synced: true });
  }, 60_000);

  it('a runner that stops answering is killed and started again; the attempt is journaled as failed', async () => {
    const node = await fake(() => 'ok');
    // A wrapper around the js runner that, on its first start, answers nothing after ready.
    const dir = tmp();
    const marker = join(dir, 'started-once');
    const wrapper = join(dir, 'wrapper.sh');
    writeFileSync(
      wrapper,
      `#!/bin/sh\nif [ ! -e "${marker}" ]; then touch "${marker}"; echo '{"ready":true,"runner":"js","client":{"name":"bee-js","version":"0"}}'; exec sleep 600; fi\nexec "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    const command = { ...js.command, argv: [wrapper, ...js.command.argv] };
    const d = design(node.url, { timeout_s: 0.5 });
    // The upload goes through a normal runner first (a separate session), then the download meets the hang.
    writeFileSync(marker, '');
    await runExperiment({ dir, design: d, runner: 'js', command, phases: ['upload', 'sync'], log: () => {} });
    const { rmSync } = await import('node:fs');
    rmSync(marker);
    await runExperiment({ dir, runner: 'js', command, phases: ['download'], log: () => {} });
    const dl = rows(dir).filter((r): r is DownloadRow => r.type === 'download');
    expect(dl.map((r) => [r.attempt, r.ok])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(dl[0]!.error).toMatch(/did not answer within 10500 ms \(the 0.5 s timeout and a 10 s margin\): killed and started again/);
    expect(rows(dir).filter((r) => r.type === 'resume')).toHaveLength(1);
  }, 60_000);

  it('a crashed runner is an error naming it, and the journal keeps every row before it', async () => {
    const node = await fake(() => 'ok');
    const dir = tmp();
    const crash = join(dir, 'crash.sh');
    writeFileSync(
      crash,
      `#!/bin/sh\necho '{"ready":true,"runner":"js","client":{"name":"bee-js","version":"0"}}'\necho 'boom: the client threw' >&2\nexit 3\n`,
    );
    chmodSync(crash, 0o755);
    await expect(runExperiment({ dir, design: design(node.url), runner: 'js', command: { argv: [crash] }, phases: ['upload'], log: () => {} })).rejects.toThrow(
      /runner js \(ops, node a\): it exited with code 3; its last log lines:\n {2}boom: the client threw/,
    );
    const s = await loadJournal(dir);
    expect(s.run?.runner).toBe('js');
    expect(s.uploads.size).toBe(0);
  }, 60_000);
});
