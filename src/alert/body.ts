// What an alert issue says, and what it remembers. Each issue carries two hidden comments: a
// marker naming its (client, case, param), by which every run finds it again, and its state (the
// last good commit, the first and latest flagged ones, how many runs flagged it), read back with
// zod on the next run so the commit range stays anchored at the last good run. A counted row's body
// also shows where it moved since the last good run (moved.ts), or says why it cannot.
import { z } from 'zod';
import { HISTORY_NOTE, markerComment, verdictTable } from '../report/render/ab-comment.js';
import { columnsOf } from '../report/model/ab.js';
import { workUnits } from '../history/record.js';
import { wallOf, type AbRow, type StepVerdict } from '../verdict/index.js';
import { mdCode, mdText, safeUrl } from '../report/escape.js';
import { mdBlocks } from '../report/render/md-blocks.js';
import { formatAmountChange, formatTimeChange, formatTimeInterval } from '../report/units.js';
import { renderProfileSection } from '../report/render/profile-details.js';
import { COMPACT_CAPS } from '../profile/schema.js';
import type { Moved } from './moved.js';
import type { Runner } from '../spec/schema.js';

export interface AlertKey {
  client: Runner;
  caseId: string;
  label: string;
}

export const keyOf = (client: Runner, row: Pick<AbRow, 'caseId' | 'label'>): AlertKey => ({ client, caseId: row.caseId, label: row.label });

/** The hidden marker of one (client, case, param); "--" cannot occur inside an HTML comment. */
export function alertMarker(k: AlertKey): string {
  const part = (s: string) => encodeURIComponent(s).replaceAll('-', '%2D');
  return markerComment(`bee-bench-alert client=${k.client} case=${part(k.caseId)} param=${part(k.label)}`);
}

const STATE_TAG = 'bee-bench-alert-state';
const Sha = z.string().regex(/^[0-9a-f]{7,64}$/);
export const AlertStateSchema = z.object({
  /** The newest run before the regression was first seen (none when the branch had no earlier run). */
  since: Sha.nullable(),
  first: Sha,
  latest: Sha,
  runs: z.number().int().positive(),
  /** Rows judged on counts: the count per work unit before the step (the last good run's), which a recovery must come back to. */
  count_base: z.number().positive().optional(),
});
export type AlertState = z.infer<typeof AlertStateSchema>;

/** The state an issue body carries; undefined when it has none or it does not parse (a hand-edited body). */
export function readState(body: string): AlertState | undefined {
  const m = new RegExp(`<!-- ${STATE_TAG} (\\{[^<>]*\\}) -->`).exec(body);
  if (!m) return undefined;
  try {
    const parsed = AlertStateSchema.safeParse(JSON.parse(m[1]!));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export interface AlertLinks {
  /** https://github.com/owner/repo */
  repoUrl: string;
  branch: string;
  runUrl?: string;
  /** The trend site's root (…/bench/); the issue links the case's permalink on it. */
  trendUrl?: string;
  /** How many past runs the history baseline used. */
  historyRuns: number;
}

export const alertTitle = (k: AlertKey, branch: string) => `bee-bench: ${k.caseId} [${k.label}] got slower on ${branch} (${k.client})`;

/** The case chart on the trend site: the site's own permalink form (pages/src/permalink.ts). */
export function casePermalink(trendUrl: string, caseId: string, branch: string): string {
  return `${trendUrl.replace(/#.*$/, '')}#${new URLSearchParams({ view: 'case', case: caseId, branch })}`;
}

const short = (sha: string) => sha.slice(0, 7);

/** The count verdict the branch judge gave a row (src/alert/judge.ts), when counts decided it. */
export const countsOf = (row: AbRow): StepVerdict | undefined => row.evidence.instructions?.judged;

/** A counted row's count per work unit in this run. */
export const headCountUnit = (row: AbRow): number | undefined => {
  const i = countsOf(row);
  return i ? i.head / workUnits(row.work) : undefined;
};

/** Counts: "+1.00%" (steps are small and exact); wall time as every report writes it. */

/** How a row was judged, in the issue's words: on counts against the previous run, or on time against the branch's runs. */
function judgedText(row: AbRow, l: AlertLinks, state: AlertState): { change: string; how: string; note: string } {
  const i = countsOf(row);
  const now = headCountUnit(row);
  if (i && now !== undefined) {
    // Against the count before the step: the first run's own change, and any later run's total since.
    const ratio = state.count_base ? now / state.count_base : i.ratio;
    return {
      change: formatAmountChange(ratio, 'instructions'),
      how: `was judged on instruction counts per ${row.work.bytes ? 'byte' : row.work.ops ? 'op' : 'iteration'} against the last good run${state.since ? ` (${mdCode(short(state.since))})` : ''}: ${formatAmountChange(ratio)}, against a bar of ${(i.bar * 100).toFixed(2)}% (A/A spread ${(i.spread * 100).toFixed(2)}%)`,
      note: `Counts are the same on every machine with the same toolchain: no window and no noise, the change is in the commits named below, or in a toolchain or host change the trend chart marks.`,
    };
  }
  return {
    change: formatTimeChange(wallOf(row)?.ratio),
    how: `was judged against the last ${l.historyRuns} run(s) of ${mdCode(l.branch)} and flagged (interval ${formatTimeInterval(wallOf(row)?.ci)})`,
    note: `${HISTORY_NOTE} History runs can come from different machines.`,
  };
}

/** Room for one row's lists in an issue body (GitHub's limit is 65,536 characters). */
const MOVED_BUDGET = 30_000;

/** Where the row moved since the last good run (moved.ts), or why the issue cannot say. */
function movedText(m: Moved | undefined, latest: string): string | null {
  if (!m) return null;
  if ('none' in m) return `**Where it moved**: no function list: ${mdText(m.none)}.`;
  const kept = `the functions above ${+(COMPACT_CAPS.share * 100).toPrecision(3)}% of the row (at most ${COMPACT_CAPS.self} by own instructions, ${COMPACT_CAPS.own} client functions, ${COMPACT_CAPS.allocations} allocation sites)`;
  const files = `From the compact profiles the history keeps of the last good run (${mdCode(short(m.since))}) and this run (${mdCode(short(latest))}): each keeps ${kept}; a function one of them did not keep counts as 0 there.`;
  return renderProfileSection([m.diff], MOVED_BUDGET, files) ?? `**Where it moved**: the lists do not fit in an issue; see the run's artifact.`;
}

export function alertBody(k: AlertKey, row: AbRow, state: AlertState, l: AlertLinks, moved?: Moved): string {
  const link = (text: string, url: string | undefined) => (url && safeUrl(url) ? `[${text}](${safeUrl(url)})` : text);
  const judged = judgedText(row, l, state);
  const range = state.since
    ? `${link(`${short(state.since)}…${short(state.latest)}`, `${l.repoUrl}/compare/${state.since}...${state.latest}`)} (from the last good run to the latest flagged one)`
    : `up to ${link(short(state.latest), `${l.repoUrl}/commit/${state.latest}`)} (no earlier run of ${mdCode(l.branch)} on record)`;
  return mdBlocks([
    alertMarker(k),
    `<!-- ${STATE_TAG} ${JSON.stringify(state)} -->`,
    `## 🔴 ${mdCode(k.caseId)} [${mdText(k.label)}] is ${judged.change} on ${mdCode(l.branch)} (${mdText(k.client)})`,
    `The run of ${link(short(state.latest), `${l.repoUrl}/commit/${state.latest}`)} ${judged.how}.`,
    verdictTable([row], true, columnsOf({ env: {}, rows: [row] })),
    `<sub>${judged.note}</sub>`,
    movedText(moved, state.latest),
    `- **Commits since the last good run:** ${range}\n- **First flagged:** ${mdCode(short(state.first))}; flagged in ${state.runs} run(s) so far; latest ${l.runUrl ? link('run', l.runUrl) : mdCode(short(state.latest))}\n- **Trend:** ${l.trendUrl ? link('case chart', casePermalink(l.trendUrl, k.caseId, l.branch)) : 'no trend site (history-remote is set)'}`,
    `bee-bench updates this issue while the regression holds and closes it when a later run of ${mdCode(l.branch)} is back within the threshold.`,
  ]);
}

/** Opens every recovery comment, so a job can tell whether another one already announced it. */
export const RECOVERED_MARKER = markerComment('bee-bench-alert-recovered');

export function recoveredComment(row: AbRow, sha: string, l: AlertLinks): string {
  const i = countsOf(row);
  if (i)
    return `${RECOVERED_MARKER}\n✅ Recovered: the run of ${mdCode(short(sha))}${l.runUrl && safeUrl(l.runUrl) ? ` ([run](${safeUrl(l.runUrl)}))` : ''} is within the bar on instruction counts against the previous run of ${mdCode(l.branch)}: change ${formatAmountChange(i.ratio)}, verdict ${mdText(i.verdict)}. Closing.`;
  const w = wallOf(row);
  return `${RECOVERED_MARKER}\n✅ Recovered: the run of ${mdCode(short(sha))}${l.runUrl && safeUrl(l.runUrl) ? ` ([run](${safeUrl(l.runUrl)}))` : ''} is within the threshold against the last ${l.historyRuns} run(s) of ${mdCode(l.branch)}: change ${formatTimeChange(w?.ratio)} (${formatTimeInterval(w?.ci)}), verdict ${mdText(w?.verdict ?? '~')}. Closing.`;
}
