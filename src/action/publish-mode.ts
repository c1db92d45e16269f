// mode: publish, the second job of every setup (mode: comment is its older name). It holds the
// write token and runs no client code: no checkout is built, no cache restored, nothing from the
// artifact executed. It reads only the artifacts it expects of the measuring run (the same run when
// it is a `needs:` job, the triggering run on workflow_run; publish-artifacts.ts) under size limits
// enforced while they download and unzip, validates them with zod, checks them against what it
// trusts (the event and the API: publish-source.ts; the spec and caps: publish-checks.ts), and only
// then does every write: the sticky comment, the history append, the alert issues, the job summary.
// Each refusal is one warning line naming the artifact and why.
import * as core from '@actions/core';
import { join } from 'node:path';
import { newAlertBudget } from '../alert/issues.js';
import { ARTIFACT_PREFIX } from '../github/artifacts.js';
import { readArtifactEntries } from '../github/artifact-download.js';
import { upsertSticky } from '../github/comment.js';
import { makeOctokit, type Octokit } from '../github/octokit.js';
import { writeSummary } from '../github/summary.js';
import { publishResults } from '../history/index.js';
import type { RecordContext } from '../history/record.js';
import { inert } from '../report/escape.js';
import { renderAbComment, renderBuildFailure } from '../report/render/ab-comment.js';
import { loadSpec, type LoadedSpec } from '../spec/load.js';
import type { RunProfiles } from '../profile/index.js';
import type { Result } from '../spec/schema.js';
import { raiseAlerts } from './alerts.js';
import { BUNDLE_FILE, hasChange, markerFor, outcomeCounts, parseBundle, type Bundle } from './bundle.js';
import { defaultBranchOf, type RunContext } from './context.js';
import { historyRemote, NO_HISTORY, readHistoryStore, trendUrl } from './history.js';
import { ActionInputError, type ActionInputs } from './inputs.js';
import { log, NOTHING, setCountOutputs, type FlowEnv, type FlowResult } from './flow-steps.js';
import { parsePublishBundle, PUBLISH_FILE } from './publish-bundle.js';
import { artifactName, selectArtifacts, type ExpectedArtifact } from './publish-artifacts.js';
import { acceptedProfiles, acceptedResults, checkWriteBound, withinBudget, writeCost } from './publish-checks.js';
import { commentsApply, historyRefusal, pullRequestOf, sourceRun, trustedCommit, type SourceRun, type TrustedCommit } from './publish-source.js';

export async function publishFlow(inputs: ActionInputs, ctx: RunContext): Promise<FlowResult> {
  if (!inputs.token)
    throw ActionInputError.one(
      'github-token',
      `empty, but mode: ${inputs.mode} reads artifacts and writes comments, history and issues`,
      'leave github-token at its default (${{ github.token }}) with the permissions the writes need (actions: read, pull-requests: write, contents: write, issues: write)',
    );
  const src = sourceRun(ctx);
  const gh = makeOctokit(inputs.token);
  const selection = await selectArtifacts(
    gh,
    { ...ctx.repo, runId: src.runId },
    {
      ...(inputs.client ? { client: inputs.client } : {}),
      ...(inputs.artifactId !== undefined ? { artifactId: inputs.artifactId } : {}),
    },
  );
  for (const line of selection.refused) warn(`publish: ${line}`);
  const done: string[] = [];
  const bodies: string[] = [];
  const total: FlowResult = { ...NOTHING };
  if (selection.read.length === 0) {
    const what = inputs.artifactId !== undefined ? `artifact id ${inputs.artifactId}` : `${ARTIFACT_PREFIX}${inputs.client ?? '<client>'}`;
    warn(`publish: run ${src.runId} (${src.workflow}) has no ${what} artifact to publish; did its bee-bench step finish?`);
  }
  const files: ArtifactFiles[] = [];
  for (const a of selection.read) {
    try {
      const entries = await readArtifactEntries(
        { ...ctx.repo, artifactId: a.id, token: inputs.token, apiUrl: ctx.apiUrl },
        (n) => n === BUNDLE_FILE || n === PUBLISH_FILE,
      );
      const comment = entries.get(BUNDLE_FILE);
      const records = entries.get(PUBLISH_FILE);
      if (!comment && !records) warn(`publish: artifact ${artifactName(a)} holds neither ${BUNDLE_FILE} nor ${PUBLISH_FILE}; nothing to publish`);
      else files.push({ artifact: a, ...(comment ? { comment } : {}), ...(records ? { records } : {}) });
    } catch (e) {
      warn(`publish: artifact ${artifactName(a)} refused: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const pr = new PullRequestOnce(gh, ctx, src);
  for (const f of files.filter((x) => x.comment)) {
    const posted = await postComment(inputs, ctx, src, pr, f.artifact, f.comment!);
    if (posted) {
      add(total, posted.result);
      done.push(posted.line);
      bodies.push(posted.body);
    }
  }
  const withRecords = files.filter((x) => x.records);
  if (withRecords.length > 0) {
    const appended = await appendRecords(inputs, ctx, src, gh, withRecords);
    total.regressions += appended.regressions;
    done.push(...appended.lines);
  }
  setCountOutputs(total);
  await writeSummary(
    `### bee-bench publish for ${src.workflow} run ${src.runId}\n\n${done.join('\n') || 'Nothing published.'}\n${bodies.map((b) => `\n${b}`).join('')}`,
    log,
  );
  return total;
}

/**
 * A warning annotation. Its text quotes what an artifact brought (its name, a case id, a field), so
 * it is made inert: no mention, reference, link or bidirectional control reaches GitHub.
 */
const warn = (line: string) => core.warning(inert(line));

interface ArtifactFiles {
  artifact: ExpectedArtifact;
  comment?: Buffer;
  records?: Buffer;
}

/** The run's pull request, asked of the event or the API once however many artifacts hold a comment. */
class PullRequestOnce {
  private answer?: Promise<Awaited<ReturnType<typeof pullRequestOf>>>;
  constructor(
    private readonly gh: Octokit,
    private readonly ctx: RunContext,
    private readonly src: SourceRun,
  ) {}
  get() {
    return (this.answer ??= pullRequestOf(this.gh, this.ctx.repo, this.src));
  }
}

function add(total: FlowResult, r: FlowResult): void {
  total.regressions += r.regressions;
  total.improvements += r.improvements;
  total.failed += r.failed;
  total.missing += r.missing;
}

/** The sticky comment from comment.json: rendered here from validated rows, for the PR the event or the API names. */
async function postComment(
  inputs: ActionInputs,
  ctx: RunContext,
  src: SourceRun,
  prOf: PullRequestOnce,
  a: ExpectedArtifact,
  bytes: Buffer,
): Promise<{ result: FlowResult; line: string; body: string } | undefined> {
  const refuse = (why: string) => void warn(`publish: artifact ${artifactName(a)}: comment not posted: ${why}`);
  if (!commentsApply(src)) return refuse(`run ${src.runId} was a ${src.event} run, which has no pull request`);
  let bundle: Bundle;
  try {
    bundle = parseBundle(bytes);
  } catch (e) {
    return refuse(e instanceof Error ? e.message : String(e));
  }
  if (a.client && bundle.client !== a.client) return refuse(`${BUNDLE_FILE} names client ${bundle.client}, but this is ${a.client}'s artifact`);
  if (inputs.comment === 'never') {
    log('comment: never');
    return undefined;
  }
  const pr = await prOf.get();
  if ('refused' in pr) return refuse(pr.refused);
  if (bundle.pr !== pr.pr)
    return refuse(
      `it names pull request #${bundle.pr}, the run's is #${pr.pr} (${src.pr !== undefined && src.event !== 'issue_comment' ? 'from the event' : 'from the API'})`,
    );
  if (bundle.head_sha !== pr.sha) return refuse(`it is for ${bundle.head_sha.slice(0, 12)}, pull request #${pr.pr} is at ${pr.sha.slice(0, 12)}`);
  const gh = makeOctokit(inputs.token);
  const marker = markerFor(src.workflow, bundle.client);
  const o = bundle.outcome;
  const body = o.kind === 'report' ? renderAbComment({ ...o.report, marker }) : renderBuildFailure({ ...o.failure, marker });
  const counts = outcomeCounts(o);
  const res = await upsertSticky(gh, { ...ctx.repo, issue: pr.pr, marker, body, policy: inputs.comment, changed: hasChange(counts) }, log);
  log(`comment: #${pr.pr} ${bundle.client}: ${res.action}${res.url ? ` ${res.url}` : ''}${res.reason ? ` (${res.reason})` : ''}`);
  if (res.url) core.setOutput('comment-url', res.url);
  const result = { regressions: counts.regressions, improvements: counts.improvements, failed: counts.failed, missing: counts.missing };
  return { result, line: `- ${bundle.client}: PR #${pr.pr}: ${res.action}${res.url ? ` ${res.url}` : ''}`, body };
}

/** The accepted results (and their compact profiles) of one artifact's publish.json with what they would write, or undefined (warned) when it is refused. */
function acceptedFrom(
  f: ArtifactFiles,
  commit: TrustedCommit,
  spec: LoadedSpec,
  ctx: RecordContext,
): { name: string; results: Result[]; profiles: RunProfiles[]; cost: number } | undefined {
  const name = artifactName(f.artifact);
  try {
    const bundle = parsePublishBundle(f.records!);
    const { results, notes } = acceptedResults(bundle, { ...(f.artifact.client ? { client: f.artifact.client } : {}), commit, spec });
    const kept = acceptedProfiles(bundle, results);
    const cost = writeCost(results, kept.profiles, ctx);
    for (const n of [...notes, ...kept.notes]) warn(`publish: artifact ${name}: ${n}`);
    return { name, results, profiles: kept.profiles, cost };
  } catch (e) {
    warn(`publish: artifact ${name} refused: ${e instanceof Error ? e.message : String(e)}; not appended`);
    return undefined;
  }
}

/** The history append (and alerts) from publish.json, for a push, schedule or dispatch run of this repository. */
async function appendRecords(
  inputs: ActionInputs,
  ctx: RunContext,
  src: SourceRun,
  gh: Octokit,
  files: readonly ArtifactFiles[],
): Promise<{ regressions: number; lines: string[] }> {
  const names = files.map((f) => artifactName(f.artifact)).join(', ');
  const none = { regressions: 0, lines: [] };
  if (inputs.history !== 'gh-pages') {
    log(`publish: ${names} has results, and history is off; not appended`);
    return none;
  }
  const refusal = historyRefusal(src);
  if (refusal) {
    warn(`publish: ${names}: records not appended: ${refusal}`);
    return none;
  }
  const commit = await trustedCommit(gh, ctx.repo, src.sha);
  const spec = loadSpec(inputs.specFile);
  if (!src.branch) throw new Error(`publish: the branch of run ${src.runId} is unknown (no GITHUB_REF_NAME / workflow_run.head_branch)`);
  const server = process.env.GITHUB_SERVER_URL ?? 'https://github.com';
  const runUrl = `${server}/${ctx.repo.owner}/${ctx.repo.repo}/actions/runs/${src.runId}`;
  const recordCtx: RecordContext = {
    commit: { ...commit, url: `${server}/${ctx.repo.owner}/${ctx.repo.repo}/commit/${src.sha}` },
    branch: src.branch,
    event: src.event,
    run: { id: String(src.runId), url: runUrl },
  };
  // Every artifact checked alone, then the bytes they would write summed against one budget.
  const budget = withinBudget(files.flatMap((f) => acceptedFrom(f, commit, spec, recordCtx) ?? []));
  for (const line of budget.refused) warn(`publish: ${line}`);
  const accepted = budget.kept;
  const results = accepted.flatMap((a) => a.results);
  const profiles = accepted.flatMap((a) => a.profiles);
  if (results.length === 0) return none;
  try {
    checkWriteBound(results);
  } catch (e) {
    warn(`publish: ${accepted.map((a) => a.name).join(', ')} refused: ${e instanceof Error ? e.message : String(e)}; nothing appended`);
    return none;
  }
  const env: FlowEnv = {
    inputs: { ...inputs, client: results[0]!.runner },
    ctx,
    crossClients: [],
    outDir: join(ctx.temp, 'bee-bench', 'publish'),
    cacheDir: join(ctx.temp, 'bee-bench', 'no-cache'),
  };
  const alerting = inputs.alert === 'issue' && src.event === 'push' && src.branch === defaultBranchOf(ctx);
  if (inputs.alert === 'issue' && !alerting) log(`alert: issue acts on pushes to the default branch only; this is a ${src.event} run of ${src.branch}`);
  const before = alerting ? await core.group('alert: the branch history', () => readHistoryStore(env, log)) : NO_HISTORY;
  const report = await core.group('history: append', () =>
    publishResults(results, recordCtx, {
      ...historyRemote(env),
      workdir: join(ctx.temp, 'bee-bench', 'history'),
      branch: inputs.historyBranch,
      folder: inputs.historyFolder,
      maxRuns: inputs.historyMaxRuns,
      ...(defaultBranchOf(ctx) ? { defaultBranch: defaultBranchOf(ctx) } : {}),
      spec: spec.spec,
      profiles,
      log,
    }),
  );
  const lines = [
    `- ${results.map((r) => r.runner).join(', ')}: ${report.added.length} record(s) appended to ${inputs.historyBranch}/${inputs.historyFolder}${report.commit ? ` (${report.commit.slice(0, 7)})` : ''}`,
  ];
  for (const bad of report.invalid) log(`history: invalid record left as is: ${bad.file}: ${bad.problem}`);
  const url = trendUrl(env);
  if (url) lines.push(`- [Trend charts](${url})`);
  let regressions = 0;
  if (alerting) {
    // One budget for the whole publish: however many rows a run flags, it opens and closes a bounded number of issues.
    const budget = newAlertBudget();
    for (const result of results) {
      const alerts = await raiseAlerts(
        { ...env, inputs: { ...inputs, client: result.runner } },
        result,
        before,
        { sha: src.sha, branch: src.branch, budget },
        profiles.find((p) => p.runner === result.runner),
      );
      regressions += alerts.regressions;
      lines.push(`- ${alerts.summary}`);
    }
  }
  return { regressions, lines };
}
