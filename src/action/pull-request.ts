// pull_request: base = merge base of the PR head with its base branch, built in a worktree; head =
// the checkout at `path`; paired A/B (abPipeline); then job summary, artifact (with the rendered comment
// for the fork-safe comment job) and, when the token can write, the sticky comment.
import * as core from '@actions/core';
import { upsertSticky } from '../github/comment.js';
import { makeOctokit, httpStatus } from '../github/octokit.js';
import type { AbCounts } from '../verdict/index.js';
import { hasChange, markerFor, outcomeCounts, writeBundle, type BundleOutcome } from './bundle.js';
import { isForkPr, parsePayload, PullRequestEventSchema } from './context.js';
import { headSha, mergeBase, worktree, worktreeDir } from './checkout.js';
import { historyBaselinePipeline } from './history.js';
import { measurePiece, mergePieceArtifacts } from './pieces.js';
import { BuildFailure, flowResult, log, NOTHING, reportBuildFailure, runAbPipeline, summarizeAndUpload, type FlowEnv, type FlowResult } from './flow-steps.js';

export async function pullRequestFlow(env: FlowEnv): Promise<FlowResult> {
  const { inputs, ctx } = env;
  const ev = parsePayload(PullRequestEventSchema, ctx);
  const pr = ev.pull_request;
  const fork = isForkPr(ev);

  // The merge job of a split A/B: no checkout; the pieces name the commits they measured.
  const merged = inputs.piecesPath ? mergePieceArtifacts(env, inputs.piecesPath) : undefined;
  const { base, checkout, mb } = merged
    ? { base: undefined, checkout: merged.commits?.head ?? pr.head.sha, mb: merged.commits?.base ?? pr.base.sha }
    : await core.group(inputs.baseline === 'history' ? 'git: merge base' : 'git: merge base and worktree', async () => {
        const mb = await mergeBase(inputs.path, pr.base.sha, pr.head.sha, log);
        log(`base: merge base ${mb.slice(0, 12)} of ${pr.base.ref} (${pr.base.sha.slice(0, 12)}) and the PR head ${pr.head.sha.slice(0, 12)}`);
        const checkout = await headSha(inputs.path);
        if (checkout !== pr.head.sha) {
          log(
            `head: the checkout at ${inputs.path} is ${checkout.slice(0, 12)}, not the PR head ${pr.head.sha.slice(0, 12)} (actions/checkout's default merge commit?); it is measured as is`,
          );
        }
        // baseline: history needs no build of the base, so no worktree either.
        const base = inputs.baseline === 'history' ? undefined : await worktree(inputs.path, mb, worktreeDir(ctx.temp, mb), log);
        return { base, checkout, mb };
      });

  const head = { source: { kind: 'path' as const, path: inputs.path }, label: `${pr.head.ref}@${checkout.slice(0, 7)}` };
  if (inputs.piece) {
    const baseSide = { source: { kind: 'path' as const, path: base! }, label: `${pr.base.ref}@${mb.slice(0, 7)}` };
    await measurePiece(env, inputs.piece, baseSide, head, { base: mb, head: checkout });
    return NOTHING;
  }
  let run: { markdown: string; counts: AbCounts; marker: string; outcome: BundleOutcome; result: FlowResult };
  try {
    const v = merged
      ? merged.report
      : inputs.baseline === 'history'
        ? await historyBaselinePipeline(env, head, pr.base.ref)
        : await runAbPipeline(env, { source: { kind: 'path', path: base! }, label: `${pr.base.ref}@${mb.slice(0, 7)}` }, head);
    run = {
      markdown: v.markdown,
      counts: v.counts,
      marker: v.input.marker,
      outcome: { kind: 'report', report: v.input },
      result: flowResult(v, inputs.failOn),
    };
  } catch (e) {
    if (!(e instanceof BuildFailure)) throw e;
    const f = reportBuildFailure(env, e, `bee-bench: ${inputs.client} ${pr.base.ref} → ${head.label}`);
    const outcome: BundleOutcome = { kind: 'build-failed', failure: f.failure };
    run = { markdown: f.markdown, counts: outcomeCounts(outcome), marker: markerFor(ctx.workflow, inputs.client), outcome, result: f.result };
  }
  writeBundle(env.outDir, { client: inputs.client, pr: pr.number, head_sha: pr.head.sha, base_sha: mb, workflow: ctx.workflow }, run.outcome);

  // A job that runs the PR's code holds no token that can comment (github-token: ''), or a fork's
  // read-only one: it leaves the bundle, and the publish job posts it. It never asks for a token.
  const publishedElsewhere = fork || !inputs.token;
  const note =
    publishedElsewhere && inputs.comment !== 'never'
      ? `\n\n> ${fork ? 'This pull request comes from a fork: its token is read-only' : 'This job holds no token'}, so the comment is posted by the publish job (\`mode: publish\`) from this run's artifact.\n`
      : '';
  await summarizeAndUpload(env, run.markdown + note);

  await postComment(env, pr.number, fork, run);
  return run.result;
}

/** The sticky comment on the pull request (unless comment: never or a fork's read-only token): shared with the node A/B. */
export async function postComment(env: FlowEnv, pr: number, fork: boolean, run: { markdown: string; marker: string; counts: AbCounts }): Promise<void> {
  const { inputs, ctx } = env;
  const publishedElsewhere = fork || !inputs.token;
  if (inputs.comment === 'never') log('comment: never');
  else if (publishedElsewhere)
    log(
      `comment: ${fork ? 'fork pull request' : "no github-token in this job (it runs the pull request's code)"}; the publish job (mode: publish) posts it from the artifact (docs/action.md)`,
    );
  else {
    try {
      const gh = makeOctokit(inputs.token);
      const res = await upsertSticky(
        gh,
        { ...ctx.repo, issue: pr, marker: run.marker, body: run.markdown, policy: inputs.comment, changed: hasChange(run.counts) },
        log,
      );
      log(`comment: ${res.action}${res.url ? ` ${res.url}` : ''}${res.reason ? ` (${res.reason})` : ''}`);
      if (res.url) core.setOutput('comment-url', res.url);
    } catch (e) {
      const status = httpStatus(e);
      const hint =
        status === 403 || status === 404
          ? ' (the token cannot write to this pull request; measure with github-token: \'\' and post the comment from a publish job, mode: publish, as docs/action.md "Two jobs: measure, then publish" shows)'
          : '';
      core.warning(`comment not posted: ${e instanceof Error ? e.message : String(e)}${hint}`);
    }
  }
}
