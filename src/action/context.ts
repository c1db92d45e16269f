// What the action knows about the run it is in: the environment GitHub's runner sets and the
// parts of the event payload each flow needs, validated (a payload missing them is a clear error,
// not an undefined deep inside a flow).
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { parseRepo, type RepoRef } from '../github/octokit.js';

export interface RunContext {
  eventName: string;
  payload: unknown;
  repo: RepoRef;
  workflow: string;
  runId: string;
  runUrl?: string;
  workspace: string;
  /** RUNNER_TEMP: a per-job scratch folder outside the checkout. */
  temp: string;
  sha?: string;
  apiUrl: string;
}

export function readContext(env: NodeJS.ProcessEnv = process.env): RunContext {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  let payload: unknown = {};
  if (env.GITHUB_EVENT_PATH) {
    try {
      payload = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
    } catch (e) {
      throw new Error(`cannot read the event payload at GITHUB_EVENT_PATH=${env.GITHUB_EVENT_PATH}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (!env.GITHUB_REPOSITORY) throw new Error('GITHUB_REPOSITORY is not set: run the action inside a GitHub Actions job');
  const server = env.GITHUB_SERVER_URL ?? 'https://github.com';
  const runId = env.GITHUB_RUN_ID ?? '';
  return {
    eventName,
    payload,
    repo: parseRepo(env.GITHUB_REPOSITORY),
    workflow: env.GITHUB_WORKFLOW ?? 'bee-bench',
    runId,
    ...(runId ? { runUrl: `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${runId}` } : {}),
    workspace: resolve(env.GITHUB_WORKSPACE ?? process.cwd()),
    temp: resolve(env.RUNNER_TEMP ?? join(tmpdir(), 'bee-bench-runner-temp')),
    ...(env.GITHUB_SHA ? { sha: env.GITHUB_SHA } : {}),
    apiUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
  };
}

const sha = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, 'a full commit sha');
const RepoSchema = z.object({ full_name: z.string() });

export const PullRequestEventSchema = z.object({
  number: z.number().int().positive(),
  pull_request: z.object({
    number: z.number().int().positive(),
    base: z.object({ sha, ref: z.string(), repo: RepoSchema }),
    head: z.object({ sha, ref: z.string(), repo: RepoSchema.nullable() }),
  }),
  repository: RepoSchema,
});
export type PullRequestEvent = z.infer<typeof PullRequestEventSchema>;

export const WorkflowRunEventSchema = z.object({
  workflow_run: z.object({
    id: z.number().int().positive(),
    name: z.string(),
    event: z.string(),
    head_sha: sha,
    head_branch: z.string().nullable().optional(),
    head_repository: z.object({ full_name: z.string() }).nullable().optional(),
    conclusion: z.string().nullable().optional(),
    pull_requests: z.array(z.object({ number: z.number().int().positive(), head: z.object({ sha }) })).optional(),
  }),
  repository: RepoSchema,
});
export type WorkflowRunEvent = z.infer<typeof WorkflowRunEventSchema>;

export function parsePayload<T>(schema: z.ZodType<T>, ctx: RunContext): T {
  const r = schema.safeParse(ctx.payload);
  if (!r.success) {
    const where = r.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw new Error(`the ${ctx.eventName} event payload lacks what the action needs (${where})`);
  }
  return r.data;
}

/** A PR from a fork gets a read-only token: its comment is posted by a workflow_run job. */
export function isForkPr(e: PullRequestEvent): boolean {
  return e.pull_request.head.repo?.full_name !== e.pull_request.base.repo.full_name;
}

const WithDefaultBranch = z.object({ repository: z.object({ default_branch: z.string().min(1) }) });

/** The repository's default branch as the event payload names it (push, pull_request, ... all carry it). */
export function defaultBranchOf(ctx: Pick<RunContext, 'payload'>): string | undefined {
  const p = WithDefaultBranch.safeParse(ctx.payload);
  return p.success ? p.data.repository.default_branch : undefined;
}
