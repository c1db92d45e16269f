// Where an alerting row moved, through the publish path: the bundled action in mode: publish on two
// pushes of main, against the local OpenAPI-checked API server and a real bare gh-pages repository.
// The runs are real: bee-rs counted under valgrind (a plain process, one with a 5% spin injected
// into the manifest cases, one more plain for A/A), each run's compact profiles made by the
// single pipeline's own code from its dumps. The first push's profiles land in the history store
// beside its record; the second push opens an issue whose body shows the difference between the two
// (the spin first). Forged profiles: a hostile function name is escaped, and a row whose last good
// run kept no profile says so in one sentence.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { diffCompact } from '../../src/profile/compact.js';
import { COMPACT_CAPS, type RunProfiles } from '../../src/profile/schema.js';
import { compactRunProfiles } from '../../src/profile/run-compact.js';
import { MAX_RUN_PROFILES_BYTES } from '../../src/history/profiles.js';
import type { Result } from '../../src/spec/schema.js';
import { bareRemote, lsTree, removeAll, show } from '../history/helpers.js';
import { countedDumps } from '../profile/real-dumps.js';
import { pushEvent } from './events.js';
import { COMMIT_TIME, githubView, liveText, PublishBench, publishJson, scannedText } from './publish-harness.js';

const REPO = 'ethersphere/bee-rs';
const ROW = 'cpu.manifest.lookup-large';
const NOOP = 'cpu.harness.noop';
const LATER = '2026-11-20T06:00:00Z';
const dirs: string[] = [];
let bench: PublishBench;
let run = 9500;
const runs: Record<'plain' | 'again' | 'slowed', { result: Result; profiles: RunProfiles }> = {} as never;

beforeAll(async () => {
  bench = await new PublishBench(REPO).start();
  const [plain, again, slowed] = await Promise.all([
    countedDumps('rs', 'registry'),
    countedDumps('rs', 'registry'),
    countedDumps('rs', 'registry', { BEE_BENCH_SLOWDOWN: 'cpu.manifest.*:0.05' }),
  ]);
  for (const [name, d] of Object.entries({ plain, again, slowed })) {
    const profiles = compactRunProfiles('rs', d.dir, d.plan, d.run.result, mkdtempSync(join(tmpdir(), 'bee-bench-compact-')), () => {});
    runs[name as keyof typeof runs] = { result: d.run.result!, profiles: profiles! };
  }
}, 1_800_000);
afterAll(async () => {
  await bench?.close();
  removeAll(dirs);
});
beforeEach(() => {
  bench.server.issues.length = 0;
});

const sha = (n: number) => n.toString(16).padStart(2, '0').repeat(20);

/** One push of main measured `result` at commit `commit`, published with alert: issue. */
async function pushRun(remote: string, commit: string, time: string, result: Result, profiles: RunProfiles) {
  bench.server.addCommit({ sha: commit, message: 'A change', author: 'Octo Cat', date: time });
  const id = ++run;
  const json = { ...JSON.parse(publishJson(commit, [result], { timestamp: time })), profiles: [profiles] };
  bench.artifact(id, 'bee-bench-rs', { 'publish.json': JSON.stringify(json) }, commit);
  const r = await bench.publish(
    'push',
    pushEvent(REPO, 'refs/heads/main', '0'.repeat(40), commit),
    id,
    commit,
    {
      history: 'gh-pages',
      'history-remote': remote,
      alert: 'issue',
    },
    { GITHUB_REF_NAME: 'main' },
  );
  expect(r.code, r.stdout.slice(-3000)).toBe(0);
  return r;
}

/** The first data line of the markdown table whose header starts with `header`. */
const firstLine = (body: string, header: string) => body.split(`| ${header}`)[1]?.split('\n')[2] ?? '';

describe('alert issues show where a counted row moved since the last good run', () => {
  it('compact profiles are small, schema-bounded, and list nothing between two processes of one build', () => {
    const { plain, again } = runs;
    for (const p of [plain.profiles, again.profiles]) {
      expect(p.rows.map((r) => r.caseId).sort()).toEqual([NOOP, ROW]);
      expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThan(MAX_RUN_PROFILES_BYTES / 20);
      for (const row of p.rows) expect(row.self.length).toBeLessThanOrEqual(COMPACT_CAPS.self);
    }
    // The lookup row; the noop row's few hundred instructions can pick up a runtime thread's
    // work between processes on a loaded host (the noop count test retries for it).
    for (const row of plain.profiles.rows.filter((r) => r.caseId === ROW)) {
      const d = diffCompact(row, again.profiles.rows.find((r) => r.caseId === row.caseId)!);
      expect(d.self).toEqual([]);
      expect(d.own).toEqual([]);
      expect(d.allocations).toEqual([]);
    }
  });

  it(
    'the second push opens an issue naming the injected function first; the first push keeps its profiles beside its record',
    { timeout: 300_000 },
    async () => {
      const remote = await bareRemote(dirs);
      const good = sha(0x1a);
      const bad = sha(0x2b);
      await pushRun(remote, good, COMMIT_TIME, runs.plain.result, runs.plain.profiles);
      const files = await lsTree(remote);
      const side = files.find((f) => f.startsWith('bench/profiles/') && f.includes(good.slice(0, 7)))!;
      expect(side).toMatch(/^bench\/profiles\/\d{4}\/\d{2}\/.*-rs-\d+\.json$/);
      expect(files).toContain(side.replace('/profiles/', '/runs/'));
      expect(JSON.parse(await show(remote, side))).toMatchObject({ schema: 'bee-bench/history-profiles@1', runner: 'rs' });
      // The records themselves stay history-record@2, with no profile inside.
      const record = JSON.parse(await show(remote, side.replace('/profiles/', '/runs/')));
      expect(record.schema).toBe('bee-bench/history-record@2');
      expect(JSON.stringify(record)).not.toContain('"self"');

      const r = await pushRun(remote, bad, LATER, runs.slowed.result, runs.slowed.profiles);
      const issues = bench.server.issues.filter((i) => i.title.includes(ROW));
      expect(issues, r.stdout.slice(-3000)).toHaveLength(1);
      const body = issues[0]!.body;
      expect(body).toContain(`<summary>Where it moved: <code>${ROW}</code>`);
      expect(body).toContain(`last good run (\`${good.slice(0, 7)}\`) and this run (\`${bad.slice(0, 7)}\`)`);
      expect(firstLine(body, 'function |')).toMatch(/^\| `[^`]*spin[^`]*` \|/i);
      expect(bench.server.issues.some((i) => i.title.includes(NOOP))).toBe(false);
      expect(bench.server.violations).toEqual([]);
    },
  );

  it('escapes a hostile function name, and says plainly when the last good run kept no profile of the row', { timeout: 300_000 }, async () => {
    const remote = await bareRemote(dirs);
    const good = sha(0x3c);
    const bad = sha(0x4d);
    const { plain, slowed } = runs;
    // The last good run kept no profile of the noop row.
    await pushRun(remote, good, COMMIT_TIME, plain.result, { runner: 'rs', rows: plain.profiles.rows.filter((p) => p.caseId !== NOOP) });
    const hostile = '</details><img src=x onerror=alert(1)> @mallory @org/team #1 owner/repo#5 \u202egnp.exe [x](https://evil.example) `x` | y';
    const forged: RunProfiles = {
      runner: 'rs',
      rows: slowed.profiles.rows.map((p) => ({ ...p, self: p.self.map((l) => (/spin/i.test(l.name) ? { ...l, name: hostile } : l)) })),
    };
    // The noop row 2% dearer on counts, so it alerts too.
    const result: Result = {
      ...slowed.result,
      cases: slowed.result.cases.map((c) => (c.id === NOOP && c.instructions ? { ...c, instructions: c.instructions.map((n) => Math.round(n * 1.02)) } : c)),
    };
    await pushRun(remote, bad, LATER, result, forged);
    const moved = bench.server.issues.find((i) => i.title.includes(ROW))!.body;
    expect(moved).not.toContain('<img');
    expect(moved).not.toContain('@mallory');
    expect(moved).not.toContain('](https://evil');
    expect(moved).not.toMatch(/<\/details><img/);
    expect(firstLine(moved, 'function |')).toContain('&lt;/details&gt;&lt;img src=x onerror=alert(1)&gt;');
    // As GitHub shows the issue: no mention, team mention, reference or bidi control outside code and links.
    expect(liveText(scannedText(githubView(moved)))).toEqual([]);
    expect(moved).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    const noop = bench.server.issues.find((i) => i.title.includes(NOOP))!.body;
    expect(noop).toContain(`**Where it moved**: no function list: the last good run (${good.slice(0, 7)}) has no function profile of this row on record.`);
    expect(bench.server.violations).toEqual([]);
  });
});
