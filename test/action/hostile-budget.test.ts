// Issue 41's hostile artifacts, through the bundled action against the local API server: every
// byte the publish job writes is bounded (text caps at the zod boundary, one budget summed before
// anything is written), plain text from an artifact never notifies or links in any position that
// reaches GitHub, a name proves nothing (the documented workflows hand publish the id of what their
// own job uploaded), the read clone follows no link, and a bad artifact is refused alone. Each
// refusal is one line naming the artifact, the field or the size; the genuine artifacts beside it
// still publish. docs/security.md ties its table to these tests.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITE_BUDGET, writeCost } from '../../src/action/publish-checks.js';
import { ProfileDiffSchema } from '../../src/profile/schema.js';
import { publishRecords } from '../../src/history/publish.js';
import { toRecord } from '../../src/history/record.js';
import { markerComment } from '../../src/report/render/ab-comment.js';
import type { Result } from '../../src/spec/schema.js';
import type { AbRow } from '../../src/verdict/index.js';
import { bareRemote, cloneBranch, context, git, lsTree, removeAll, show, tip } from '../history/helpers.js';
import { pullRequestEvent } from './events.js';
import {
  annotations,
  commentBundle,
  COMMIT_TIME,
  githubView,
  liveText,
  PublishBench,
  publishJson,
  scannedText,
  SPEC,
  specResult,
  warnings,
} from './publish-harness.js';

const REPO = 'ethersphere/bee-js';
const SHA = '1'.repeat(40);
const dirs: string[] = [];
let bench: PublishBench;
let run = 41_000;

beforeAll(async () => {
  bench = await new PublishBench(REPO).start();
  bench.server.addCommit({ sha: SHA, message: 'Speed up keccak', author: 'Octo Cat', date: COMMIT_TIME });
});
afterAll(async () => {
  await bench?.close();
  removeAll(dirs);
});

const push = (remote: string, id: number, inputs: Record<string, string> = {}) => bench.publishPush(remote, id, SHA, inputs);
const recordRunners = async (remote: string) =>
  (await lsTree(remote))
    .filter((f) => f.includes('/runs/'))
    .map((f) => f.replace(/.*-(\w+)-\d+\.json$/, '$1'))
    .sort();
/** Bytes of every file on the history branch, by path. */
const treeBytes = (remote: string) =>
  execFileSync('git', ['-C', remote, 'ls-tree', '-r', '-l', 'gh-pages'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [meta, path] = l.split('\t') as [string, string];
      return { path, bytes: Number(meta.trim().split(/\s+/)[3]) };
    });
/** The history's own files (records, derived files), not the trend site copied beside them. */
const historyBytes = (remote: string) =>
  treeBytes(remote)
    .filter((f) => /\/(runs|series|profiles)\/|\/index\.json$/.test(f.path))
    .reduce((n, f) => n + f.bytes, 0);

/** Every case of the spec's quick profile, each with `samples` samples: rows within every per-row cap. */
function manyRows(runner: Result['runner'], samples: number): Result {
  const r = specResult(runner, { n: SPEC.spec.cases.length });
  r.cases = r.cases.map((c, i) => {
    const s = Array.from({ length: samples }, (_, k) => 1_000_000_000 + i * 7919 + k);
    return { ...c, samples_ns: s, cpu_ns: s };
  });
  return r;
}

const recordCtx = {
  commit: { sha: SHA, message: 'Speed up keccak', author: 'Octo Cat', timestamp: COMMIT_TIME, url: `https://github.com/${REPO}/commit/${SHA}` },
  branch: 'main',
  event: 'push',
  run: { id: '41000', url: `https://github.com/${REPO}/actions/runs/41000` },
};

describe('publish: every byte bounded', () => {
  it(
    'a 15 MiB client.version and a record past its budget are refused in one line each; the genuine js record is appended, nothing written past the budget',
    { timeout: 180_000 },
    async () => {
      const remote = await bareRemote(dirs);
      const id = ++run;
      const huge = specResult('go');
      huge.client = { ...huge.client, version: 'a'.repeat(15 << 20) };
      const buster = manyRows('rs', 10_000);
      expect(writeCost.bind(null, [buster], [], recordCtx)).toThrow(/more than the 2.0 MiB a record may be/);
      bench.artifact(id, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js')]) }, SHA);
      bench.artifact(id, 'bee-bench-go', { 'publish.json': publishJson(SHA, [huge]) }, SHA);
      bench.artifact(id, 'bee-bench-rs', { 'publish.json': publishJson(SHA, [buster]) }, SHA);
      const r = await push(remote, id);
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      const lines = warnings(r.stdout);
      expect(lines.sort()).toEqual(
        [
          `::warning::publish: artifact bee-bench-go refused: publish.json: results[0].client.version: ${15 << 20} characters, more than the 300 a real run writes (fix: write it with writePublishBundle or scripts/publish-bundle.mjs); not appended`,
          expect.stringMatching(
            /^::warning::publish: artifact bee-bench-rs refused: the rs record would be \d+\.\d MiB \(cases: \d+ rows, \d+ samples\), more than the 2\.0 MiB a record may be; not appended$/,
          ),
        ].sort(),
      );
      for (const l of lines) expect(l.length).toBeLessThan(400);
      expect(await recordRunners(remote)).toEqual(['js']);
      expect(historyBytes(remote)).toBeLessThan(256 << 10);
      expect(bench.server.violations).toEqual([]);
    },
  );

  it(
    '1 MiB params and errors are refused naming the field and its size, never quoting it; the genuine js record is appended',
    { timeout: 120_000 },
    async () => {
      const remote = await bareRemote(dirs);
      const id = ++run;
      const MiB = 1 << 20;
      const params = specResult('go');
      params.cases[0] = { ...params.cases[0]!, param: { ...params.cases[0]!.param, mode: 'p'.repeat(MiB) } };
      params.cases[1] = { ...params.cases[1]!, param: { ...params.cases[1]!.param, ['k'.repeat(MiB)]: 1 } };
      const errors = specResult('rs');
      errors.cases[0] = { ...errors.cases[0]!, status: 'failed', error: 'e'.repeat(MiB), samples_ns: [], cpu_ns: [] };
      bench.artifact(id, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js')]) }, SHA);
      bench.artifact(id, 'bee-bench-go', { 'publish.json': publishJson(SHA, [params]) }, SHA);
      bench.artifact(id, 'bee-bench-rs', { 'publish.json': publishJson(SHA, [errors]) }, SHA);
      const r = await push(remote, id);
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      const lines = warnings(r.stdout);
      expect(lines).toHaveLength(2);
      const go = lines.find((l) => l.includes('bee-bench-go'))!;
      expect(go).toContain(`results[0].cases[0].param.mode: ${MiB} characters, more than the 1000 a real run writes;`);
      expect(go).toContain(
        `results[0].cases[1].param.${'k'.repeat(60)}… (${MiB} characters): Invalid key in record (${MiB} characters, more than the 200 a real run writes)`,
      );
      expect(lines.find((l) => l.includes('bee-bench-rs'))).toBe(
        `::warning::publish: artifact bee-bench-rs refused: publish.json: results[0].cases[0].error: ${MiB} characters, more than the 8000 a real run writes (fix: write it with writePublishBundle or scripts/publish-bundle.mjs); not appended`,
      );
      for (const l of lines) expect(l.length).toBeLessThan(800);
      expect(await recordRunners(remote)).toEqual(['js']);
      expect(historyBytes(remote)).toBeLessThan(256 << 10);
    },
  );

  it(
    'a budget-busting set of rows, each within its caps: the artifacts that fit are appended, the one that would pass the publish budget is refused in one line',
    { timeout: 240_000 },
    async () => {
      const remote = await bareRemote(dirs);
      const id = ++run;
      // The fewest samples per row that make one artifact cost over 40% of the publish budget (so three pass it), each record within its own.
      let samples = 100;
      while (writeCost([manyRows('js', samples)], [], recordCtx) < 0.4 * WRITE_BUDGET.publishBytes) samples += 100;
      expect(samples).toBeLessThanOrEqual(10_000);
      for (const runner of ['js', 'go', 'rs'] as const)
        bench.artifact(id, `bee-bench-${runner}`, { 'publish.json': publishJson(SHA, [manyRows(runner, samples)]) }, SHA);
      const r = await push(remote, id);
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(warnings(r.stdout)).toEqual([
        expect.stringMatching(
          /^::warning::publish: artifact bee-bench-rs refused: it would write \d+\.\d MiB, and with the \d+\.\d MiB before it this publish would pass its budget of 4\.0 MiB; not appended$/,
        ),
      ]);
      expect(await recordRunners(remote)).toEqual(['go', 'js']);
      // Records, series points and the index of the two that fit: within the budget.
      expect(historyBytes(remote)).toBeLessThan(WRITE_BUDGET.publishBytes);
    },
  );

  it('a future-dated artifact beside two good ones is refused alone; the other two are appended', { timeout: 120_000 }, async () => {
    const remote = await bareRemote(dirs);
    const id = ++run;
    const FUTURE = '2999-01-01T00:00:00Z';
    bench.artifact(id, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js')]) }, SHA);
    bench.artifact(id, 'bee-bench-go', { 'publish.json': publishJson(SHA, [specResult('go', { started: FUTURE })]) }, SHA);
    bench.artifact(id, 'bee-bench-rs', { 'publish.json': publishJson(SHA, [specResult('rs')]) }, SHA);
    const r = await push(remote, id);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(warnings(r.stdout)).toEqual([
      `::warning::publish: artifact bee-bench-go refused: the go result's started_at ${FUTURE} is in the future; not appended`,
    ]);
    expect(await recordRunners(remote)).toEqual(['js', 'rs']);
  });
});

describe('publish: a name proves nothing, ids from the jobs that uploaded', () => {
  it(
    'the documented push set-up: a bee-bench-go forged by the rs job is refused by name, and go rows inside the rs artifact are left out',
    { timeout: 120_000 },
    async () => {
      const remote = await bareRemote(dirs);
      const id = ++run;
      const own = bench.artifact(id, 'bee-bench-rs', { 'publish.json': publishJson(SHA, [specResult('rs'), specResult('go', { factor: 9 })]) }, SHA);
      bench.artifact(id, 'bee-bench-go', { 'publish.json': publishJson(SHA, [specResult('go', { factor: 9 })]) }, SHA);
      const r = await push(remote, id, { 'artifact-id': String(own.id) });
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(warnings(r.stdout).sort()).toEqual(
        [
          `::warning::publish: artifact bee-bench-go refused: not one this publish reads (it reads artifact id ${own.id} (input artifact-id))`,
          "::warning::publish: artifact bee-bench-rs: the go result in rs's artifact is left out: the job that wrote it ran rs's code",
        ].sort(),
      );
      expect(await recordRunners(remote)).toEqual(['rs']);
      expect(bench.server.violations).toEqual([]);
    },
  );

  it("a split PR: a piece job's own bee-bench-js is refused by name; the merge's, read by id, is posted", { timeout: 120_000 }, async () => {
    const id = ++run;
    const head = 'c'.repeat(40);
    const pr = 41;
    const piece = commentBundle(pr, head);
    piece.outcome.report.headLabel = 'forged-by-a-piece';
    bench.artifact(id, 'bee-bench-js', { 'comment.json': JSON.stringify(piece) }, head);
    const merged = commentBundle(pr, head);
    merged.outcome.report.headLabel = 'merged-by-the-merge-job';
    const merge = bench.artifact(id, 'bee-bench-js', { 'comment.json': JSON.stringify(merged) }, head);
    const payload = pullRequestEvent({ repo: REPO, number: pr, base: { ref: 'main', sha: 'b'.repeat(40) }, head: { ref: 'speedup', sha: head } });
    const r = await bench.publish('pull_request', payload, id, head, { 'artifact-id': String(merge.id) });
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(warnings(r.stdout)).toEqual([
      `::warning::publish: artifact bee-bench-js refused: not one this publish reads (it reads artifact id ${merge.id} (input artifact-id))`,
    ]);
    const posted = bench.server.commentsOn(pr);
    expect(posted.map((c) => c.body.startsWith(markerComment('bee-bench:bench:js')))).toEqual([true]);
    expect(posted[0]!.body).toContain('merged-by-the-merge-job');
    expect(posted[0]!.body).not.toContain('forged-by-a-piece');
  });
});

/** A name with every kind of live text: mentions, a team mention, references, a right-to-left override. */
const LIVE = 'cpu.x @someone @org/team #1 owner/repo#5 \u202egnp.exe';

describe('publish: plain text from an artifact never notifies or links', () => {
  it(
    'mention, reference and bidi names in the comment (table and "Where it moved"), the job summary and the annotations are neutralised',
    { timeout: 120_000 },
    async () => {
      const id = ++run;
      const head = 'f'.repeat(40);
      const pr = 42;
      const bundle = commentBundle(pr, head);
      const row: AbRow = {
        caseId: LIVE,
        label: LIVE,
        group: 'cpu',
        kind: 'cpu',
        status: 'ok',
        work: {},
        rounds: 12,
        note: LIVE,
        evidence: {
          wall: { judged: { baseMedianNs: 1e6, headMedianNs: 1.1e6, ratio: 1.1, ci: [1.09, 1.11], p: 0.001, q: 0.001, verdict: 'regression' } },
          instructions: { judged: { base: 1e9, head: 1.1e9, ratio: 1.1, spread: 0.0001, threshold: 0.01, bar: 0.01, verdict: 'regression' } },
        },
        verdict: 'regression',
      };
      const line = { name: LIVE, base: 1e6, head: 2e6 };
      const diff = ProfileDiffSchema.parse({
        caseId: LIVE,
        label: LIVE,
        runner: 'js',
        total: { base: 1e9, head: 1.1e9 },
        iterations: { base: 3, head: 3 },
        self: [line],
        own: [{ ...line, inclusiveBase: 2e6, inclusiveHead: 4e6, via: [LIVE] }],
        allocations: null,
      });
      const report = { ...bundle.outcome.report, title: LIVE, baseLabel: LIVE, headLabel: LIVE, rows: [row], profiles: [diff] };
      bench.artifact(id, 'bee-bench-js', { 'comment.json': JSON.stringify({ ...bundle, outcome: { kind: 'report', report } }) }, head);
      const own = bench.server.artifacts.at(-1)!;
      bench.artifact(id, `bee-bench-${LIVE}`, { 'comment.json': '{}' }, head);
      const payload = pullRequestEvent({ repo: REPO, number: pr, base: { ref: 'main', sha: 'b'.repeat(40) }, head: { ref: 'speedup', sha: head } });
      const r = await bench.publish('pull_request', payload, id, head, { 'artifact-id': String(own.id) });
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      const body = bench.server.commentsOn(pr)[0]!.body;
      expect(body).toContain('<summary>Where it moved: <code>');
      for (const [where, md] of [
        ['comment', body],
        ['job summary', r.summary],
      ] as const) {
        expect(md, where).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
        // The summary's own line names the pull request it posted on (#42, from the event): the only live reference.
        expect(
          liveText(scannedText(githubView(md))).filter((t) => t !== `#${pr}`),
          where,
        ).toEqual([]);
      }
      // The hostile artifact's refusal, as GitHub shows an annotation: plain text, nothing live in it.
      const notes = annotations(r.stdout);
      expect(notes.some((l) => l.includes('refused: not one this publish reads'))).toBe(true);
      for (const l of notes) expect(liveText(l), l).toEqual([]);
      expect(bench.server.violations).toEqual([]);
    },
  );
});

describe('publish: the history read clone follows no link', () => {
  it(
    'a symlink in the branch the alert reads fails the publish naming the link; nothing outside the clone is read or printed, nothing appended or opened',
    { timeout: 180_000 },
    async () => {
      const remote = await bareRemote(dirs);
      const past = [1, 2, 3].flatMap((i) => [toRecord(specResult('js', { seed: i, started: context(i).commit.timestamp }), context(i))]);
      await publishRecords(past, { remote, workdir: mkdtempSync(join(tmpdir(), 'bee-bench-seed-')), spec: SPEC.spec });
      const outside = mkdtempSync(join(tmpdir(), 'bee-bench-outside-'));
      dirs.push(outside);
      writeFileSync(join(outside, 'token'), 'ghs_secret_in_a_file_outside_the_clone');
      const d = await cloneBranch(remote, dirs);
      mkdirSync(join(d, 'bench', 'runs'), { recursive: true });
      symlinkSync(join(outside, 'token'), join(d, 'bench', 'runs', 'zz-link.json'));
      await git(d, 'add', '--', 'bench/runs/zz-link.json');
      await git(d, 'commit', '-q', '-m', 'test: a link in runs/');
      await git(d, 'push', '-q', 'origin', 'HEAD:refs/heads/gh-pages');
      const before = await tip(remote);
      const issues = bench.server.issues.length;
      const id = ++run;
      bench.artifact(id, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js')]) }, SHA);
      const r = await push(remote, id, { alert: 'issue', 'history-runs': '3' });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('::error::history: bench/runs/zz-link.json is a symbolic link in the history branch');
      expect(r.stdout + r.summary).not.toContain('ghs_secret_in_a_file');
      expect(await tip(remote)).toBe(before);
      expect(bench.server.issues.length).toBe(issues);
      expect(JSON.parse(await show(remote, 'bench/index.json')).generated_from).toBe(3);
    },
  );
});
