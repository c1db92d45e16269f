// mode: publish, the second job of every setup (mode: comment is its older name). It holds the
// write token and runs no client code: no checkout is built, no cache restored, nothing from the
// artifact executed. It reads the bee-bench artifacts of the measuring run (the same run when it
// is a `needs:` job, the triggering run on workflow_run) under size limits enforced while they
// download and unzip, validates them with zod, checks them against the event it trusts (the
// commit, the pull request), and then does every write: the sticky comment, the history append,
// the alert issues and the job summary.
import * as core from '@actions/core';
import { join } from 'node:path';
import { ARTIFACT_PREFIX, listRunArtifacts } from '../github/artifacts.js';
import { readArtifactEntries } from '../github/artifact-download.js';
import { upsertSticky } from '../github/comment.js';
import { httpStatus, makeOctokit } from '../github/octokit.js';
import { writeSummary } from '../github/summary.js';
import { publishResults } from '../history/index.js';
import { renderAbComment, renderBuildFailure } from '../report/render/ab-comment.js';
import { loadSpec } from '../spec/load.js';
import { raiseAlerts } from './alerts.js';
import { BUNDLE_FILE, hasChange, markerFor, outcomeCounts, parseBundle, type Bundle } from './bundle.js';
import { defaultBranchOf, isForkPr, parsePayload, PullRequestEventSchema, WorkflowRunEventSchema, type RunContext } from './context.js';
import { historyRemote, readHistory, trendUrl } from './history.js';
import { ActionInputError, type ActionInputs } from './inputs.js';
import { log, NOTHING, setCountOutputs, type FlowEnv, type FlowResult } from './flow-steps.js';
import { parsePublishBundle, PUBLISH_FILE, type PublishBundle } from './publish-bundle.js';

/** The run whose artifacts are published, as the trusted event describes it. */
export interface SourceRun {
  runId: number;
  /** Its workflow's name: the comment marker's first part. */
  workflow: string;
  event: string;
  /** The commit it measured: a pull request's head, or the pushed / dispatched commit. */
  sha: string;
  branch: string;
  /** A pull request it ran for, from the payload (same run) or from the artifact, checked through the API (workflow_run). */
  pr?: number;
  /** Whether the run's code came from this repository (not a fork). */
  ownRepo: boolean;
}

export function sourceRun(ctx: RunContext): SourceRun {
  if (ctx.eventName === 'workflow_run') {
    const ev = parsePayload(WorkflowRunEventSchema, ctx);
    const wr = ev.workflow_run;
    const ownRepo = (wr.head_repository?.full_name ?? ev.repository.full_name) === ev.repository.full_name;
    return { runId: wr.id, workflow: wr.name, event: wr.event, sha: wr.head_sha, branch: wr.head_branch ?? '', ownRepo };
  }
  // A needs: job of the measuring workflow: this very run.
  const runId = Number(ctx.runId);
  if (!Number.isInteger(runId) || runId <= 0) throw new Error("mode: publish outside workflow_run reads this run's artifacts, but GITHUB_RUN_ID is not set");
  if (ctx.eventName === 'pull_request') {
    const ev = parsePayload(PullRequestEventSchema, ctx);
    return {
      runId,
      workflow: ctx.workflow,
      event: ctx.eventName,
      sha: ev.pull_request.head.sha,
      branch: ev.pull_request.head.ref,
      pr: ev.pull_request.number,
      ownRepo: !isForkPr(ev),
    };
  }
  if (!ctx.sha) throw new Error('mode: publish needs GITHUB_SHA, the commit the run measured');
  const branch = process.env.GITHUB_REF_NAME ?? '';
  return { runId, workflow: ctx.workflow, event: ctx.eventName, sha: ctx.sha, branch, ownRepo: true };
}

export async function publishFlow(inputs: ActionInputs, ctx: RunContext): Promise<FlowResult> {
  if (!inputs.token)
    throw ActionInputError.one(
      'github-token',
      `empty, but mode: ${inputs.mode} reads artifacts and writes comments, history and issues`,
      'leave github-token at its default (${{ github.token }}) with the permissions the writes need (actions: read, pull-requests: write, contents: write, issues: write)',
    );
  const src = sourceRun(ctx);
  const run = { ...ctx.repo, runId: src.runId, token: inputs.token };
  const wanted = inputs.client ? `${ARTIFACT_PREFIX}${inputs.client}` : undefined;
  const artifacts = (await listRunArtifacts(run)).filter((a) => !wanted || a.name === wanted);
  if (artifacts.length === 0) {
    core.warning(`publish: run ${src.runId} (${src.workflow}) has no ${wanted ?? `${ARTIFACT_PREFIX}*`} artifact; did its bee-bench step finish?`);
    return NOTHING;
  }
  const total: FlowResult = { ...NOTHING };
  const done: string[] = [];
  const bodies: string[] = [];
  for (const a of artifacts) {
    let entries: Map<string, Buffer>;
    try {
      entries = await readArtifactEntries(
        { ...ctx.repo, artifactId: a.id, token: inputs.token, apiUrl: ctx.apiUrl },
        (n) => n === BUNDLE_FILE || n === PUBLISH_FILE,
      );
    } catch (e) {
      core.warning(`publish: artifact ${a.name} refused: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const comment = entries.get(BUNDLE_FILE);
    const records = entries.get(PUBLISH_FILE);
    if (!comment && !records) {
      core.warning(`publish: artifact ${a.name} holds neither ${BUNDLE_FILE} nor ${PUBLISH_FILE}; nothing to publish`);
      continue;
    }
    if (comment) {
      const posted = await postComment(inputs, ctx, src, a.name, comment);
      if (posted) {
        add(total, posted.result);
        done.push(posted.line);
        bodies.push(posted.body);
      }
    }
    if (records) {
      const appended = await appendRecords(inputs, ctx, src, a.name, records);
      if (appended) {
        total.regressions += appended.regressions;
        done.push(...appended.lines);
      }
    }
  }
  setCountOutputs(total);
  await writeSummary(
    `### bee-bench publish for ${src.workflow} run ${src.runId}\n\n${done.join('\n') || 'Nothing published.'}\n${bodies.map((b) => `\n${b}`).join('')}`,
    log,
  );
  return total;
}

function add(total: FlowResult, r: FlowResult): void {
  total.regressions += r.regressions;
  total.improvements += r.improvements;
  total.failed += r.failed;
  total.missing += r.missing;
}

/** The sticky comment from comment.json: rendered here from validated rows, for the PR the event names. */
async function postComment(
  inputs: ActionInputs,
  ctx: RunContext,
  src: SourceRun,
  name: string,
  bytes: Buffer,
): Promise<{ result: FlowResult; line: string; body: string } | undefined> {
  if (!src.event.startsWith('pull_request')) {
    core.warning(`publish: artifact ${name} holds a comment, but run ${src.runId} was a ${src.event} run; not posted`);
    return undefined;
  }
  let bundle: Bundle;
  try {
    bundle = parseBundle(bytes);
  } catch (e) {
    core.warning(`publish: artifact ${name} is not a bee-bench comment bundle: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  if (bundle.head_sha !== src.sha) {
    core.warning(`publish: artifact ${name} is for ${bundle.head_sha.slice(0, 12)}, the run for ${src.sha.slice(0, 12)}; not posted`);
    return undefined;
  }
  if (src.pr !== undefined && bundle.pr !== src.pr) {
    core.warning(`publish: artifact ${name} names pull request #${bundle.pr}, the event #${src.pr}; not posted`);
    return undefined;
  }
  if (inputs.comment === 'never') {
    log('comment: never');
    return undefined;
  }
  const gh = makeOctokit(inputs.token);
  if (src.pr === undefined) {
    // workflow_run leaves pull_requests empty for forks: the number comes from the artifact, so it
    // must be a pull request whose head is this run's commit.
    let prHead: string;
    try {
      prHead = (await gh.rest.pulls.get({ ...ctx.repo, pull_number: bundle.pr })).data.head.sha;
    } catch (e) {
      core.warning(
        `publish: pull request #${bundle.pr} of ${name} cannot be read (${httpStatus(e) ?? (e instanceof Error ? e.message : String(e))}); not posted`,
      );
      return undefined;
    }
    if (prHead !== src.sha) {
      core.warning(
        `publish: pull request #${bundle.pr} has head ${prHead.slice(0, 12)}, the run ${src.sha.slice(0, 12)}; not posted (a newer push will post its own)`,
      );
      return undefined;
    }
  }
  const marker = markerFor(src.workflow, bundle.client);
  const o = bundle.outcome;
  const body = o.kind === 'report' ? renderAbComment({ ...o.report, marker }) : renderBuildFailure({ ...o.failure, marker });
  const counts = outcomeCounts(o);
  const res = await upsertSticky(gh, { ...ctx.repo, issue: bundle.pr, marker, body, policy: inputs.comment, changed: hasChange(counts) }, log);
  log(`comment: #${bundle.pr} ${bundle.client}: ${res.action}${res.url ? ` ${res.url}` : ''}${res.reason ? ` (${res.reason})` : ''}`);
  if (res.url) core.setOutput('comment-url', res.url);
  const result = { regressions: counts.regressions, improvements: counts.improvements, failed: counts.failed, missing: counts.missing };
  return { result, line: `- ${bundle.client}: PR #${bundle.pr}: ${res.action}${res.url ? ` ${res.url}` : ''}`, body };
}

/** The history append (and alerts) from publish.json, for a push, schedule or dispatch run of this repository. */
async function appendRecords(
  inputs: ActionInputs,
  ctx: RunContext,
  src: SourceRun,
  name: string,
  bytes: Buffer,
): Promise<{ regressions: number; lines: string[] } | undefined> {
  if (inputs.history !== 'gh-pages') {
    log(`publish: ${name} has results, and history is off; not appended`);
    return undefined;
  }
  if (src.event.startsWith('pull_request') || !src.ownRepo) {
    core.warning(
      `publish: artifact ${name} holds records of a ${src.event} run${src.ownRepo ? '' : ' of a fork'}; only push, schedule and dispatch runs of this repository are appended`,
    );
    return undefined;
  }
  let bundle: PublishBundle;
  try {
    bundle = parsePublishBundle(bytes);
  } catch (e) {
    core.warning(`publish: artifact ${name}: ${e instanceof Error ? e.message : String(e)}; not appended`);
    return undefined;
  }
  if (bundle.head_sha !== src.sha || bundle.commit.sha !== src.sha) {
    core.warning(`publish: artifact ${name} is for ${bundle.commit.sha.slice(0, 12)}, the run measured ${src.sha.slice(0, 12)}; not appended`);
    return undefined;
  }
  if (!src.branch) throw new Error(`publish: the branch of run ${src.runId} is unknown (no GITHUB_REF_NAME / workflow_run.head_branch)`);
  const env: FlowEnv = {
    inputs: { ...inputs, client: bundle.client },
    ctx,
    crossClients: [],
    outDir: join(ctx.temp, 'bee-bench', 'publish'),
    cacheDir: join(ctx.temp, 'bee-bench', 'no-cache'),
  };
  const own = bundle.results.find((r) => r.runner === bundle.client);
  const alerting = inputs.alert === 'issue' && src.event === 'push' && src.branch === defaultBranchOf(ctx) && own !== undefined;
  if (inputs.alert === 'issue' && !alerting) log(`alert: issue acts on pushes to the default branch only; this is a ${src.event} run of ${src.branch}`);
  const before = alerting ? await core.group('alert: the branch history', () => readHistory(env, log)) : [];
  const server = process.env.GITHUB_SERVER_URL ?? 'https://github.com';
  const runUrl = `${server}/${ctx.repo.owner}/${ctx.repo.repo}/actions/runs/${src.runId}`;
  const report = await core.group('history: append', () =>
    publishResults(
      bundle.results,
      {
        commit: { ...bundle.commit, url: `${server}/${ctx.repo.owner}/${ctx.repo.repo}/commit/${src.sha}` },
        branch: src.branch,
        event: src.event,
        run: { id: String(src.runId), url: runUrl },
      },
      {
        ...historyRemote(env),
        workdir: join(ctx.temp, 'bee-bench', 'history'),
        branch: inputs.historyBranch,
        folder: inputs.historyFolder,
        maxRuns: inputs.historyMaxRuns,
        ...(defaultBranchOf(ctx) ? { defaultBranch: defaultBranchOf(ctx) } : {}),
        spec: loadSpec(inputs.specFile).spec,
        log,
      },
    ),
  );
  const lines = [
    `- ${bundle.client}: ${report.added.length} record(s) appended to ${inputs.historyBranch}/${inputs.historyFolder}${report.commit ? ` (${report.commit.slice(0, 7)})` : ''}`,
  ];
  for (const bad of report.invalid) log(`history: invalid record left as is: ${bad.file}: ${bad.problem}`);
  const url = trendUrl(env);
  if (url) lines.push(`- [Trend charts](${url})`);
  let regressions = 0;
  if (alerting) {
    const alerts = await raiseAlerts(env, own, before, { sha: src.sha, branch: src.branch });
    regressions = alerts.regressions;
    lines.push(`- ${alerts.summary}`);
  }
  return { regressions, lines };
}
