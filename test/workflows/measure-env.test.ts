// What a hostile build step in the measure job of each documented workflow can find: every job of
// .github/workflows and of the docs' examples that builds or runs client code is run here as GitHub
// would set it up: the job's GITHUB_TOKEN (a marked value, write-capable when the job's permissions
// grant any write), the action's inputs from the step's `with:` (github-token defaulting to that
// token), the runtime and OIDC tokens, the runner's file commands, and the checkout's git config
// (an extraheader unless `persist-credentials: false`). The bundled action then builds a bee-js
// checkout whose build step dumps its environment, its parent's /proc/<ppid>/environ and
// `git config --list`; no write-capable token may appear in the dump.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeBeeJsRepo } from '../action/client-repo.js';
import { pushEvent } from '../action/events.js';
import { ROOT, runAction, tmp } from '../action/harness.js';

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: Record<string, string> | string;
  steps: Step[];
}
interface Workflow {
  permissions?: Record<string, string> | string;
  jobs: Record<string, Job>;
}

/** Every workflow: the repository's own, and each docs example (a ```yaml block with on: and jobs:). */
function workflows(): Array<{ where: string; wf: Workflow }> {
  const dir = join(ROOT, '.github', 'workflows');
  const own = readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .map((f) => ({ where: `.github/workflows/${f}`, wf: parse(readFileSync(join(dir, f), 'utf8')) as Workflow }));
  const docs = [join(ROOT, 'docs', 'action.md'), join(ROOT, 'README.md')].flatMap((page) =>
    [...readFileSync(page, 'utf8').matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)]
      .map((m) => m[1]!)
      .filter((b) => /^on:/m.test(b) && /^jobs:/m.test(b))
      .map((b, i) => ({ where: `${page.slice(ROOT.length + 1)} example ${i + 1}`, wf: parse(b) as Workflow })),
  );
  return [...own, ...docs];
}

const isAction = (s: Step) => s.uses === './' || s.uses?.startsWith('bee-bench/action@') === true;
// A step that builds client code: not publish or comment, and not the merge of a PR's pieces
// (`pieces-path`), which reads the measure jobs' piece files as data and builds nothing.
const measuring = (s: Step) => isAction(s) && !['publish', 'comment'].includes(String(s.with?.mode ?? 'run')) && s.with?.['pieces-path'] === undefined;

/** GitHub's rule: no permissions key on the job takes the workflow's; none at all is the repository default (treated as write). */
function writeCapable(wf: Workflow, job: Job): boolean {
  const p = job.permissions ?? wf.permissions;
  if (p === undefined) return true;
  if (typeof p === 'string') return p === 'write-all';
  return Object.values(p).some((v) => v === 'write');
}

const measureJobs = workflows().flatMap(({ where, wf }) =>
  Object.entries(wf.jobs)
    .filter(([, j]) => j.steps.some((s) => measuring(s) || /dist\/cli\.js (run|build)/.test(s.run ?? '')))
    .map(([name, job]) => ({ where, name, wf, job })),
);

const dir = tmp('measure-env');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the measure job of every documented workflow', () => {
  it("covers the examples and the repository's own workflows", () => {
    const where = new Set(measureJobs.map((m) => m.where));
    expect([...where].filter((w) => w.startsWith('docs/')).length).toBeGreaterThanOrEqual(4);
    expect(where).toContain('.github/workflows/nightly.yml');
    expect(where).toContain('.github/workflows/action-selftest.yml');
  });

  it.each(measureJobs.map((m) => [`${m.where}: ${m.name}`, m] as const))(
    '%s: its token cannot write, or nothing in reach holds it',
    { timeout: 300_000 },
    async (label, m) => {
      const token = `ghs_SIMULATED_${label.replace(/[^A-Za-z0-9]/g, '_')}`;
      const canWrite = writeCapable(m.wf, m.job);
      const step = m.job.steps.find(measuring);
      if (!step) {
        // A CLI job (the nightly): its run: steps get no token unless an env: hands it over.
        expect(canWrite, `${label} runs client code with a write-capable token`).toBe(false);
        return;
      }
      const slug = label.replace(/[^A-Za-z0-9]/g, '-');
      const dump = join(dir, `${slug}.dump`);
      const checkout = makeBeeJsRepo(join(dir, slug));
      // actions/checkout leaves the token in .git/config unless told not to.
      const checkoutStep = m.job.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
      if (checkoutStep && checkoutStep.with?.['persist-credentials'] !== false) {
        git(checkout, 'config', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`);
      }
      const given = step.with ?? {};
      const inputs: Record<string, string> = {};
      for (const [k, v] of Object.entries(given)) if (typeof v === 'string' && !v.includes('${{')) inputs[k] = v;
      inputs['github-token'] = 'github-token' in given ? String(given['github-token']).replace('${{ github.token }}', token) : token;
      // The hostile build step: everything a dependency's install script could read.
      inputs['build-command'] =
        `{ env; echo; tr '\\0' '\\n' < /proc/$PPID/environ; echo; git config --list --show-origin; } > ${JSON.stringify(dump)} 2>&1; exit 1`;
      inputs.client = 'js';
      inputs.cases = 'cpu.harness.noop';
      inputs.path = '.';
      inputs.mode = 'run';
      delete inputs['base-ref'];
      delete inputs['head-ref'];
      const head = git(checkout, 'rev-parse', 'HEAD');
      const run = await runAction({
        eventName: 'push',
        payload: pushEvent('ethersphere/bee-js', 'refs/heads/main', head, head),
        workspace: checkout,
        temp: join(dir, `${slug}-temp`),
        repository: 'ethersphere/bee-js',
        sha: head,
        inputs,
        env: {
          GITHUB_TOKEN: 'not-exported-to-steps-by-github-but-simulated-here',
          ACTIONS_RUNTIME_TOKEN: 'runtime-token-run-scoped-cache-and-artifacts',
          ACTIONS_ID_TOKEN_REQUEST_TOKEN:
            m.job.permissions && typeof m.job.permissions === 'object' && m.job.permissions['id-token'] === 'write' ? 'oidc-request-token' : '',
          GITHUB_ENV: join(dir, `${slug}-env`),
          GITHUB_PATH: join(dir, `${slug}-path`),
          GITHUB_STATE: join(dir, `${slug}-state`),
          BEE_BENCH_CACHE: join(dir, `${slug}-cache`),
        },
      });
      if (!existsSync(dump)) {
        // The action refused to build at all (a write token on untrusted code, or a credential in the git config).
        expect(run.stdout, `${label}: refused or failed before the build`).toMatch(/::error::/);
        expect(canWrite && inputs['github-token'] !== '', `${label}: the action refused to build a job that should measure`).toBe(true);
        return;
      }
      const seen = readFileSync(dump, 'utf8');
      // The dump is real: the action's own environment is in it.
      expect(seen).toContain('GITHUB_REPOSITORY=ethersphere/bee-js');
      if (canWrite) expect(seen, `${label}: a write-capable token is within the build step's reach`).not.toContain(token);
      expect(seen).not.toMatch(/extraheader/i);
    },
  );
});
