// alert: issue on the action's side: which runs alert (a push to the repository's default branch
// with the history on), the branch's records read before this run is appended, the judgement
// (src/alert/judge.ts) and the issue sync (src/alert/issues.ts) with the job's token; a counted
// row's issue shows where it moved since the last good run (src/alert/moved.ts).
import * as core from '@actions/core';
import { ALERT_CAPS, syncAlerts, type AlertBudget, type AlertOutcome } from '../alert/issues.js';
import { judgeAgainstBranch } from '../alert/judge.js';
import { makeOctokit } from '../github/octokit.js';
import { movedFinder } from '../alert/moved.js';
import type { RunProfiles } from '../profile/index.js';
import { loadSpec } from '../spec/load.js';
import type { Result } from '../spec/schema.js';
import { countRows } from '../verdict/index.js';
import { defaultBranchOf } from './context.js';
import { headSha } from './checkout.js';
import { readHistoryStore, refName, trendUrl, type HistoryRead } from './history.js';
import { log, type FlowEnv } from './flow-steps.js';

/** Whether this run alerts; says why not when alert: issue is set but the run is not a default-branch push. */
export function alertsApply(env: FlowEnv): boolean {
  if (env.inputs.alert !== 'issue') return false;
  const branch = refName(env);
  if (env.ctx.eventName !== 'push' || defaultBranchOf(env.ctx) !== branch) {
    log(`alert: issue acts on pushes to the default branch only; this is a ${env.ctx.eventName || 'local'} run of ${branch}`);
    return false;
  }
  return true;
}

/** The branch's records (and their profiles) before this run is appended (read first, so the run is not its own baseline). */
export const recordsBeforeAppend = (env: FlowEnv) => core.group('alert: the branch history', () => readHistoryStore(env, log));

/** Judges the run against the records and syncs the issues; returns the regressions and a summary line. */
export async function raiseAlerts(
  env: FlowEnv,
  result: Result,
  history: HistoryRead,
  at?: { sha: string; branch: string; budget?: AlertBudget },
  profiles?: RunProfiles,
): Promise<{ regressions: number; summary: string }> {
  const records = history.records;
  const i = env.inputs;
  // The publish job names the commit and branch from the event it trusts; a run job from its checkout.
  const branch = at?.branch ?? refName(env);
  const sha = at?.sha ?? (await headSha(i.path));
  const judged = judgeAgainstBranch(result, records, loadSpec(i.specFile).spec, {
    branch,
    sha,
    lastRuns: i.historyRuns,
    alpha: i.alpha,
    threshold: i.threshold,
    instructionThreshold: i.thresholds.instructions,
  });
  const counts = countRows(judged.rows);
  log(
    `alert: against the last ${judged.runs} run(s) of ${branch} (${judged.counted} row(s) on instruction counts against the previous run): ${counts.regressions} regression(s), ${counts.unchanged} unchanged, ${counts.new} new`,
  );
  if (!i.token) throw new Error('input "github-token" is empty, but alert: issue opens issues (fix: leave it at its default with permissions: issues: write)');
  const server = process.env.GITHUB_SERVER_URL ?? 'https://github.com';
  const trend = trendUrl(env);
  const out: AlertOutcome = await core.group('alert: issues', () =>
    syncAlerts(
      makeOctokit(i.token),
      {
        ...env.ctx.repo,
        client: i.client,
        sha,
        branch,
        historyRuns: judged.runs,
        repoUrl: `${server}/${env.ctx.repo.owner}/${env.ctx.repo.repo}`,
        ...(judged.previous ? { previousSha: judged.previous.sha } : {}),
        ...(at?.budget ? { budget: at.budget } : {}),
        ...(env.ctx.runUrl ? { runUrl: env.ctx.runUrl } : {}),
        ...(trend ? { trendUrl: trend } : {}),
        moved: movedFinder({
          client: i.client,
          branch,
          profile: result.spec.profile,
          records,
          profilesOf: history.profilesOf,
          ...(profiles ? { current: profiles } : {}),
        }),
      },
      judged.rows,
      log,
    ),
  );
  const list = (what: string, ns: number[]) => (ns.length ? `${what} ${ns.map((n) => `#${n}`).join(', ')}` : '');
  const held = out.heldBack.length
    ? `${out.heldBack.length} row(s) held back by the cap of ${ALERT_CAPS.open} opened and ${ALERT_CAPS.close} closed issues per publish`
    : '';
  const done = [list('opened', out.opened), list('updated', out.updated), list('closed', out.closed), held].filter(Boolean).join('; ');
  core.setOutput('regressions', String(counts.regressions));
  core.setOutput('improvements', String(counts.improvements));
  return {
    regressions: counts.regressions,
    summary: `**Alerts** (against the last ${judged.runs} run(s) of \`${branch}\`): ${counts.regressions} regression(s); ${done || 'no issue changed'}.`,
  };
}
