// End to end: the bundled action on a real client. A consumer repository of the published bee-rs
// crate (found through cargo) with a bare origin; a PR that makes BMT hashing slower must get one
// comment flagging exactly the chunk-hashing rows, a second run must edit that comment, a docs-only
// PR must flag nothing. The fork pair, push and dispatch flows run on the same repository. Every
// request to the API server is checked against GitHub's OpenAPI description.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AbRow } from '../../src/verdict/index.js';
import { markerComment } from '../../src/report/render/ab-comment.js';
import { AB_DEFAULTS } from '../../src/verdict/index.js';
import { GitHubApiServer } from '../github/api-server.js';
import { makeBeeRsRepo, shallowCheckout, type ClientRepo } from './client-repo.js';
import { pullRequestEvent, pushEvent, workflowDispatchEvent, workflowRunEvent } from './events.js';
import { ROOT, runAction, tmp, type ActionRun, type RunOptions } from './harness.js';
import { wallOf } from '../../src/verdict/index.js';

const REPO = 'ethswarm-tools/bee-rs';
const CASES = 'cpu.bmt.file-root,cpu.keccak.chunk-hash,cpu.ecdsa.sign,cpu.identity.create';
const SLOWED = /^cpu\.(bmt|keccak)\./;
const MARKER = markerComment('bee-bench:bench:rs');
// A verdict is a statistical decision: an unchanged row is flagged in about alpha of the reports
// (BH controls the false discovery rate). So "no other row flagged" is required of one of two
// consecutive runs of the same PR rather than of every single run: a run that flags everything, or
// often flags an unchanged row, still fails; a single false alarm (odds ~alpha) does not.
const MINUTES = 60_000;

const dir = tmp('e2e');
const temp = join(dir, 'runner-temp');
let repo: ClientRepo;
let server: GitHubApiServer;
let api: string;

beforeAll(async () => {
  repo = makeBeeRsRepo(dir);
  server = new GitHubApiServer({ owner: 'ethswarm-tools', repo: 'bee-rs', tokens: { write: ['ghs_write'], readOnly: ['ghs_fork_readonly'] } });
  api = await server.start();
  // An earlier, unrelated conversation on the PR: the sticky lookup has to page past it.
  for (let i = 0; i < 105; i++) server.seedComment(7, `review comment ${i}`);
  server.seedComment(7, `${markerComment('bee-bench:nightly:rs')}\nanother workflow's table`, 'github-actions[bot]');
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const log = (what: string, r: ActionRun) => console.log(`${what}: exit ${r.code} in ${(r.ms / 1000).toFixed(1)} s`);
// No Go module proxy serves bee-go here (a closed loopback port, an empty module cache), so
// compare-clients has to say in one line why bee-go was left out.
const NO_GO_PROXY = { GOPROXY: 'http://127.0.0.1:1', GOMODCACHE: join(dir, 'go-mod-cache') };
const run = (o: Omit<RunOptions, 'temp' | 'repository' | 'apiUrl' | 'env'>) =>
  runAction({ ...o, temp, repository: REPO, apiUrl: api, env: { BEE_BENCH_CACHE: join(ROOT, '.bee-bench', 'cache'), ...NO_GO_PROXY } });
const rowsOf = (r: ActionRun): AbRow[] => {
  const rows = (JSON.parse(readFileSync(join(r.outputs['results-path']!, 'ab.json'), 'utf8')) as { rows: AbRow[] }).rows;
  for (const x of rows)
    console.log(
      `  ${x.caseId}: ${x.verdict ?? x.status} change ${(((wallOf(x)?.ratio ?? 1) - 1) * 100).toFixed(1)}% [${wallOf(x)
        ?.ci?.map((c) => ((c - 1) * 100).toFixed(1))
        .join(', ')}] q ${wallOf(x)?.q?.toPrecision(2)}`,
    );
  return rows;
};
const regressions = (rows: AbRow[]) =>
  rows
    .filter((x) => x.status === 'ok' && x.verdict === 'regression')
    .map((x) => x.caseId)
    .sort();
const improvements = (rows: AbRow[]) =>
  rows
    .filter((x) => x.status === 'ok' && x.verdict === 'improvement')
    .map((x) => x.caseId)
    .sort();
/** Rows flagged either way that the PR did not change: nothing was sped up, only BMT slowed. */
const falseAlarms = (rows: AbRow[]) => [...regressions(rows).filter((id) => !SLOWED.test(id)), ...improvements(rows)];
const stickyOn = (pr: number) => server.commentsOn(pr).filter((c) => c.body.includes(MARKER));
/** The verdict cell of a case's row in a comment's table. */
const verdictIn = (body: string, caseId: string) =>
  body
    .split('\n')
    .find((l) => l.startsWith(`| \`${caseId}\``))
    ?.split('|')
    .at(-2)
    ?.trim();

function prEvent(number: number, head: { ref: string; sha: string; repo?: string }) {
  return pullRequestEvent({ repo: REPO, number, base: { ref: 'main', sha: repo.main }, head });
}

describe('pull_request on a bee-rs checkout', () => {
  let first: ActionRun;
  let firstAlarms: string[] = [];

  it(
    'flags the slowed BMT/keccak rows, only those, in one comment; the step fails after posting',
    async () => {
      const ws = shallowCheckout(repo.origin, repo.slow, join(dir, 'ws-slow'));
      first = await run({
        eventName: 'pull_request',
        payload: prEvent(7, { ref: 'slow-bmt', sha: repo.slow }),
        workspace: ws,
        inputs: { cases: CASES, 'github-token': 'ghs_write', 'fail-on-regression': 'true' },
      });
      log('PR run 1', first);
      expect(server.violations).toEqual([]);
      // fail-on-regression: the step fails, but only after the comment and the summary.
      expect(first.code, first.stdout.slice(-3000)).toBe(1);
      expect(first.stdout).toMatch(/::error::\d+ regressions? found \(fail-on-regression: true\)/);

      const rows = rowsOf(first);
      expect(rows.map((r) => r.caseId).sort()).toEqual(CASES.split(',').sort());
      const flagged = regressions(rows);
      firstAlarms = falseAlarms(rows);
      if (firstAlarms.length > 0) console.warn(`run 1: false alarm on ${firstAlarms.join(', ')}; run 2 must be clean`);
      for (const r of rows.filter((x) => SLOWED.test(x.caseId))) {
        expect(r.verdict, `${r.caseId} ratio ${wallOf(r)?.ratio} q ${wallOf(r)?.q}`).toBe('regression');
        expect(wallOf(r)?.ratio!).toBeGreaterThan(1.3);
      }
      expect(first.outputs.regressions).toBe(String(flagged.length));

      const sticky = stickyOn(7);
      expect(sticky).toHaveLength(1);
      expect(first.outputs['comment-url']).toBe(`https://github.com/${REPO}/pull/7#issuecomment-${sticky[0]!.id}`);
      for (const id of CASES.split(',')) {
        const verdict = verdictIn(sticky[0]!.body, id);
        if (SLOWED.test(id)) expect(verdict, id).toMatch(/regression/);
        else if (!firstAlarms.includes(id)) expect(verdict, id).not.toMatch(/regression|improvement/);
      }
      // The base is the merge base (the fork point), not the base branch's tip; both came from a shallow checkout.
      expect(first.stdout).toContain(`base: merge base ${repo.forkPoint.slice(0, 12)}`);
      expect(sticky[0]!.body).toContain(`main@${repo.forkPoint.slice(0, 7)}`);
      // Job summary, collapsible groups, one progress line per case and round.
      expect(first.summary).toContain('| case | param | base | head |');
      expect(first.stdout).toMatch(new RegExp(`::group::A/B: 4 cases x ${AB_DEFAULTS.rounds} rounds`));
      for (const id of CASES.split(',')) expect(first.stdout).toContain(`round ${AB_DEFAULTS.rounds}/${AB_DEFAULTS.rounds} ${id}:`);
      // The other workflow's comment is untouched.
      expect(server.commentsOn(7).find((c) => c.body.includes('bee-bench:nightly:rs'))!.body).toContain("another workflow's table");
    },
    40 * MINUTES,
  );

  it(
    'a second run edits the same comment, with warm builds',
    async () => {
      const before = { ...stickyOn(7)[0]! };
      const posts = server.requests.filter((r) => r.method === 'POST').length;
      const second = await run({
        eventName: 'pull_request',
        payload: { ...prEvent(7, { ref: 'slow-bmt', sha: repo.slow }), action: 'synchronize' },
        workspace: join(dir, 'ws-slow'),
        inputs: { cases: CASES, 'github-token': 'ghs_write' },
      });
      log('PR run 2', second);
      expect(second.code, second.stdout.slice(-3000)).toBe(0);
      expect(second.stdout).toMatch(/base: cached build/);
      expect(second.stdout).toMatch(/head: cached build/);
      const sticky = stickyOn(7);
      expect(sticky).toHaveLength(1);
      expect(sticky[0]!.id).toBe(before.id);
      expect(sticky[0]!.updated_at).not.toBe(before.updated_at);
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(posts);
      expect(server.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
      expect(second.outputs['comment-url']).toBe(first.outputs['comment-url']);
      const rows = rowsOf(second);
      for (const r of rows.filter((x) => SLOWED.test(x.caseId))) expect(r.verdict, r.caseId).toBe('regression');
      const alarms = falseAlarms(rows);
      expect(firstAlarms.length === 0 || alarms.length === 0, `false alarms in both runs: ${firstAlarms} / ${alarms}`).toBe(true);
      // The comment now shows run 2's table.
      for (const id of CASES.split(',')) {
        const verdict = verdictIn(sticky[0]!.body, id);
        if (SLOWED.test(id)) expect(verdict, id).toMatch(/regression/);
        else if (!alarms.includes(id)) expect(verdict, id).not.toMatch(/regression|improvement/);
      }
      expect(server.violations).toEqual([]);
    },
    30 * MINUTES,
  );

  it(
    'a PR with no code change flags nothing',
    async () => {
      const ws = shallowCheckout(repo.origin, repo.docs, join(dir, 'ws-docs'));
      const once = () =>
        run({
          eventName: 'pull_request',
          payload: prEvent(8, { ref: 'docs-only', sha: repo.docs }),
          workspace: ws,
          inputs: { cases: CASES, 'github-token': 'ghs_write', 'fail-on-regression': 'true' },
        });
      let r = await once();
      log('PR run, no change', r);
      if (r.code === 1 && regressions(rowsOf(r)).length > 0) {
        console.warn(`no-change run: false alarm on ${regressions(rowsOf(r)).join(', ')}; the re-run must be clean`);
        r = await once();
        log('PR re-run, no change', r);
      }
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(regressions(rowsOf(r))).toEqual([]);
      expect(r.outputs.regressions).toBe('0');
      const sticky = stickyOn(8);
      expect(sticky).toHaveLength(1);
      expect(sticky[0]!.body).toContain('🔴 **0** regressions');
      expect(server.violations).toEqual([]);
    },
    30 * MINUTES,
  );
});

describe('pull requests from forks: the two-workflow pair', () => {
  const RUN_ID = 5151;
  let bundleDir: string;

  it(
    'the PR job (read-only token) writes nothing to the API, only the artifact and summary',
    async () => {
      const ws = shallowCheckout(repo.origin, repo.slow, join(dir, 'ws-fork'));
      const writesBefore = server.writes().length;
      const r = await run({
        eventName: 'pull_request',
        payload: prEvent(9, { ref: 'patch-1', sha: repo.slow, repo: 'contributor/bee-rs' }),
        workspace: ws,
        runId: RUN_ID,
        inputs: { cases: 'cpu.keccak.chunk-hash', rounds: '2', 'github-token': 'ghs_fork_readonly' },
      });
      log('fork PR job', r);
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(server.writes()).toHaveLength(writesBefore);
      expect(server.commentsOn(9)).toEqual([]);
      expect(r.summary).toMatch(/comes from a fork/);
      bundleDir = r.outputs['results-path']!;
      // Data for the comment job, never markdown: it renders the comment itself.
      expect(JSON.parse(readFileSync(join(bundleDir, 'comment.json'), 'utf8'))).toMatchObject({
        pr: 9,
        head_sha: repo.slow,
        client: 'rs',
        workflow: 'bench',
        outcome: { kind: 'report' },
      });
    },
    20 * MINUTES,
  );

  const zip = (from: string, name: string) => {
    const file = join(dir, `${name}.zip`);
    execFileSync('zip', ['-q', '-r', file, '.'], { cwd: from });
    return readFileSync(file);
  };
  // The comment job checks nothing out: its workspace is empty.
  const emptyWorkspace = (runId: number) => {
    const ws = join(dir, `comment-ws-${runId}`);
    mkdirSync(ws, { recursive: true });
    return ws;
  };
  const commentJob = (runId: number, headSha: string) =>
    run({
      eventName: 'workflow_run',
      workspace: emptyWorkspace(runId),
      runId: 6000 + runId,
      workflow: 'bench-comment',
      payload: workflowRunEvent(REPO, { id: runId, name: 'bench', event: 'pull_request', headSha, headBranch: 'patch-1', headRepo: 'contributor/bee-rs' }),
      inputs: { mode: 'comment', 'github-token': 'ghs_write' },
    });

  it(
    'the workflow_run job (mode: comment) downloads the artifact and posts the comment',
    async () => {
      server.pulls.set(9, { number: 9, head: { sha: repo.slow, ref: 'patch-1', repo: 'contributor/bee-rs' }, base: { sha: repo.main, ref: 'main' } });
      server.addArtifact(RUN_ID, 'bee-bench-rs', zip(bundleDir, 'fork'), repo.slow);
      const from = server.requests.length;
      const r = await commentJob(RUN_ID, repo.slow);
      log('comment job', r);
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      const sticky = stickyOn(9);
      expect(sticky).toHaveLength(1);
      expect(sticky[0]!.body).toContain('cpu.keccak.chunk-hash');
      expect(r.outputs['comment-url']).toBe(`https://github.com/${REPO}/pull/9#issuecomment-${sticky[0]!.id}`);
      const used = new Set(server.requests.slice(from).map((q) => `${q.method} ${q.template}`));
      expect(used).toContain('GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts');
      expect(used).toContain('GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}');
      // The PR is the open one of the run's head repository and branch at its sha, as the API lists it (never the artifact's number).
      expect(used).toContain('GET /repos/{owner}/{repo}/pulls');
      expect(server.violations).toEqual([]);
      // Run again (a re-run of the comment job): the same comment, edited or left as is.
      await commentJob(RUN_ID, repo.slow);
      expect(stickyOn(9)).toHaveLength(1);
    },
    10 * MINUTES,
  );

  it(
    'an artifact naming another PR is not posted there',
    async () => {
      server.pulls.set(10, { number: 10, head: { sha: repo.docs, ref: 'other', repo: 'someone/bee-rs' }, base: { sha: repo.main, ref: 'main' } });
      const data = JSON.parse(readFileSync(join(bundleDir, 'comment.json'), 'utf8'));
      writeFileSync(join(bundleDir, 'comment.json'), JSON.stringify({ ...data, pr: 10 }));
      server.addArtifact(RUN_ID + 1, 'bee-bench-rs', zip(bundleDir, 'tampered'), repo.slow);
      const r = await commentJob(RUN_ID + 1, repo.slow);
      expect(r.code).toBe(0);
      expect(r.stdout.replace(/\u200b/g, '')).toMatch(
        /::warning::publish: artifact bee-bench-rs: comment not posted: it names pull request #10, the run's is #9 \(from the API\)/,
      );
      expect(server.commentsOn(10)).toEqual([]);
      expect(server.violations).toEqual([]);
    },
    10 * MINUTES,
  );
});

describe('push and workflow_dispatch', () => {
  it(
    'push: a single run, results as outputs and summary, no API calls',
    async () => {
      const ws = shallowCheckout(repo.origin, repo.slow, join(dir, 'ws-push'));
      const before = server.requests.length;
      const r = await run({
        eventName: 'push',
        payload: pushEvent(REPO, 'refs/heads/slow-bmt', repo.forkPoint, repo.slow),
        workspace: ws,
        sha: repo.slow,
        inputs: { cases: 'cpu.keccak.chunk-hash,cpu.harness.noop', 'github-token': 'ghs_write', 'compare-clients': 'true' },
      });
      log('push run', r);
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(server.requests.length).toBe(before);
      expect(r.outputs).toMatchObject({ regressions: '0', improvements: '0' });
      // The client under test from the checkout, bee-js from npm for context; bee-go from the Go module
      // proxy, which does not serve it here: one line with the proxy's error and the fix.
      expect(existsSync(join(r.outputs['results-path']!, 'rs.json'))).toBe(true);
      expect(existsSync(join(r.outputs['results-path']!, 'js.json'))).toBe(true);
      expect(existsSync(join(r.outputs['results-path']!, 'go.json'))).toBe(false);
      expect(r.stdout.split('\n').filter((l) => l.includes('bee-go'))).toEqual([
        expect.stringMatching(
          /^compare-clients: bee-go skipped: github\.com\/ethswarm-tools\/bee-go@v\S+: Get "http:\/\/127\.0\.0\.1:1\/.*connection refused \(fix: set go-client-path to a bee-go checkout\)$/,
        ),
      ]);
      expect(r.outputs['report-path']).toMatch(/report\.md$/);
      expect(r.summary).toContain('cpu.keccak.chunk-hash');
      expect(r.stdout).toMatch(/artifact: no artifact service/);
      // A job holding a write token neither restores nor saves a cache (docs/security.md).
      expect(r.stdout).toMatch(/cache: not restored or saved: this job holds a write token/);
    },
    20 * MINUTES,
  );

  it(
    'workflow_dispatch: an A/B between two refs, each in a worktree',
    async () => {
      const ws = shallowCheckout(repo.origin, repo.main, join(dir, 'ws-dispatch'));
      const r = await run({
        eventName: 'workflow_dispatch',
        payload: workflowDispatchEvent(REPO, 'refs/heads/main', { 'base-ref': repo.forkPoint, 'head-ref': 'slow-bmt' }),
        workspace: ws,
        inputs: {
          cases: 'cpu.keccak.chunk-hash',
          rounds: '2',
          'base-ref': repo.forkPoint,
          'head-ref': 'slow-bmt',
          'github-token': 'ghs_write',
          'compare-clients': 'true',
        },
      });
      log('dispatch A/B', r);
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(r.stdout).toContain(`A/B: base ${repo.forkPoint.slice(0, 7)}, head slow-bmt@${repo.slow.slice(0, 7)}`);
      expect(rowsOf(r).map((x) => x.caseId)).toEqual(['cpu.keccak.chunk-hash']);
      expect(r.summary).toContain(`slow-bmt@${repo.slow.slice(0, 7)}`);
      expect(r.outputs['comment-url']).toBeUndefined();
      expect(r.summary).toContain('Cross-client context');
      expect(r.stdout).toMatch(/::group::cross-client context: js/);
    },
    20 * MINUTES,
  );
});

describe('history on gh-pages', () => {
  const cases = 'cpu.keccak.chunk-hash';
  let historyRemote: string;
  beforeAll(() => {
    historyRemote = join(dir, 'pages.git');
    execFileSync('git', ['init', '--bare', '-q', historyRemote]);
  });
  const pages = (...args: string[]) => execFileSync('git', ['-C', historyRemote, ...args], { encoding: 'utf8' }).trim();

  it(
    'push runs on main append one record each, with derived files and the trend site',
    async () => {
      const ws = shallowCheckout(repo.origin, repo.main, join(dir, 'ws-history'));
      // Five runs: with 5 history values against 5 head samples Mann–Whitney can reach p < alpha (0.02).
      for (const runId of [101, 102, 103, 104, 105]) {
        const r = await run({
          eventName: 'push',
          payload: pushEvent(REPO, 'refs/heads/main', repo.forkPoint, repo.main),
          workspace: ws,
          sha: repo.main,
          runId,
          inputs: { cases, history: 'gh-pages', 'history-remote': historyRemote, 'github-token': 'ghs_write' },
        });
        log(`push ${runId} with history`, r);
        expect(r.code, r.stdout.slice(-3000)).toBe(0);
        expect(r.stdout).toMatch(/history: 1 record\(s\) added to gh-pages\/bench/);
      }
      const files = pages('ls-tree', '-r', '--name-only', 'gh-pages').split('\n');
      expect(files.filter((f) => /^bench\/runs\/.*-rs-10[1-5]\.json$/.test(f))).toHaveLength(5);
      expect(files).toEqual(expect.arrayContaining(['bench/index.json', 'bench/index.html', 'bench/app.js', 'bench/series/cpu.keccak.chunk-hash.json']));
      // Push runs count (the measure input's default), so each record has its compact profiles beside it.
      expect(files.filter((f) => /^bench\/profiles\/.*-rs-10[1-5]\.json$/.test(f))).toHaveLength(5);
      const record = JSON.parse(pages('show', `gh-pages:${files.find((f) => f.startsWith('bench/runs/') && f.endsWith('-rs-101.json'))!}`));
      expect(record).toMatchObject({ branch: 'main', event: 'push', commit: { sha: repo.main }, runner: 'rs' });
    },
    20 * MINUTES,
  );

  it(
    "a PR with baseline: history is judged against main's records, marked cross-machine",
    async () => {
      const ws = shallowCheckout(repo.origin, repo.slow, join(dir, 'ws-history-pr'));
      const r = await run({
        eventName: 'pull_request',
        payload: prEvent(9, { ref: 'slow-bmt', sha: repo.slow }),
        workspace: ws,
        sha: repo.slow,
        inputs: { cases, history: 'gh-pages', 'history-remote': historyRemote, baseline: 'history', 'history-runs': '5', 'github-token': 'ghs_write' },
      });
      log('PR against history', r);
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(r.stdout).not.toMatch(/git: merge base and worktree/);
      const [comment] = stickyOn(9);
      expect(comment?.body).toMatch(/Cross-machine comparison/);
      expect(comment?.body).toMatch(/history: last 5 runs of `main`/);
      expect(verdictIn(comment!.body, 'cpu.keccak.chunk-hash')).toMatch(/regression/);
      // Pull requests never write to the history.
      expect(
        pages('ls-tree', '-r', '--name-only', 'gh-pages')
          .split('\n')
          .filter((f) => f.includes('/runs/')),
      ).toHaveLength(5);
    },
    20 * MINUTES,
  );

  it(
    'alert: issue: the slowed commit pushed to main opens one labelled issue, a rerun keeps it single, a later clean push closes it',
    async () => {
      const alertRun = (sha: string, runId: number, ws: string) =>
        run({
          eventName: 'push',
          payload: pushEvent(REPO, 'refs/heads/main', repo.main, sha),
          workspace: ws,
          sha,
          runId,
          // The slowed commit is ~2x slower; a 25% threshold keeps a clean run that a busy machine
          // slowed for a moment from being flagged (the issue would then rightly stay open).
          inputs: {
            cases,
            history: 'gh-pages',
            'history-remote': historyRemote,
            'history-runs': '5',
            alert: 'issue',
            threshold: '0.25',
            'github-token': 'ghs_write',
          },
        });
      const alertIssues = () => server.issues.filter((i) => i.labels.includes('bee-bench-regression'));
      const wsSlow = shallowCheckout(repo.origin, repo.slow, join(dir, 'ws-alert-slow'));
      const first = await alertRun(repo.slow, 106, wsSlow);
      log('push of the slowed commit with alert: issue', first);
      expect(first.code, first.stdout.slice(-3000)).toBe(0);
      expect(first.outputs.regressions).toBe('1');
      expect(alertIssues()).toHaveLength(1);
      const issue = alertIssues()[0]!;
      expect(issue).toMatchObject({ state: 'open', labels: ['bee-bench-regression', 'bee-bench:rs'] });
      expect(issue.body).toContain('cpu.keccak.chunk-hash');
      expect(issue.body).toContain(`...${repo.slow})`);
      expect(first.summary).toMatch(new RegExp(`\\*\\*Alerts\\*\\* .*opened #${issue.number}`));

      const rerun = await alertRun(repo.slow, 106, wsSlow);
      expect(rerun.code, rerun.stdout.slice(-3000)).toBe(0);
      expect(alertIssues()).toHaveLength(1);
      expect(issue.state).toBe('open');

      const clean = await alertRun(repo.docs, 107, shallowCheckout(repo.origin, repo.docs, join(dir, 'ws-alert-docs')));
      log('clean push with alert: issue', clean);
      expect(clean.code, clean.stdout.slice(-3000)).toBe(0);
      expect(issue.state).toBe('closed');
      expect(server.commentsOn(issue.number).at(-1)!.body).toMatch(/^<!-- bee-bench-alert-recovered -->\n✅ Recovered/);
      expect(alertIssues()).toHaveLength(1);
      expect(server.violations).toEqual([]);
    },
    20 * MINUTES,
  );
});
