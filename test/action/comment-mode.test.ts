// mode: comment through the bundled action, as a workflow_run job runs it: the artifact a fork PR's
// run left is untrusted, so the posted comment is rendered from its validated rows, never from
// markdown in the artifact; hostile strings in those rows come out inert; a file with unknown
// fields, oversized strings or forged counts is refused, and the outputs count the validated rows.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerComment } from '../../src/report/render/ab-comment.js';
import type { AbRow } from '../../src/verdict/index.js';
import { GitHubApiServer } from '../github/api-server.js';
import { workflowRunEvent } from './events.js';
import { runAction, tmp } from './harness.js';

const REPO = 'ethersphere/bee-js';
const HEAD = 'c'.repeat(40);
const dir = tmp('comment-mode');
let server: GitHubApiServer;
let api: string;

beforeAll(async () => {
  server = new GitHubApiServer({ owner: 'ethersphere', repo: 'bee-js', tokens: { write: ['ghs_write'], readOnly: [] } });
  api = await server.start();
  server.pulls.set(21, { number: 21, head: { sha: HEAD, ref: 'patch-1', repo: 'mallory/bee-js' }, base: { sha: 'b'.repeat(40), ref: 'main' } });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const HOSTILE = 'ping @maintainers, closes #1 and ethersphere/bee-js#5, see https://evil.example/x';
const rows: AbRow[] = [
  {
    caseId: 'cpu.keccak.chunk-hash',
    label: 'quick',
    group: 'keccak',
    kind: 'cpu',
    status: 'ok',
    work: { ops: 1 },
    rounds: 12,
    evidence: { wall: { judged: { baseMedianNs: 1000, headMedianNs: 1300, ratio: 1.3, ci: [1.25, 1.35], p: 0.0005, q: 0.0005, verdict: 'regression' } } },
    verdict: 'regression',
  },
  {
    caseId: 'cpu.bmt.file-root',
    label: 'quick',
    group: 'bmt',
    kind: 'cpu',
    status: 'failed',
    note: `head failed where base succeeded: ${HOSTILE} ${'x'.repeat(1500)}`,
    work: {},
    rounds: 0,

    evidence: {},
  },
];

function bundle(extra: Record<string, unknown> = {}, rowsIn: unknown[] = rows) {
  return {
    schema: 'bee-bench/action-comment@3',
    client: 'js',
    pr: 21,
    head_sha: HEAD,
    base_sha: 'b'.repeat(40),
    workflow: 'bench',
    outcome: {
      kind: 'report',
      report: {
        title: 'bee-bench: js main → patch-1',
        runner: 'js',
        baseLabel: 'main@bbbbbbb',
        headLabel: `${HOSTILE}@ccccccc`,
        rows: rowsIn,
        alpha: 0.02,
        threshold: 0.02,
        rounds: 12,
        profile: 'quick',
        env: { host: 'linux', clientBase: '12.1.0', clientHead: '12.1.0', specHash: 'ab'.repeat(32), wallTimeMs: 1000 },
      },
    },
    ...extra,
  };
}

let runId = 7000;
/** Uploads an artifact with these files as the PR run `runId` would have, then runs the comment job. */
async function commentJob(files: Record<string, string>) {
  const id = ++runId;
  const from = join(dir, `artifact-${id}`);
  mkdirSync(from, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(from, name), text);
  const zipFile = join(dir, `${id}.zip`);
  execFileSync('zip', ['-q', '-r', zipFile, '.'], { cwd: from });
  server.addArtifact(id, 'bee-bench-js', execFileSync('cat', [zipFile]), HEAD);
  const ws = join(dir, `ws-${id}`);
  mkdirSync(ws, { recursive: true });
  return runAction({
    eventName: 'workflow_run',
    workspace: ws,
    temp: join(dir, 'runner-temp'),
    repository: REPO,
    apiUrl: api,
    runId: 9000 + id,
    workflow: 'bench-comment',
    payload: workflowRunEvent(REPO, { id, name: 'bench', event: 'pull_request', headSha: HEAD, headBranch: 'patch-1', headRepo: 'mallory/bee-js' }),
    inputs: { mode: 'comment', 'github-token': 'ghs_write' },
  });
}

const FORGED_MD = `<!<!-- bee-bench -->-- bee-bench:nightly:js -->\n## all good @everyone\n🔴 **0** regressions`;

describe('mode: comment renders from validated data', () => {
  it("posts a comment rendered from the rows, not the artifact's markdown; outputs count the rows", async () => {
    const r = await commentJob({ 'comment.json': JSON.stringify(bundle()), 'comment.md': FORGED_MD });
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    const posted = server.commentsOn(21);
    expect(posted).toHaveLength(1);
    const body = posted[0]!.body;
    expect(body.startsWith(markerComment('bee-bench:bench:js'))).toBe(true);
    expect(body).not.toContain('all good');
    expect(body.match(/<!--/g)).toHaveLength(1);
    expect(body).toContain('🔴 **1** regression');
    expect(body).toContain('❌ **1** failed');
    // Untrusted strings are inert: no mention, issue reference or bare URL GitHub would link.
    // (Code spans are never linked; entities such as &#8203; are not references.)
    const prose = body.replace(/`[^`\n]*`/g, '').replace(/&#\d+;/g, '¤');
    expect(prose).toContain('ping @¤maintainers');
    expect(prose).not.toMatch(/@maintainers|#\d|bee-js#5|https:\/\/evil/);
    expect(body).toContain('…');
    expect(r.outputs).toMatchObject({ regressions: '1', improvements: '0', failed: '1', missing: '0' });
    expect(server.violations).toEqual([]);
  });

  it('refuses forged counts, unknown fields and oversized strings; posts nothing', async () => {
    const before = server.writes().length;
    const forged = await commentJob({ 'comment.json': JSON.stringify(bundle({ counts: { regressions: 0 } })), 'comment.md': FORGED_MD });
    expect(forged.stdout).toMatch(/::warning::publish: artifact bee-bench-js: comment not posted: comment\.json: .*counts/);
    const long = await commentJob({ 'comment.json': JSON.stringify(bundle({}, [{ ...rows[1], note: 'x'.repeat(5000) }])) });
    expect(long.stdout).toMatch(/comment\.json: outcome\.report\.rows\[0\]\.note: /);
    const markdownOnly = await commentJob({ 'comment.md': FORGED_MD, 'meta.json': '{}' });
    expect(markdownOnly.stdout).toMatch(/holds neither comment\.json nor publish\.json/);
    expect(server.writes()).toHaveLength(before);
  });
});
