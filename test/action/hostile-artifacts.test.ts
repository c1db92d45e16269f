// The publish job against hostile artifacts, through the bundled action and the local API server:
// whatever a job that ran client code uploaded to its run (ACTIONS_RUNTIME_TOKEN lets it upload
// under any name) is refused with one warning line naming the artifact and why, nothing is
// appended, posted, opened or closed that should not be, and the genuine artifact beside it still
// publishes. docs/security.md maps its claims to these tests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertMarker, keyOf } from '../../src/alert/body.js';
import { ALERT_CAPS, ALERT_LABEL } from '../../src/alert/issues.js';
import { publishRecords } from '../../src/history/publish.js';
import { toRecord } from '../../src/history/record.js';
import { markerComment } from '../../src/report/render/ab-comment.js';
import { bareRemote, context, lsTree, removeAll, show, tip } from '../history/helpers.js';
import { repository, workflowRunEvent } from './events.js';
import { commentBundle, COMMIT_TIME, PublishBench, publishJson, SPEC, specResult, warnings } from './publish-harness.js';

const REPO = 'ethersphere/bee-js';
const SHA = '1'.repeat(40);
const OTHER = '2'.repeat(40);
const BACKDATED = '2020-01-01T00:00:00Z';
const dirs: string[] = [];
let bench: PublishBench;
let run = 7000;

beforeAll(async () => {
  bench = await new PublishBench(REPO).start();
  bench.server.addCommit({ sha: SHA, message: 'Speed up keccak', author: 'Octo Cat', date: COMMIT_TIME });
});
afterAll(async () => {
  await bench?.close();
  removeAll(dirs);
});

const push = (remote: string, id: number, inputs: Record<string, string> = {}) => bench.publishPush(remote, id, SHA, inputs);
const records = async (remote: string) => (await lsTree(remote)).filter((f) => f.includes('/runs/'));

describe('publish: hostile artifacts are refused by name and reason; the genuine one still publishes', () => {
  it(
    "the nightly reads only the merge's artifact, by id: a shard's publish.json and a forged bee-bench-js are refused by name",
    { timeout: 120_000 },
    async () => {
      const remote = await bareRemote(dirs);
      const id = ++run;
      const merged = bench.artifact(id, 'bee-bench-nightly', { 'publish.json': publishJson(SHA, [specResult('go'), specResult('js'), specResult('rs')]) }, SHA);
      bench.artifact(id, 'bee-bench-shard-1', { 'publish.json': publishJson(SHA, [specResult('js', { factor: 9 })]) }, SHA);
      bench.artifact(id, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js', { factor: 9 })]) }, SHA);
      bench.artifact(id, 'nightly-shard-1', { 'results.json': '{}' }, SHA);
      const r = await bench.publish(
        'schedule',
        { schedule: '17 3 * * *', repository: repository(REPO) },
        id,
        SHA,
        { history: 'gh-pages', 'history-remote': remote, 'artifact-id': String(merged.id) },
        { GITHUB_REF_NAME: 'main' },
      );
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(warnings(r.stdout)).toEqual([
        `::warning::publish: artifact bee-bench-shard-1 refused: not one this publish reads (it reads artifact id ${merged.id} (input artifact-id))`,
        `::warning::publish: artifact bee-bench-js refused: not one this publish reads (it reads artifact id ${merged.id} (input artifact-id))`,
      ]);
      const files = await records(remote);
      expect(files.map((f) => f.replace(/.*-(\w+)-\d+\.json$/, '$1')).sort()).toEqual(['go', 'js', 'rs']);
      // The merge's numbers, not the shard's forgery.
      const js = JSON.parse(await show(remote, files.find((f) => f.includes('-js-'))!));
      expect(js.cases[0].median_ns).toBeLessThan(200_000);
      expect(bench.server.violations).toEqual([]);
    },
  );

  it(
    'a push run: an extra artifact, a backdated and a foreign-commit publish.json are refused; the genuine js record is appended with the API time',
    { timeout: 120_000 },
    async () => {
      const remote = await bareRemote(dirs);
      const id = ++run;
      bench.artifact(id, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js')]) }, SHA);
      bench.artifact(id, 'bee-bench-go', { 'publish.json': publishJson(SHA, [specResult('go')], { timestamp: BACKDATED }) }, SHA);
      bench.artifact(id, 'bee-bench-rs', { 'publish.json': publishJson(SHA, [specResult('rs')], { commitSha: OTHER }) }, SHA);
      bench.artifact(id, 'bee-bench-extra', { 'publish.json': publishJson(SHA, [specResult('js', { started: BACKDATED })]) }, SHA);
      const r = await push(remote, id);
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(warnings(r.stdout).sort()).toEqual(
        [
          '::warning::publish: artifact bee-bench-extra refused: not one this publish reads (it reads bee-bench-js, bee-bench-go, bee-bench-rs)',
          `::warning::publish: artifact bee-bench-go refused: commit.timestamp ${BACKDATED} is not the time of 111111111111 (${COMMIT_TIME}, from the API); not appended`,
          '::warning::publish: artifact bee-bench-rs refused: it is for 222222222222, the run measured 111111111111; not appended',
        ].sort(),
      );
      const files = await records(remote);
      expect(files).toEqual([expect.stringMatching(/-js-\d+\.json$/)]);
      expect(JSON.parse(await show(remote, files[0]!)).commit.timestamp).toBe(COMMIT_TIME);
    },
  );

  it('unknown case ids and a 20,000-series artifact are refused before anything is written', { timeout: 120_000 }, async () => {
    const remote = await bareRemote(dirs);
    const id = ++run;
    const unknown = specResult('go');
    unknown.cases[1] = { ...unknown.cases[1]!, id: 'cpu.evil.case' };
    const wide = specResult('rs');
    const template = wide.cases[0]!;
    wide.cases = Array.from({ length: 20_000 }, (_, i) => ({ ...template, param: { ...template.param, label: `series ${i}` } }));
    bench.artifact(id, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js')]) }, SHA);
    bench.artifact(id, 'bee-bench-go', { 'publish.json': publishJson(SHA, [unknown]) }, SHA);
    bench.artifact(id, 'bee-bench-rs', { 'publish.json': publishJson(SHA, [wide]) }, SHA);
    const r = await push(remote, id);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(warnings(r.stdout).sort()).toEqual(
      [
        '::warning::publish: artifact bee-bench-go refused: the go result has case "cpu.evil.case", which is not in the spec; not appended',
        `::warning::publish: artifact bee-bench-rs refused: the rs result has case ${template.id} with label "series 0", which the spec's quick profile does not define; not appended`,
      ].sort(),
    );
    const tree = await lsTree(remote);
    expect(tree.filter((f) => f.includes('/runs/'))).toEqual([expect.stringMatching(/-js-\d+\.json$/)]);
    expect(tree.filter((f) => f.includes('/series/')).length).toBeLessThanOrEqual(3);
    expect(tree.join('\n')).not.toMatch(/evil|series 1/);
  });

  it('an issue_comment run appends nothing; its pull request still gets the comment', { timeout: 120_000 }, async () => {
    const remote = await bareRemote(dirs);
    const id = ++run;
    const head = 'd'.repeat(40);
    bench.server.pulls.set(30, { number: 30, head: { sha: head, ref: 'speedup', repo: REPO }, base: { sha: 'b'.repeat(40), ref: 'main' } });
    bench.artifact(id, 'bee-bench-js', { 'comment.json': JSON.stringify(commentBundle(30, head)), 'publish.json': publishJson(SHA, [specResult('js')]) }, head);
    const payload = {
      action: 'created',
      issue: { number: 30, title: 'Speed up', pull_request: { url: `https://api.github.com/repos/${REPO}/pulls/30` } },
      comment: { id: 1, body: '/bench', user: { login: 'mallory' } },
      repository: repository(REPO),
    };
    const r = await bench.publish('issue_comment', payload, id, SHA, { history: 'gh-pages', 'history-remote': remote }, { GITHUB_REF_NAME: 'main' });
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(warnings(r.stdout)).toEqual([
      `::warning::publish: bee-bench-js: records not appended: run ${id} was a issue_comment run; the history takes only push, schedule, workflow_dispatch runs of this repository`,
    ]);
    expect(await tip(remote)).toBeNull();
    expect(bench.server.commentsOn(30).map((c) => c.body.startsWith(markerComment('bee-bench:bench:js')))).toEqual([true]);
  });

  it(
    "workflow_run: a forged pull request number gets nothing posted; the run's own PR, found through the API, gets its comment",
    { timeout: 120_000 },
    async () => {
      const id = ++run;
      const head = 'e'.repeat(40);
      // Two PRs of one fork share the commit: only the run's head branch names which one it measured.
      bench.server.pulls.set(21, { number: 21, head: { sha: head, ref: 'feature-21', repo: 'mallory/bee-js' }, base: { sha: 'b'.repeat(40), ref: 'main' } });
      bench.server.pulls.set(22, { number: 22, head: { sha: head, ref: 'feature-22', repo: 'mallory/bee-js' }, base: { sha: 'b'.repeat(40), ref: 'main' } });
      bench.artifact(id, 'bee-bench-js', { 'comment.json': JSON.stringify(commentBundle(22, head)) }, head);
      bench.artifact(id, 'bee-bench-go', { 'comment.json': JSON.stringify(commentBundle(21, head, 'go')) }, head);
      const payload = workflowRunEvent(REPO, { id, name: 'bench', event: 'pull_request', headSha: head, headBranch: 'feature-21', headRepo: 'mallory/bee-js' });
      const r = await bench.publish('workflow_run', payload, 9000 + id, SHA, {});
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(warnings(r.stdout)).toEqual([
        "::warning::publish: artifact bee-bench-js: comment not posted: it names pull request #22, the run's is #21 (from the API)",
      ]);
      expect(bench.server.commentsOn(22)).toEqual([]);
      expect(bench.server.commentsOn(21).map((c) => c.body.startsWith(markerComment('bee-bench:bench:go')))).toEqual([true]);
      expect(bench.server.violations).toEqual([]);
    },
  );

  it('20 forged regression rows open at most the cap of issues; a refused artifact closes nothing', { timeout: 180_000 }, async () => {
    const remote = await bareRemote(dirs);
    // Five earlier runs of main: js fast, go slow.
    const past = [1, 2, 3, 4, 5].flatMap((i) => [
      toRecord(specResult('js', { n: 20, seed: i, started: context(i).commit.timestamp }), context(i)),
      toRecord(specResult('go', { n: 20, factor: 3, seed: i, started: context(i).commit.timestamp }), context(i)),
    ]);
    await publishRecords(past, { remote, workdir: mkdtempSync(join(tmpdir(), 'bee-bench-seed-')), spec: SPEC.spec });
    const goRow = { caseId: specResult('go').cases[0]!.id, label: String(specResult('go').cases[0]!.param.label) };
    const goIssue = bench.server.seedIssue({
      title: 'go regression',
      body: `${alertMarker(keyOf('go', goRow))}\nslower`,
      labels: [ALERT_LABEL],
      user: 'github-actions[bot]',
    });
    const id = ++run;
    // js: 20 rows three times slower (forged in its own job: its own numbers); go: fast again, but backdated, so refused.
    bench.artifact(id, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js', { n: 20, factor: 3 })]) }, SHA);
    bench.artifact(id, 'bee-bench-go', { 'publish.json': publishJson(SHA, [specResult('go', { n: 20 })], { timestamp: BACKDATED }) }, SHA);
    const before = bench.server.issues.length;
    const r = await push(remote, id, { alert: 'issue', 'history-runs': '5', alpha: '0.05' });
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(warnings(r.stdout)).toEqual([
      `::warning::publish: artifact bee-bench-go refused: commit.timestamp ${BACKDATED} is not the time of 111111111111 (${COMMIT_TIME}, from the API); not appended`,
    ]);
    const opened = bench.server.issues.slice(before);
    expect(opened).toHaveLength(ALERT_CAPS.open);
    expect(r.summary).toContain(
      `${20 - ALERT_CAPS.open} row(s) held back by the cap of ${ALERT_CAPS.open} opened and ${ALERT_CAPS.close} closed issues per publish`,
    );
    expect(bench.server.issues.find((i) => i.number === goIssue.number)!.state).toBe('open');
    expect(bench.server.violations).toEqual([]);
  });
});
