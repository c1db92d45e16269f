// The action: inputs -> event flow -> outputs. Every flow writes the job summary (and, for runs, the
// artifact) before the step can fail, so fail-on-regression never hides the report.
import * as core from '@actions/core';
import { join } from 'node:path';
import { withDevNode } from '../bee/session.js';
import { registerSecret } from '../child/env.js';
import { cachePlan, restoreCaches, saveCaches } from '../github/cache.js';
import { bisectFlow } from './bisect-mode.js';
import { experimentFlow } from './experiment-mode.js';
import { publishFlow } from './publish-mode.js';
import { readContext, type RunContext } from './context.js';
import { ActionInputError, readInputs, type ActionInputs } from './inputs.js';
import { crossClientRunners, freshOutDir, log, type FlowEnv, type FlowResult } from './flow-steps.js';
import { trendUrl } from './history.js';
import { headSha } from './checkout.js';
import { BEE_CONTAINER_STATE } from './post.js';
import { nodeAbFlow } from './node-ab.js';
import { pullRequestFlow } from './pull-request.js';
import { refsFlow } from './refs.js';
import { refuseGitCredentials } from './git-credentials.js';
import { renamedCaseNotes } from '../spec/aliases.js';
import { loadSpec } from '../spec/load.js';
import { holdsWriteToken, refuseUntrustedRefs } from './trust.js';

/** The build cache folder: BEE_BENCH_CACHE, else a folder in RUNNER_TEMP (restored by @actions/cache). */
export function cacheDirFor(ctx: RunContext): string {
  return process.env.BEE_BENCH_CACHE ?? join(ctx.temp, 'bee-bench', 'cache');
}

const FORK_SAFE_FIX =
  'Measure on pull_request in a job without a write token and post the comment from a publish job (mode: publish; on workflow_run for forks) (docs/action.md, "Two jobs: measure, then publish")';

/**
 * Events whose token can write, where a workflow may have checked out a pull request's code:
 * building and running that code there would hand it the token. Refused, with the fix.
 */
async function refusePrCodeWithWriteToken(inputs: ActionInputs, ctx: RunContext): Promise<void> {
  if (ctx.eventName === 'pull_request_target') {
    throw new Error(`pull_request_target runs with a write token: building the PR's code there would hand that token to it. ${FORK_SAFE_FIX}`);
  }
  const p = (ctx.payload ?? {}) as { workflow_run?: { event?: unknown; head_sha?: unknown }; issue?: { pull_request?: unknown } };
  const checkout = await headSha(inputs.path).catch(() => undefined);
  if (!checkout) return;
  const wr = p.workflow_run;
  if (ctx.eventName === 'workflow_run' && typeof wr?.event === 'string' && wr.event.startsWith('pull_request') && wr.head_sha === checkout) {
    throw new Error(
      `mode: run on workflow_run with the pull request's head (${checkout.slice(0, 12)}) checked out at ${inputs.path}: this job holds a write token while running the PR's code. ${FORK_SAFE_FIX}`,
    );
  }
  if (ctx.eventName === 'issue_comment' && p.issue?.pull_request && ctx.sha && checkout !== ctx.sha) {
    throw new Error(
      `mode: run on issue_comment with a pull request's code (${checkout.slice(0, 12)}, not the default branch's ${ctx.sha.slice(0, 12)}) checked out at ${inputs.path}: this job holds a write token while running the PR's code. ${FORK_SAFE_FIX}`,
    );
  }
}

async function runFlow(inputs: ActionInputs, ctx: RunContext): Promise<FlowResult> {
  await refusePrCodeWithWriteToken(inputs, ctx);
  await refuseGitCredentials(inputs.path, `the checkout at ${inputs.path}`);
  if (inputs.goClientPath) await refuseGitCredentials(inputs.goClientPath, `go-client-path ${inputs.goClientPath}`);
  // A job that can write builds only the repository's own commits (src/action/trust.ts), and
  // restores no cache: a cache may have been saved by a job that built any other code.
  const privileged = holdsWriteToken(inputs, ctx);
  if (privileged) await core.group('trust: the commits this job builds', () => refuseUntrustedRefs(inputs, log));
  const client = inputs.client!;
  log(
    `bee-bench: ${client}${inputs.clientDetected ? ' (detected)' : ''} at ${inputs.path}, ${ctx.eventName || 'local'} event, profile ${inputs.profile}, cases ${inputs.cases.join(', ')}`,
  );
  const crossClients = await crossClientRunners(inputs, client);
  const env: FlowEnv = { inputs: { ...inputs, client }, ctx, crossClients, outDir: freshOutDir(ctx, client), cacheDir: cacheDirFor(ctx) };
  const trend = trendUrl(env);
  if (trend) env.trendUrl = trend;
  const runners = [client, ...crossClients.map((r) => r.runner)];
  const states = privileged
    ? (log(
        'cache: not restored or saved: this job holds a write token, and a cache may come from a job that built other code (measure in a job without one to use the cache)',
      ),
      [])
    : await core.group('cache: restore', async () =>
        restoreCaches(await Promise.all(runners.map((r) => cachePlan(r, env.cacheDir, r === client ? [inputs.path] : []))), log),
      );
  const flow = (env: FlowEnv) => (inputs.nodeAb ? nodeAbFlow(env) : ctx.eventName === 'pull_request' ? pullRequestFlow(env) : refsFlow(env));
  try {
    if (inputs.mode === 'bisect') {
      if (ctx.eventName === 'pull_request')
        throw ActionInputError.one(
          'mode',
          'bisect walks a range of commits and runs on workflow_dispatch, not on pull_request',
          'run mode: bisect from a workflow_dispatch workflow (docs/action.md, "Bisect")',
        );
      return await bisectFlow(env);
    }
    if (inputs.beeSource === 'url') return await flow(env);
    // bee: dev — the node lives exactly as long as the flow; the post step removes the container
    // by name should this process be killed before its own clean-up.
    const dev = {
      how: { kind: 'docker' as const },
      log,
      onContainer: (name: string) => core.saveState(BEE_CONTAINER_STATE, name),
      withoutDocker: 'without Docker (a Linux runner has it), give a running node with bee: url and the bee-url and batch-id inputs',
    };
    return await withDevNode(dev, (node) => flow({ ...env, inputs: { ...env.inputs, bee: { url: node.url, batchId: node.batchId } } }));
  } finally {
    if (states.length > 0) await core.group('cache: save', () => saveCaches(states, log));
  }
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** "1 regression found, 2 failed rows, 1 row missing in head". */
function failureText(r: FlowResult): string {
  const parts = [
    r.regressions > 0 ? `${plural(r.regressions, 'regression')} found` : null,
    r.failed > 0 ? `${plural(r.failed, 'failed row')} (the head failed: crash, timeout or bad output)` : null,
    r.missing > 0 ? `${plural(r.missing, 'row')} missing in head` : null,
  ];
  return parts.filter((p) => p !== null).join(', ');
}

export async function main(): Promise<void> {
  try {
    const ctx = readContext();
    const inputs = readInputs((name) => core.getInput(name), { workspace: ctx.workspace });
    // Masked in the log, and kept from every child process (builds and runners run others' code).
    if (inputs.token) core.setSecret(inputs.token);
    registerSecret(inputs.token);
    const publishing = inputs.mode === 'comment' || inputs.mode === 'publish';
    // A case named by its former id still runs (src/spec/select.ts); the workflow should say the new one.
    if (!publishing) for (const n of renamedCaseNotes(loadSpec(inputs.specFile).spec, inputs.cases)) core.notice(`input "cases": ${n}`);
    const result = publishing
      ? await publishFlow(inputs, ctx)
      : inputs.mode === 'experiment'
        ? await experimentFlow(inputs, cacheDirFor(ctx))
        : await runFlow(inputs, ctx);
    if (result.buildFailed) core.setFailed(`${result.buildFailed} (the job summary and the comment show the end of the build log)`);
    else if (inputs.failOnRegression && result.regressions + result.failed + result.missing > 0)
      core.setFailed(`${failureText(result)} (fail-on-regression: true); see the job summary`);
  } catch (e) {
    if (e instanceof ActionInputError) core.setFailed(e.message);
    else core.setFailed(e instanceof Error ? e.message : String(e));
  }
}
