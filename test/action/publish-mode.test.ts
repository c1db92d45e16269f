// mode: publish through the bundled action, as the second job of a workflow runs it (needs:, same
// run) or a workflow_run job: the history append comes from publish.json only when it names the
// commit the event says was measured and the run was a push/schedule/dispatch of this repository;
// the commit's time comes from the API; a PR comment goes to the PR the event names and never into
// a marker comment someone else wrote. Hostile artifacts: hostile-artifacts.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerComment } from '../../src/report/render/ab-comment.js';
import { bareRemote, lsTree, removeAll, show, tip } from '../history/helpers.js';
import { pullRequestEvent, pushEvent, workflowRunEvent } from './events.js';
import { commentBundle, COMMIT_TIME, PublishBench, publishJson, specResult } from './publish-harness.js';

const REPO = 'ethersphere/bee-js';
const SHA = '1'.repeat(40);
const dirs: string[] = [];
let bench: PublishBench;
beforeAll(async () => {
  bench = await new PublishBench(REPO).start();
  bench.server.addCommit({ sha: SHA, message: 'Speed up keccak (from the API)', author: 'Octo Cat', date: COMMIT_TIME });
});
afterAll(async () => {
  await bench?.close();
  removeAll(dirs);
});

let runId = 8000;
const pushPublish = (run: number, remote: string) =>
  bench.publish(
    'push',
    pushEvent(REPO, 'refs/heads/main', '0'.repeat(40), SHA),
    run,
    SHA,
    { history: 'gh-pages', 'history-remote': remote },
    { GITHUB_REF_NAME: 'main' },
  );

describe('mode: publish', () => {
  it("a needs: job of a push run appends the artifact's records for the pushed commit, with the commit as the API gives it", { timeout: 120_000 }, async () => {
    const remote = await bareRemote(dirs);
    const run = ++runId;
    bench.artifact(run, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js')]) }, SHA);
    const r = await pushPublish(run, remote);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    const runs = (await lsTree(remote)).filter((f) => f.includes('/runs/'));
    expect(runs).toEqual([expect.stringMatching(new RegExp(`bench/runs/2026/11/.*-${SHA.slice(0, 7)}-js-${run}\\.json$`))]);
    expect(JSON.parse(await show(remote, runs[0]!)).commit).toMatchObject({ sha: SHA, message: 'Speed up keccak (from the API)', timestamp: COMMIT_TIME });
    expect(r.summary).toMatch(/1 record\(s\) appended to gh-pages\/bench/);
    expect(bench.server.violations).toEqual([]);
  });

  it("refuses records naming another commit than the event's", { timeout: 120_000 }, async () => {
    const remote = await bareRemote(dirs);
    const run = ++runId;
    bench.artifact(run, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js')], { commitSha: '2'.repeat(40) }) }, SHA);
    const r = await pushPublish(run, remote);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.stdout).toMatch(/::warning::publish: artifact bee-bench-js refused: it is for 222222222222, the run measured 111111111111; not appended/);
    expect(await tip(remote)).toBeNull();
  });

  it('never appends records of a pull_request run (workflow_run)', { timeout: 120_000 }, async () => {
    const remote = await bareRemote(dirs);
    const run = ++runId;
    bench.artifact(run, 'bee-bench-js', { 'publish.json': publishJson(SHA, [specResult('js')]) }, SHA);
    const payload = workflowRunEvent(REPO, { id: run, name: 'bench', event: 'pull_request', headSha: SHA, headBranch: 'patch-1', headRepo: 'mallory/bee-js' });
    const r = await bench.publish('workflow_run', payload, 9000 + run, SHA, { history: 'gh-pages', 'history-remote': remote });
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.stdout).toMatch(/records not appended: run \d+ was a pull_request run; the history takes only push, schedule, workflow_dispatch runs/);
    expect(await tip(remote)).toBeNull();
  });

  it("a needs: job of a pull_request run comments on the event's PR and leaves a seeded foreign marker comment alone", { timeout: 120_000 }, async () => {
    const run = ++runId;
    const head = 'c'.repeat(40);
    const foreign = bench.server.seedComment(44, `${markerComment('bee-bench:bench:js')}\nseeded by mallory`, 'mallory');
    const bundle = commentBundle(44, head);
    bench.artifact(run, 'bee-bench-js', { 'comment.json': JSON.stringify(bundle) }, head);
    const payload = pullRequestEvent({ repo: REPO, number: 44, base: { ref: 'main', sha: 'b'.repeat(40) }, head: { ref: 'patch', sha: head } });
    const r = await bench.publish('pull_request', payload, run, head, {});
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    const comments = bench.server.commentsOn(44);
    expect(comments.find((c) => c.id === foreign.id)!.body).toContain('seeded by mallory');
    const ours = comments.filter((c) => c.user === 'github-actions[bot]');
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body.startsWith(markerComment('bee-bench:bench:js'))).toBe(true);
    // An artifact naming another PR than the event's is not posted.
    const other = ++runId;
    bench.artifact(other, 'bee-bench-js', { 'comment.json': JSON.stringify({ ...bundle, pr: 45 }) }, head);
    const r2 = await bench.publish('pull_request', payload, other, head, {});
    expect(r2.stdout.replace(/\u200b/g, '')).toMatch(
      /artifact bee-bench-js: comment not posted: it names pull request #45, the run's is #44 \(from the event\)/,
    );
    expect(bench.server.commentsOn(45)).toEqual([]);
    expect(bench.server.violations).toEqual([]);
  });
});
