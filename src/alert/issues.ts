// Alert issues on GitHub: one open issue per (client, case, param) regression, found again by its
// hidden marker among the open issues with the alert label. Two jobs can race (a rerun next to the
// original, two pushes close together): both may find nothing and both create. So after creating,
// a job lists again; the oldest open issue with the marker is the one that stays, and a job whose
// own issue is newer closes it as a duplicate of that one. Each job's re-list follows its own
// create, so the later creator always sees the earlier issue: exactly one stays open. A recovery
// seen by two jobs is settled the same way: each posts its comment, lists the issue's comments,
// and deletes its own if an older recovery comment is there; both close the issue.
import type { Octokit, RepoRef } from '../github/octokit.js';
import type { AbRow } from '../verdict/index.js';
import type { Runner } from '../spec/schema.js';
import {
  alertBody,
  alertMarker,
  alertTitle,
  countsOf,
  headCountUnit,
  keyOf,
  readState,
  RECOVERED_MARKER,
  recoveredComment,
  type AlertLinks,
  type AlertState,
} from './body.js';
import type { Moved } from './moved.js';

export const ALERT_LABEL = 'bee-bench-regression';

/**
 * How many issues one publish may open and close, over every client it publishes: a run whose rows
 * were forged (in its own job) cannot flood the tracker or sweep it clean. Rows past the cap wait
 * for the next run, which sees them again.
 */
export const ALERT_CAPS = { open: 5, close: 10 } as const;

export interface AlertBudget {
  open: number;
  close: number;
}

export const newAlertBudget = (): AlertBudget => ({ ...ALERT_CAPS });

export interface AlertRun extends RepoRef, AlertLinks {
  client: Runner;
  /** The commit this run measured. */
  sha: string;
  /** The branch's run before this one: the last good run for rows flagged now for the first time. */
  previousSha?: string;
  /** Issues this sync (and any other of the same publish) may still open and close; spent as it goes. A fresh ALERT_CAPS when absent. */
  budget?: AlertBudget;
  /** A counted row's difference from the last good run (src/alert/moved.ts), shown in its issue. */
  moved?: (row: AbRow, since: string | null) => Moved | undefined;
}

export interface AlertOutcome {
  opened: number[];
  updated: number[];
  closed: number[];
  /** Issues this job created and then closed because an older one for the same row was open. */
  duplicates: number[];
  /** Issues whose recovery a concurrent job had announced first (this job's comment deleted). */
  announcedByOthers: number[];
  /** Rows that would have opened or closed an issue past the budget, as "case [label]". */
  heldBack: string[];
}

interface OpenIssue {
  number: number;
  body: string;
}

async function openAlerts(gh: Octokit, ref: RepoRef): Promise<OpenIssue[]> {
  const all = await gh.paginate(gh.rest.issues.listForRepo, {
    owner: ref.owner,
    repo: ref.repo,
    state: 'open',
    labels: ALERT_LABEL,
    sort: 'created',
    direction: 'asc',
    per_page: 100,
  });
  return all
    .filter((i) => !i.pull_request)
    .map((i) => ({ number: i.number, body: i.body ?? '' }))
    .sort((a, b) => a.number - b.number);
}

export async function syncAlerts(gh: Octokit, run: AlertRun, rows: readonly AbRow[], log: (line: string) => void = () => {}): Promise<AlertOutcome> {
  const out: AlertOutcome = { opened: [], updated: [], closed: [], duplicates: [], announcedByOthers: [], heldBack: [] };
  const ref = { owner: run.owner, repo: run.repo };
  const budget = run.budget ?? newAlertBudget();
  const open = await openAlerts(gh, ref);
  const closeAsDuplicate = async (issue: number, comment: string) => {
    await gh.rest.issues.createComment({ ...ref, issue_number: issue, body: comment });
    await gh.rest.issues.update({ ...ref, issue_number: issue, state: 'closed', state_reason: 'duplicate' });
  };
  /** Announces a recovery once however many jobs see it; false when another job's comment came first. */
  const recover = async (issue: number, comment: string): Promise<boolean> => {
    const { data: posted } = await gh.rest.issues.createComment({ ...ref, issue_number: issue, body: comment });
    const comments = await gh.paginate(gh.rest.issues.listComments, { ...ref, issue_number: issue, per_page: 100 });
    const first = Math.min(...comments.filter((c) => c.body?.startsWith(RECOVERED_MARKER)).map((c) => c.id), posted.id);
    if (first !== posted.id) await gh.rest.issues.deleteComment({ ...ref, comment_id: posted.id });
    await gh.rest.issues.update({ ...ref, issue_number: issue, state: 'closed', state_reason: 'completed' });
    return first === posted.id;
  };
  for (const row of rows) {
    const key = keyOf(run.client, row);
    const marker = alertMarker(key);
    const mine = open.filter((i) => i.body.includes(marker));
    // A row's verdict on its evidence: counts where the branch judge used them (src/alert/judge.ts), else wall time.
    const judged = row.status === 'ok' && row.verdict !== undefined;
    // A count step is seen once, against the run before it: an open issue holds while the count
    // stays above the bar over the count before the step, whatever the latest step says.
    const base = mine[0] ? readState(mine[0].body)?.count_base : undefined;
    const now = headCountUnit(row);
    const held = base !== undefined && now !== undefined && now / base >= 1 + countsOf(row)!.bar;
    if (judged && (row.verdict === 'regression' || held)) {
      const [keep, ...extra] = mine;
      if (!keep) {
        if (budget.open <= 0) {
          out.heldBack.push(`${row.caseId} [${row.label}]`);
          log(`alert: ${row.caseId} [${row.label}]: regression, no issue opened: this publish opened its ${ALERT_CAPS.open} already`);
          continue;
        }
        budget.open--;
        const counts = countsOf(row);
        const countBase = counts && now !== undefined ? now / counts.ratio : undefined;
        const state: AlertState = { since: run.previousSha ?? null, first: run.sha, latest: run.sha, runs: 1, ...(countBase ? { count_base: countBase } : {}) };
        const { data } = await gh.rest.issues.create({
          ...ref,
          title: alertTitle(key, run.branch),
          body: alertBody(key, row, state, run, run.moved?.(row, state.since)),
          labels: [ALERT_LABEL, `bee-bench:${run.client}`],
        });
        const oldest = (await openAlerts(gh, ref)).find((i) => i.body.includes(marker));
        if (oldest && oldest.number !== data.number) {
          await closeAsDuplicate(data.number, `Duplicate of #${oldest.number}: another bee-bench job opened it first for the same row.`);
          out.duplicates.push(data.number);
          log(`alert: ${row.caseId} [${row.label}]: #${oldest.number} was opened by a concurrent job; closed #${data.number} as its duplicate`);
        } else {
          out.opened.push(data.number);
          log(`alert: ${row.caseId} [${row.label}]: opened #${data.number}`);
        }
        continue;
      }
      for (const d of extra) {
        await closeAsDuplicate(d.number, `Duplicate of #${keep.number}.`);
        out.duplicates.push(d.number);
      }
      const before = readState(keep.body);
      const state: AlertState = before
        ? { ...before, latest: run.sha, runs: before.latest === run.sha ? before.runs : before.runs + 1 }
        : { since: run.previousSha ?? null, first: run.sha, latest: run.sha, runs: 1 };
      const body = alertBody(key, row, state, run, run.moved?.(row, state.since));
      if (body !== keep.body) {
        await gh.rest.issues.update({ ...ref, issue_number: keep.number, body });
        out.updated.push(keep.number);
        log(`alert: ${row.caseId} [${row.label}]: still slower, updated #${keep.number}`);
      }
    } else if (judged) {
      for (const i of mine) {
        if (budget.close <= 0) {
          out.heldBack.push(`${row.caseId} [${row.label}]`);
          log(`alert: ${row.caseId} [${row.label}]: recovered, #${i.number} left open: this publish closed its ${ALERT_CAPS.close} already`);
          continue;
        }
        budget.close--;
        if (await recover(i.number, recoveredComment(row, run.sha, run))) {
          out.closed.push(i.number);
          log(`alert: ${row.caseId} [${row.label}]: recovered, closed #${i.number}`);
        } else {
          out.announcedByOthers.push(i.number);
          log(`alert: ${row.caseId} [${row.label}]: recovered; a concurrent job announced it on #${i.number} first`);
        }
      }
    }
    // Skipped, failed, new and missing rows say nothing about a regression: their issues stay as they are.
  }
  return out;
}
