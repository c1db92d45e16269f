// The documented pull-request workflows end to end against the local API server, with their measure
// jobs as the docs write them (github-token: ''): a same-repository PR and a fork's PR each get a
// measure job that runs the PR's code, makes no API write, never asks for a token and leaves the
// bundle; the documented publish job (a `needs:` job handed the measure job's artifact id, or the
// `workflow_run` workflow for a fork) posts the one comment. Steps are taken from the docs' YAML,
// with the cases and rounds cut down to keep the run short.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerComment } from '../../src/report/render/ab-comment.js';
import { GitHubApiServer } from '../github/api-server.js';
import { git, makeBeeJsRepo } from '../action/client-repo.js';
import { pullRequestEvent, workflowRunEvent } from '../action/events.js';
import { ROOT, runAction, tmp } from '../action/harness.js';

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}

const REPO = 'ethersphere/bee-js';
const isAction = (s: Step) => s.uses?.startsWith('bee-bench/action@') === true;
const actionStep = (j: Job) => j.steps.find(isAction)!;

/** The docs' workflow examples (docs/action.md and README.md), parsed. */
const examples = [join(ROOT, 'docs', 'action.md'), join(ROOT, 'README.md')].flatMap((page) =>
  [...readFileSync(page, 'utf8').matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1]!)
    .filter((b) => /^on:/m.test(b) && /^jobs:/m.test(b))
    .map((b) => parse(b) as Workflow),
);
/** The single-job PR measure workflows (not the split one, whose pieces and merge are tested in test/shard). */
const prWorkflows = examples.filter((w) => 'pull_request' in w.on && w.jobs.measure && !w.jobs.merge);
const forkPublisher = examples.find((w) => 'workflow_run' in w.on)!;

const dir = tmp('pr-tokenless');
const temp = join(dir, 'runner-temp');
let server: GitHubApiServer;
let api: string;
let checkout: string;
let base: string;
let head: string;

beforeAll(async () => {
  server = new GitHubApiServer({ owner: 'ethersphere', repo: 'bee-js', tokens: { write: ['ghs_write'] } });
  api = await server.start();
  checkout = makeBeeJsRepo(dir);
  base = git(checkout, 'rev-parse', 'HEAD');
  writeFileSync(join(checkout, 'NOTES.md'), 'A pull request.\n');
  git(checkout, 'add', 'NOTES.md');
  git(checkout, 'commit', '-q', '-m', 'A pull request');
  head = git(checkout, 'rev-parse', 'HEAD');
  git(checkout, 'remote', 'add', 'origin', `file://${checkout}`);
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = { BEE_BENCH_CACHE: process.env.BEE_BENCH_CACHE ?? join(ROOT, '.bee-bench', 'cache') };

/** The measure job's action step as the docs write it, cut to one cheap case and two rounds. */
function measureInputs(wf: Workflow): Record<string, string> {
  const given = actionStep(wf.jobs.measure!).with ?? {};
  const inputs: Record<string, string> = {};
  for (const [k, v] of Object.entries(given)) if (typeof v === 'string' && !v.includes('${{')) inputs[k] = v;
  // The test checkout has no lockfile: its build is the package's own script (npm ci needs a lockfile).
  return { ...inputs, client: 'js', cases: 'cpu.harness.noop', rounds: '2', measure: 'wall', 'build-command': 'npm run build:node' };
}

/** The publish job's inputs as the docs write them, `${{ needs.measure.outputs.artifact-id }}` resolved to `artifactId`. */
function publishInputs(step: Step, artifactId?: number): Record<string, string> {
  const inputs: Record<string, string> = { 'github-token': 'ghs_write' };
  for (const [k, v] of Object.entries(step.with ?? {})) {
    if (typeof v !== 'string') continue;
    if (v === '${{ needs.measure.outputs.artifact-id }}') inputs[k] = String(artifactId);
    else if (!v.includes('${{')) inputs[k] = v;
  }
  return inputs;
}

const zipOf = (from: string, name: string) => {
  const file = join(dir, `${name}.zip`);
  execFileSync('zip', ['-q', '-r', file, '.'], { cwd: from });
  return readFileSync(file);
};

describe('the documented PR workflows with tokenless measure jobs', () => {
  it('finds the PR workflow examples, their measure jobs tokenless and their publish jobs reading the measure job’s id', () => {
    expect(prWorkflows.length).toBeGreaterThanOrEqual(2);
    for (const wf of prWorkflows) {
      expect(actionStep(wf.jobs.measure!).with?.['github-token']).toBe('');
      expect(actionStep(wf.jobs.publish!).with?.['artifact-id']).toBe('${{ needs.measure.outputs.artifact-id }}');
    }
    expect(actionStep(forkPublisher.jobs.publish!).with?.mode).toBe('publish');
  });

  it.each([
    ['a same-repository PR', REPO, 61],
    ['a fork PR', 'contributor/bee-js', 62],
  ] as const)(
    '%s: the measure job writes nothing and asks for no token; the documented publish job posts the comment',
    { timeout: 600_000 },
    async (_what, headRepo, pr) => {
      const wf = prWorkflows[0]!;
      const payload = pullRequestEvent({ repo: REPO, number: pr, base: { ref: 'main', sha: base }, head: { ref: `patch-${pr}`, sha: head, repo: headRepo } });
      const runId = 70_000 + pr;
      const writes = server.writes().length;
      const measured = await runAction({
        eventName: 'pull_request',
        payload,
        workspace: checkout,
        temp,
        repository: REPO,
        apiUrl: api,
        runId,
        workflow: wf.name,
        inputs: measureInputs(wf),
        env,
      });
      expect(measured.code, measured.stdout.slice(-3000)).toBe(0);
      expect(server.writes()).toHaveLength(writes);
      expect(measured.stdout).not.toMatch(/::error::/);
      // No line of a job that runs PR code advises a token.
      expect(measured.stdout + measured.summary).not.toMatch(/pull-requests: write|give the job/);
      expect(measured.summary).toMatch(/the comment is posted by the publish job/);
      const bundle = measured.outputs['results-path']!;
      expect(JSON.parse(readFileSync(join(bundle, 'comment.json'), 'utf8'))).toMatchObject({ pr, head_sha: head, client: 'js' });
      const artifact = server.addArtifact(runId, 'bee-bench-js', zipOf(bundle, `pr-${pr}`), head);
      // A forged upload beside it, as the measure job's code could make.
      server.addArtifact(runId, 'bee-bench-go', zipOf(bundle, `forged-${pr}`), head);
      server.pulls.set(pr, { number: pr, head: { sha: head, ref: `patch-${pr}`, repo: headRepo }, base: { sha: base, ref: 'main' } });
      // The publish job checks nothing out: an empty workspace.
      mkdirSync(join(dir, `publish-${pr}`), { recursive: true });
      const published =
        headRepo === REPO
          ? await runAction({
              eventName: 'pull_request',
              payload,
              workspace: join(dir, `publish-${pr}`),
              temp,
              repository: REPO,
              apiUrl: api,
              runId,
              workflow: wf.name,
              inputs: publishInputs(actionStep(wf.jobs.publish!), artifact.id),
            })
          : await runAction({
              eventName: 'workflow_run',
              payload: workflowRunEvent(REPO, { id: runId, name: wf.name, event: 'pull_request', headSha: head, headBranch: `patch-${pr}`, headRepo }),
              workspace: join(dir, `publish-${pr}`),
              temp,
              repository: REPO,
              apiUrl: api,
              runId: runId + 1,
              workflow: forkPublisher.name,
              inputs: publishInputs(actionStep(forkPublisher.jobs.publish!)),
            });
      expect(published.code, published.stdout.slice(-3000)).toBe(0);
      const comments = server.commentsOn(pr);
      expect(comments.filter((c) => c.body.startsWith(markerComment(`bee-bench:${wf.name}:js`)))).toHaveLength(1);
      if (headRepo === REPO) {
        // Read by id: the forged bee-bench-go is refused by name, and posts nothing.
        expect(published.stdout).toContain('::warning::publish: artifact bee-bench-go refused: not one this publish reads');
        expect(comments).toHaveLength(1);
      }
      expect(server.violations).toEqual([]);
    },
  );
});
