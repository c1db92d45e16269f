// Failures are never silent, through the bundled action on a bee-js checkout: a head build that
// fails still gives the summary, the outputs, the artifact data and a comment with the end of its
// log; a head that crashes where base works fails the step under fail-on-regression; and a job
// whose token can write refuses to run a pull request's checked-out code.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubApiServer } from '../github/api-server.js';
import { git, makeBeeJsRepo } from './client-repo.js';
import { pullRequestEvent, workflowRunEvent } from './events.js';
import { runAction, tmp, type RunOptions } from './harness.js';

const REPO = 'ethersphere/bee-js';
const dir = tmp('failures');
let server: GitHubApiServer;
let api: string;
let checkout: string;
let base: string;
const heads: Record<string, string> = {};

/** A commit on its own branch from base that changes `file` (relative to the checkout). */
function branch(name: string, file: string, change: (text: string) => string): string {
  git(checkout, 'checkout', '-q', '-b', name, base);
  const path = join(checkout, file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
  git(checkout, 'commit', '-q', '-am', name);
  return git(checkout, 'rev-parse', 'HEAD');
}

beforeAll(async () => {
  server = new GitHubApiServer({ owner: 'ethersphere', repo: 'bee-js', tokens: { write: ['ghs_write'], readOnly: [] } });
  api = await server.start();
  checkout = makeBeeJsRepo(dir);
  base = git(checkout, 'rev-parse', 'HEAD');
  heads.buildFails = branch(
    'build-fails',
    'build.cjs',
    (t) => `${t}console.error('error[E0425]: cannot find value, ask @maintainers, see #12 and https://evil.example');\nprocess.exit(3);\n`,
  );
  heads.crashes = branch('crashes', join('dist', 'mjs', 'index.js'), (t) => `throw new Error('head panics on import');\n${t}`);
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

let runId = 300;
function prRun(number: number, head: string, inputs: Record<string, string>) {
  git(checkout, 'checkout', '-q', '--detach', head);
  const o: RunOptions = {
    eventName: 'pull_request',
    payload: pullRequestEvent({ repo: REPO, number, base: { ref: 'main', sha: base }, head: { ref: `pr-${number}`, sha: head } }),
    workspace: checkout,
    temp: join(dir, 'runner-temp'),
    repository: REPO,
    apiUrl: api,
    runId: ++runId,
    inputs: { 'github-token': 'ghs_write', cases: 'cpu.harness.noop', profile: 'quick', rounds: '2', 'build-command': 'npm run build:node', ...inputs },
    env: { BEE_BENCH_CACHE: join(dir, 'cache') },
  };
  return runAction(o);
}

describe('failures are never silent', () => {
  it('a failed head build writes the summary, outputs, artifact data and a comment with its log tail', { timeout: 600_000 }, async () => {
    const r = await prRun(31, heads.buildFails!, {});
    expect(r.code, r.stdout.slice(-3000)).toBe(1);
    expect(r.stdout).toMatch(/::error::building the head runner \(js, .*\) failed/);
    expect(r.outputs).toMatchObject({ regressions: '0', failed: '1', missing: '0' });
    for (const text of [r.summary, server.commentsOn(31)[0]?.body ?? '']) {
      expect(text).toContain('The head build failed');
      expect(text).toContain('error[E0425]: cannot find value');
      expect(text).not.toMatch(/@maintainers|#12|https:\/\/evil/);
    }
    const data = JSON.parse(readFileSync(join(r.outputs['results-path']!, 'comment.json'), 'utf8')) as { outcome: { kind: string; failure: { side: string } } };
    expect(data.outcome).toMatchObject({ kind: 'build-failed', failure: { side: 'head' } });
    expect(server.violations).toEqual([]);
  });

  it('a head that crashes where base works: failed rows, and the step fails under fail-on-regression', { timeout: 600_000 }, async () => {
    const r = await prRun(32, heads.crashes!, { 'fail-on-regression': 'true' });
    expect(r.code, r.stdout.slice(-3000)).toBe(1);
    expect(r.outputs).toMatchObject({ regressions: '0', failed: '1' });
    expect(r.stdout).toMatch(/::error::1 failed row \(the head failed: crash, timeout or bad output\) \(fail-on-regression: true\)/);
    expect(server.commentsOn(32)[0]!.body).toMatch(/❌ failed: head failed where base succeeded: .*head panics on import/);
    const quiet = await prRun(33, heads.crashes!, {});
    expect(quiet.code).toBe(0);
    expect(quiet.outputs.failed).toBe('1');
  });

  it('mode: run on workflow_run with the PR head checked out is refused: it holds a write token', async () => {
    git(checkout, 'checkout', '-q', '--detach', heads.crashes!);
    const r = await runAction({
      eventName: 'workflow_run',
      workspace: checkout,
      temp: join(dir, 'runner-temp'),
      repository: REPO,
      apiUrl: api,
      sha: base,
      payload: workflowRunEvent(REPO, {
        id: 77,
        name: 'bench',
        event: 'pull_request',
        headSha: heads.crashes!,
        headBranch: 'crashes',
        headRepo: 'mallory/bee-js',
      }),
      inputs: { 'github-token': 'ghs_write', cases: 'cpu.harness.noop' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::mode: run on workflow_run with the pull request's head .* write token .*mode: publish/);
    expect(r.stdout).not.toMatch(/build head/);
  });

  it('mode: run on issue_comment with a PR checked out is refused too', async () => {
    git(checkout, 'checkout', '-q', '--detach', heads.crashes!);
    const r = await runAction({
      eventName: 'issue_comment',
      workspace: checkout,
      temp: join(dir, 'runner-temp'),
      repository: REPO,
      apiUrl: api,
      sha: base,
      payload: {
        action: 'created',
        issue: { number: 32, pull_request: { url: `https://api.github.com/repos/${REPO}/pulls/32` } },
        comment: { body: '/bench' },
      },
      inputs: { 'github-token': 'ghs_write', cases: 'cpu.harness.noop' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::mode: run on issue_comment with a pull request's code/);
  });
});
