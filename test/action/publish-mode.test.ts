// mode: publish through the bundled action, as the second job of a workflow runs it (needs:, same
// run) or a workflow_run job: the history append comes from publish.json only when it names the
// commit the event says was measured and the run was a push/schedule/dispatch of this repository;
// a PR comment goes to the PR the event names and never into a marker comment someone else wrote.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISH_SCHEMA } from '../../src/action/publish-bundle.js';
import { markerComment } from '../../src/report/render/ab-comment.js';
import { GitHubApiServer } from '../github/api-server.js';
import { bareRemote, lsTree, smallResult, tip } from '../history/helpers.js';
import { pullRequestEvent, pushEvent, workflowRunEvent } from './events.js';
import { runAction, tmp } from './harness.js';

const REPO = 'ethersphere/bee-js';
const SHA = '1'.repeat(40);
const dir = tmp('publish-mode');
const dirs: string[] = [];
let server: GitHubApiServer;
let api: string;
beforeAll(async () => {
  server = new GitHubApiServer({ owner: 'ethersphere', repo: 'bee-js', tokens: { write: ['ghs_write'] } });
  api = await server.start();
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const publishJson = (sha = SHA) =>
  JSON.stringify({
    schema: PUBLISH_SCHEMA,
    client: 'js',
    event: 'push',
    ref: 'main',
    head_sha: sha,
    commit: { sha, message: 'Speed up keccak', author: 'Octo Cat', timestamp: '2026-11-20T10:00:00Z' },
    results: [smallResult('js', 3)],
  });

let runId = 8000;
function artifact(files: Record<string, string>, run: number, sha: string): void {
  const from = join(dir, `artifact-${run}-${Object.keys(files).join('-')}`);
  mkdirSync(from, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(from, name), text);
  const zipFile = join(dir, `${run}.zip`);
  rmSync(zipFile, { force: true });
  execFileSync('zip', ['-q', '-r', zipFile, '.'], { cwd: from });
  server.addArtifact(run, 'bee-bench-js', execFileSync('cat', [zipFile]), sha);
}

/** The publish job of a push to main that measured SHA. */
function pushPublish(run: number, remote: string) {
  return publishJob(
    'push',
    pushEvent(REPO, 'refs/heads/main', '0'.repeat(40), SHA),
    run,
    { history: 'gh-pages', 'history-remote': remote },
    { GITHUB_REF_NAME: 'main' },
  );
}

function publishJob(eventName: string, payload: unknown, run: number, inputs: Record<string, string>, env: Record<string, string> = {}) {
  const ws = join(dir, `ws-${run}-${++runId}`);
  mkdirSync(ws, { recursive: true });
  return runAction({
    eventName,
    payload,
    workspace: ws,
    temp: join(dir, 'runner-temp'),
    repository: REPO,
    apiUrl: api,
    runId: run,
    sha: SHA,
    workflow: 'bench',
    inputs: { mode: 'publish', 'github-token': 'ghs_write', ...inputs },
    env,
  });
}

describe('mode: publish', () => {
  it("a needs: job of a push run appends the artifact's records for the pushed commit", { timeout: 120_000 }, async () => {
    const remote = await bareRemote(dirs);
    const run = ++runId;
    artifact({ 'publish.json': publishJson() }, run, SHA);
    const r = await pushPublish(run, remote);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    const tree = await lsTree(remote);
    expect(tree.filter((f) => f.includes('/runs/'))).toEqual([expect.stringMatching(new RegExp(`bench/runs/2026/11/.*-${SHA.slice(0, 7)}-js-${run}\\.json$`))]);
    expect(r.summary).toMatch(/1 record\(s\) appended to gh-pages\/bench/);
    expect(server.violations).toEqual([]);
  });

  it("refuses records naming another commit than the event's", { timeout: 120_000 }, async () => {
    const remote = await bareRemote(dirs);
    const run = ++runId;
    artifact({ 'publish.json': publishJson('2'.repeat(40)) }, run, SHA);
    const r = await pushPublish(run, remote);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.stdout).toMatch(/::warning::publish: artifact bee-bench-js is for 222222222222, the run measured 111111111111; not appended/);
    expect(await tip(remote)).toBeNull();
  });

  it('never appends records of a pull_request run (workflow_run)', { timeout: 120_000 }, async () => {
    const remote = await bareRemote(dirs);
    const run = ++runId;
    artifact({ 'publish.json': publishJson() }, run, SHA);
    const payload = workflowRunEvent(REPO, { id: run, name: 'bench', event: 'pull_request', headSha: SHA, headBranch: 'patch-1', headRepo: 'mallory/bee-js' });
    const r = await publishJob('workflow_run', payload, 9000 + run, { history: 'gh-pages', 'history-remote': remote });
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.stdout).toMatch(/only push, schedule and dispatch runs of this repository are appended/);
    expect(await tip(remote)).toBeNull();
  });

  it("a needs: job of a pull_request run comments on the event's PR and leaves a seeded foreign marker comment alone", { timeout: 120_000 }, async () => {
    const run = ++runId;
    const head = 'c'.repeat(40);
    const foreign = server.seedComment(44, `${markerComment('bee-bench:bench:js')}\nseeded by mallory`, 'mallory');
    const bundle = {
      schema: 'bee-bench/action-comment@2',
      client: 'js',
      pr: 44,
      head_sha: head,
      base_sha: 'b'.repeat(40),
      workflow: 'bench',
      outcome: {
        kind: 'report',
        report: {
          title: 'bee-bench: js',
          runner: 'js',
          baseLabel: 'main',
          headLabel: 'patch',
          rows: [],
          alpha: 0.02,
          threshold: 0.02,
          rounds: 12,
          profile: 'quick',
          env: { host: 'linux', clientBase: 'a', clientHead: 'b', specHash: 'ab'.repeat(32), wallTimeMs: 1 },
        },
      },
    };
    artifact({ 'comment.json': JSON.stringify(bundle) }, run, head);
    const payload = pullRequestEvent({ repo: REPO, number: 44, base: { ref: 'main', sha: 'b'.repeat(40) }, head: { ref: 'patch', sha: head } });
    const r = await publishJob('pull_request', payload, run, {});
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    const comments = server.commentsOn(44);
    expect(comments.find((c) => c.id === foreign.id)!.body).toContain('seeded by mallory');
    const ours = comments.filter((c) => c.user === 'github-actions[bot]');
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body.startsWith(markerComment('bee-bench:bench:js'))).toBe(true);
    // An artifact naming another PR than the event's is not posted.
    const other = ++runId;
    artifact({ 'comment.json': JSON.stringify({ ...bundle, pr: 45 }) }, other, head);
    const r2 = await publishJob('pull_request', payload, other, {});
    expect(r2.stdout).toMatch(/names pull request #45, the event #44; not posted/);
    expect(server.commentsOn(45)).toEqual([]);
    expect(server.violations).toEqual([]);
  });
});
