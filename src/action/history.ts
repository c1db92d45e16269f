// The action's use of the gh-pages history store (src/history): appending push and dispatch runs,
// reading the base branch's runs as a PR baseline, and the trend-site link for comments.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '@actions/core';
import { DEFAULT_IDENTITY, gitIn, headCommit, publishResults, readRecords, readRunProfiles, type HistoryRecord, type WriteReport } from '../history/index.js';
import { HistoryLinkError, linkOnPath } from '../history/read.js';
import type { RunProfiles } from '../profile/index.js';
import { historyAbReport } from '../ab/history-baseline.js';
import type { AbReport } from '../ab/report.js';
import { loadSpec } from '../spec/load.js';
import type { Result } from '../spec/schema.js';
import { markerFor } from './bundle.js';
import { defaultBranchOf } from './context.js';
import { announce, log, runSinglePipeline, type FlowEnv, type SideSource } from './flow-steps.js';

/**
 * The history repository: history-remote as given, else this repository over HTTPS with the job
 * token, which git gets as a header for that URL (src/history/git.ts), never inside the URL.
 */
export function historyRemote(env: FlowEnv): { remote: string; token?: string } {
  if (env.inputs.historyRemote) return { remote: env.inputs.historyRemote };
  const remote = `${process.env.GITHUB_SERVER_URL ?? 'https://github.com'}/${env.ctx.repo.owner}/${env.ctx.repo.repo}.git`;
  return { remote, ...(env.inputs.token ? { token: env.inputs.token } : {}) };
}

/** Where GitHub Pages serves the trend site when the history branch is published. */
export function trendUrl(env: FlowEnv): string | undefined {
  if (env.inputs.history !== 'gh-pages' || env.inputs.historyRemote) return undefined;
  const { owner, repo } = env.ctx.repo;
  const base = repo.toLowerCase() === `${owner.toLowerCase()}.github.io` ? `https://${repo}` : `https://${owner}.github.io/${repo}`;
  return `${base}/${env.inputs.historyFolder}/`;
}

/** The branch a push or dispatch measured: GITHUB_REF_NAME, else the payload's ref. */
export function refName(env: FlowEnv): string {
  const fromEnv = process.env.GITHUB_REF_NAME;
  if (fromEnv) return fromEnv;
  const ref = (env.ctx.payload as { ref?: unknown }).ref;
  return typeof ref === 'string' ? ref.replace(/^refs\/(heads|tags)\//, '') : 'unknown';
}

export async function appendHistory(
  env: FlowEnv,
  results: readonly Result[],
  log: (l: string) => void,
  profiles: readonly RunProfiles[] = [],
): Promise<WriteReport> {
  const commit = headCommit(env.inputs.path);
  const server = process.env.GITHUB_SERVER_URL ?? 'https://github.com';
  const report = await publishResults(
    results,
    {
      commit: { ...commit, url: `${server}/${env.ctx.repo.owner}/${env.ctx.repo.repo}/commit/${commit.sha}` },
      branch: refName(env),
      event: env.ctx.eventName || 'local',
      run: { id: env.ctx.runId || `local-${Date.now()}`, ...(env.ctx.runUrl ? { url: env.ctx.runUrl } : {}) },
    },
    {
      ...historyRemote(env),
      workdir: join(env.ctx.temp, 'bee-bench', 'history'),
      branch: env.inputs.historyBranch,
      folder: env.inputs.historyFolder,
      maxRuns: env.inputs.historyMaxRuns,
      ...(defaultBranchOf(env.ctx) ? { defaultBranch: defaultBranchOf(env.ctx) } : {}),
      spec: loadSpec(env.inputs.specFile).spec,
      profiles,
      log,
    },
  );
  log(
    `history: ${report.added.length} record(s) added to ${env.inputs.historyBranch}/${env.inputs.historyFolder}, commit ${report.commit ?? '(none)'} after ${report.attempts} attempt(s)`,
  );
  for (const bad of report.invalid) log(`history: invalid record left as is: ${bad.file}: ${bad.problem}`);
  return report;
}

/** The history branch as read: its valid records, and a record's side file of compact function profiles. */
export interface HistoryRead {
  records: HistoryRecord[];
  /** The record's compact profiles (src/history/profiles.ts), or why it has none. */
  profilesOf: (r: HistoryRecord) => RunProfiles | string;
}

/** No history read (the run does not alert). */
export const NO_HISTORY: HistoryRead = { records: [], profilesOf: () => 'the history was not read' };

/** The history branch (a shallow, read-only clone); no records when the branch is absent. */
export async function readHistoryStore(env: FlowEnv, log: (l: string) => void): Promise<HistoryRead> {
  const dir = mkdtempSync(join(env.ctx.temp, 'bee-bench-history-read-'));
  const { remote, token } = historyRemote(env);
  try {
    await gitIn(
      dir,
      DEFAULT_IDENTITY,
      token ? { url: remote, token } : undefined,
    )(['clone', '--quiet', '--depth', '1', '--branch', env.inputs.historyBranch, '--', remote, '.']);
  } catch {
    log(`history: no ${env.inputs.historyBranch} branch to read a baseline from`);
    return { records: [], profilesOf: () => 'the history branch does not exist' };
  }
  // The read clone is the branch as anyone with push access left it: no link is followed here either.
  const link = linkOnPath(dir, env.inputs.historyFolder);
  if (link) throw new HistoryLinkError(link);
  const folder = join(dir, env.inputs.historyFolder);
  let set;
  try {
    set = readRecords(folder);
  } catch (e) {
    throw e instanceof HistoryLinkError ? new HistoryLinkError(`${env.inputs.historyFolder}/${e.path}`) : e;
  }
  for (const bad of set.invalid) log(`history: invalid record ignored: ${bad.file}: ${bad.problem}`);
  return { records: set.records.map((r) => r.record), profilesOf: (r) => readRunProfiles(folder, r) };
}

/** Every valid record of the history branch; none when the branch is absent. */
export async function readHistory(env: FlowEnv, log: (l: string) => void): Promise<HistoryRecord[]> {
  return (await readHistoryStore(env, log)).records;
}

/** baseline: history — a single run of the head judged against the base branch's recorded runs. */
export async function historyBaselinePipeline(env: FlowEnv, head: SideSource, baseBranch: string): Promise<AbReport> {
  const i = env.inputs;
  const out = await runSinglePipeline(env, head);
  const result = out.results.find((r) => r.runner === i.client)!;
  const records = await core.group(`history: the last ${i.historyRuns} runs of ${baseBranch}`, () => readHistory(env, log));
  const report = historyAbReport(result, records, {
    specFile: i.specFile,
    profile: i.profile,
    outDir: env.outDir,
    branch: baseBranch,
    lastRuns: i.historyRuns,
    alpha: i.alpha,
    threshold: i.threshold,
    headLabel: head.label,
    marker: markerFor(env.ctx.workflow, i.client),
    ...(env.trendUrl ? { trendUrl: env.trendUrl } : {}),
  });
  announce(report, env.outDir);
  return report;
}
