// mode: comment, the second half of the fork-safe pair. It runs in a workflow_run job (base
// repository code, a token that can write) and never builds or runs PR code: it downloads the
// bee-bench artifacts of the pull_request run that triggered it and posts a comment for each. The
// artifact is untrusted (the PR's code ran in the job that wrote it): it holds data, not markdown;
// the data must validate (bundle.ts), its PR must exist with the triggering run's head sha, the
// comment is rendered here from the validated rows, the outputs are counted from them, and the
// marker is derived here from the triggering workflow's name.
import * as core from '@actions/core';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { downloadRunArtifact, listRunArtifacts, ARTIFACT_PREFIX } from '../github/artifacts.js';
import { upsertSticky } from '../github/comment.js';
import { httpStatus, makeOctokit } from '../github/octokit.js';
import { writeSummary } from '../github/summary.js';
import { renderAbComment, renderBuildFailure } from '../report/ab-comment.js';
import { hasChange, markerFor, outcomeCounts, readBundle } from './bundle.js';
import { parsePayload, WorkflowRunEventSchema, type RunContext } from './context.js';
import { ActionInputError, type ActionInputs } from './inputs.js';
import { log, NOTHING, setCountOutputs, type FlowResult } from './pipeline.js';

export async function commentFlow(inputs: ActionInputs, ctx: RunContext): Promise<FlowResult> {
  if (ctx.eventName !== 'workflow_run') {
    throw ActionInputError.one('mode', `comment runs in a workflow_run job, not in a ${ctx.eventName || 'local'} run`, 'trigger the comment job with on: workflow_run (types: [completed]) of the benchmark workflow, or use mode: run');
  }
  if (!inputs.token) throw ActionInputError.one('github-token', 'empty, but mode: comment posts comments', 'leave github-token at its default (${{ github.token }}) with permissions: pull-requests: write and actions: read');
  const ev = parsePayload(WorkflowRunEventSchema, ctx);
  const wr = ev.workflow_run;
  const none: FlowResult = NOTHING;
  if (wr.event !== 'pull_request') {
    log(`comment: the triggering run was a ${wr.event} run, not a pull_request run; nothing to post`);
    return none;
  }
  if (inputs.comment === 'never') {
    log('comment: never');
    return none;
  }
  const run = { ...ctx.repo, runId: wr.id, token: inputs.token };
  const wanted = inputs.client ? `${ARTIFACT_PREFIX}${inputs.client}` : undefined;
  const artifacts = (await listRunArtifacts(run)).filter((a) => !wanted || a.name === wanted);
  if (artifacts.length === 0) {
    core.warning(`comment: run ${wr.id} (${wr.name}) has no ${wanted ?? `${ARTIFACT_PREFIX}*`} artifact; did its bee-bench step finish?`);
    return none;
  }
  const gh = makeOctokit(inputs.token);
  const total: FlowResult = { ...NOTHING };
  const posted: string[] = [];
  for (const a of artifacts) {
    const dir = join(ctx.temp, 'bee-bench', 'comment', a.name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await downloadRunArtifact(run, a.id, dir);
    let bundle;
    try {
      bundle = readBundle(dir);
    } catch (e) {
      core.warning(`comment: artifact ${a.name} is not a bee-bench comment bundle: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const meta = bundle;
    if (meta.head_sha !== wr.head_sha) {
      core.warning(`comment: artifact ${a.name} is for ${meta.head_sha.slice(0, 12)}, the triggering run for ${wr.head_sha.slice(0, 12)}; not posted`);
      continue;
    }
    // The PR number comes from the untrusted artifact: it must be a PR whose head is this run's.
    let prHead: string;
    try {
      prHead = (await gh.rest.pulls.get({ ...ctx.repo, pull_number: meta.pr })).data.head.sha;
    } catch (e) {
      core.warning(`comment: pull request #${meta.pr} of ${a.name} cannot be read (${httpStatus(e) ?? (e instanceof Error ? e.message : String(e))}); not posted`);
      continue;
    }
    if (prHead !== wr.head_sha) {
      core.warning(`comment: pull request #${meta.pr} has head ${prHead.slice(0, 12)}, the triggering run ${wr.head_sha.slice(0, 12)}; not posted (a newer push will post its own)`);
      continue;
    }
    const marker = markerFor(wr.name, meta.client);
    const o = bundle.outcome;
    const body = o.kind === 'report' ? renderAbComment({ ...o.report, marker }) : renderBuildFailure({ ...o.failure, marker });
    const counts = outcomeCounts(o);
    const res = await upsertSticky(gh, { ...ctx.repo, issue: meta.pr, marker, body, policy: inputs.comment, changed: hasChange(counts) }, log);
    log(`comment: #${meta.pr} ${meta.client}: ${res.action}${res.url ? ` ${res.url}` : ''}${res.reason ? ` (${res.reason})` : ''}`);
    if (res.url) {
      core.setOutput('comment-url', res.url);
      posted.push(`- ${meta.client}: PR #${meta.pr}: ${res.action} ${res.url}`);
    }
    total.regressions += counts.regressions;
    total.improvements += counts.improvements;
    total.failed += counts.failed;
    total.missing += counts.missing;
  }
  setCountOutputs(total);
  await writeSummary(`### bee-bench comments for ${wr.name} run ${wr.id}\n\n${posted.join('\n') || 'Nothing posted.'}\n`, log);
  return total;
}
