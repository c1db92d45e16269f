// What the publish job trusts about the run it publishes, and where each fact comes from: the
// event GitHub delivered (the run, its event, commit, branch and repository) and the REST API (the
// commit's message, author and time; the pull request a workflow_run ran for). Nothing here is
// read from the artifact, which a job running client code wrote.
import { z } from 'zod';
import { httpStatus, type Octokit, type RepoRef } from '../github/octokit.js';
import { COMMIT_MESSAGE_MAX } from '../history/schema.js';
import { TEXT_CAPS } from '../spec/schema.js';
import { isForkPr, parsePayload, PullRequestEventSchema, WorkflowRunEventSchema, type RunContext } from './context.js';

/** The events whose runs append to the history: the repository's own code, on a branch it chose. */
export const HISTORY_EVENTS: readonly string[] = ['push', 'schedule', 'workflow_dispatch'];
/** The events whose runs may get a pull-request comment. */
export const PULL_REQUEST_EVENTS: readonly string[] = ['pull_request', 'pull_request_target'];

/** The run whose artifacts are published, as the trusted event describes it. */
export interface SourceRun {
  runId: number;
  /** Its workflow's name: the comment marker's first part. */
  workflow: string;
  event: string;
  /** The commit it measured: a pull request's head, or the pushed / dispatched commit ('' until the API names it). */
  sha: string;
  branch: string;
  /** The repository its code came from (owner/name). */
  headRepo: string;
  /** The pull request it ran for: from the payload (same run), else from the API (pullRequestOf). */
  pr?: number;
  /** Whether the run's code came from this repository (not a fork). */
  ownRepo: boolean;
}

const IssueCommentEventSchema = z.object({
  issue: z.object({ number: z.number().int().positive(), pull_request: z.object({ url: z.string() }).nullable().optional() }),
  repository: z.object({ full_name: z.string() }),
});

export function sourceRun(ctx: RunContext): SourceRun {
  const self = `${ctx.repo.owner}/${ctx.repo.repo}`;
  if (ctx.eventName === 'workflow_run') {
    const ev = parsePayload(WorkflowRunEventSchema, ctx);
    const wr = ev.workflow_run;
    const headRepo = wr.head_repository?.full_name ?? ev.repository.full_name;
    return {
      runId: wr.id,
      workflow: wr.name,
      event: wr.event,
      sha: wr.head_sha,
      branch: wr.head_branch ?? '',
      headRepo,
      ownRepo: headRepo === ev.repository.full_name,
    };
  }
  // A needs: job of the measuring workflow: this very run.
  const runId = Number(ctx.runId);
  if (!Number.isInteger(runId) || runId <= 0) throw new Error("mode: publish outside workflow_run reads this run's artifacts, but GITHUB_RUN_ID is not set");
  const base = { runId, workflow: ctx.workflow, event: ctx.eventName };
  if (PULL_REQUEST_EVENTS.includes(ctx.eventName)) {
    const ev = parsePayload(PullRequestEventSchema, ctx);
    const pr = ev.pull_request;
    return { ...base, sha: pr.head.sha, branch: pr.head.ref, headRepo: pr.head.repo?.full_name ?? '', pr: pr.number, ownRepo: !isForkPr(ev) };
  }
  if (ctx.eventName === 'issue_comment') {
    // A comment on a pull request names the PR; its head commit comes from the API (pullRequestOf).
    const ev = IssueCommentEventSchema.safeParse(ctx.payload);
    const pr = ev.success && ev.data.issue.pull_request ? ev.data.issue.number : undefined;
    return { ...base, sha: '', branch: '', headRepo: '', ownRepo: false, ...(pr ? { pr } : {}) };
  }
  if (!ctx.sha) throw new Error('mode: publish needs GITHUB_SHA, the commit the run measured');
  return { ...base, sha: ctx.sha, branch: process.env.GITHUB_REF_NAME ?? '', headRepo: self, ownRepo: true };
}

/** Why this run's records may not be appended to the history, or undefined when they may. */
export function historyRefusal(src: SourceRun): string | undefined {
  if (!HISTORY_EVENTS.includes(src.event))
    return `run ${src.runId} was a ${src.event} run; the history takes only ${HISTORY_EVENTS.join(', ')} runs of this repository`;
  if (!src.ownRepo) return `run ${src.runId} ran code of ${src.headRepo || 'another repository'}; the history takes only this repository's own runs`;
  return undefined;
}

/** Whether this run can have a pull-request comment at all. */
export const commentsApply = (src: SourceRun) => PULL_REQUEST_EVENTS.includes(src.event) || src.event === 'issue_comment';

/**
 * The pull request the run measured, from the event or the API, with the commit it measured; a
 * reason instead when there is none. workflow_run: the open pull request whose head is the run's
 * head repository and branch at the run's commit (GitHub leaves `pull_requests` empty for forks, and
 * the artifact's number is the measure job's word); issue_comment: the commented PR's head.
 */
export async function pullRequestOf(gh: Octokit, repo: RepoRef, src: SourceRun): Promise<{ pr: number; sha: string } | { refused: string }> {
  if (src.event === 'issue_comment' && src.pr !== undefined) {
    try {
      const { data } = await gh.rest.pulls.get({ ...repo, pull_number: src.pr });
      return { pr: src.pr, sha: data.head.sha };
    } catch (e) {
      return { refused: `pull request #${src.pr} cannot be read (${httpStatus(e) ?? (e instanceof Error ? e.message : String(e))})` };
    }
  }
  if (src.pr !== undefined) return { pr: src.pr, sha: src.sha };
  if (!PULL_REQUEST_EVENTS.includes(src.event)) return { refused: `run ${src.runId} was a ${src.event} run, not one of a pull request` };
  const owner = src.headRepo.split('/')[0];
  if (!owner || !src.branch) return { refused: `run ${src.runId} names no head repository and branch to find its pull request by` };
  let open: Array<{ number: number; head: { sha: string; repo: { full_name: string } | null } }>;
  try {
    open = (await gh.rest.pulls.list({ ...repo, state: 'open', head: `${owner}:${src.branch}`, per_page: 100 })).data;
  } catch (e) {
    return { refused: `the pull requests of ${owner}:${src.branch} cannot be listed (${httpStatus(e) ?? (e instanceof Error ? e.message : String(e))})` };
  }
  const match = open.filter((p) => p.head.sha === src.sha && p.head.repo?.full_name === src.headRepo);
  if (match.length !== 1)
    return {
      refused: `${match.length === 0 ? 'no' : `${match.length}`} open pull request(s) of ${src.headRepo}:${src.branch} have head ${src.sha.slice(0, 12)} (a newer push will post its own)`,
    };
  return { pr: match[0]!.number, sha: src.sha };
}

/** A commit as the history records it, from the API: the artifact's account of it is not taken. */
export interface TrustedCommit {
  sha: string;
  message: string;
  author: string;
  /** The committer's date, as `git log --format=%cI` gives it. */
  timestamp: string;
}

export async function trustedCommit(gh: Octokit, repo: RepoRef, sha: string): Promise<TrustedCommit> {
  let data;
  try {
    data = (await gh.rest.repos.getCommit({ ...repo, ref: sha, per_page: 1 })).data;
  } catch (e) {
    throw new Error(
      `publish: commit ${sha.slice(0, 12)} cannot be read from the API (${httpStatus(e) ?? (e instanceof Error ? e.message : String(e))}); the history records a commit's time from the API only. Fix: give the job permissions: contents: write (it implies read)`,
    );
  }
  const timestamp = data.commit.committer?.date ?? data.commit.author?.date;
  if (data.sha !== sha || !timestamp) throw new Error(`publish: the API answered for commit ${sha.slice(0, 12)} without its sha or date; nothing appended`);
  // Held to the record's caps (src/history/schema.ts): the API's text, but a record must stay readable.
  const author = data.commit.author?.name ?? data.author?.login ?? 'unknown';
  return { sha, message: data.commit.message.slice(0, COMMIT_MESSAGE_MAX), author: author.slice(0, TEXT_CAPS.short), timestamp };
}
