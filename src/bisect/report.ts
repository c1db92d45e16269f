// The bisect table: every probed step in the order measured (commit, its place in the range,
// change against the good ref, interval, verdict, time), the answer, and the total time. The same
// markdown goes to the terminal and to the job summary. With counts, the named commit's difference
// against its parent for the walked row follows: the PR comment's "Where it moved" lists.
import { mdCode, mdText } from '../report/escape.js';
import { renderProfileSection } from '../report/render/profile-details.js';
import { mdBlocks, mdTable } from '../report/render/md-blocks.js';
import { formatAmountChange, formatDuration, formatPercent, formatTimeChange } from '../report/units.js';
import type { BisectDifference } from './difference.js';
import type { BisectOutcome } from './run.js';

export interface BisectReportInput {
  runner: string;
  cases: readonly string[];
  threshold: number;
  /** What the steps measured, e.g. "wall time" or "instruction counts". */
  measure: string;
}

const VERDICT: Record<string, string> = { regression: '🔴 regression', improvement: '🟢 improvement', '~': '⚪ within threshold' };

export function renderBisectMarkdown(b: BisectOutcome, i: BisectReportInput): string {
  const short = (sha: string) => sha.slice(0, 12);
  // Counts and allocations read as more/fewer, time as slower/faster (the wording every output shares).
  const change = i.measure === 'wall time' ? formatTimeChange : formatAmountChange;
  const answer = b.first
    ? `**First commit whose change exceeds ${formatPercent(i.threshold)}: ${mdCode(short(b.first.sha))}** ${mdText(b.first.subject)}`
    : `**No change found**: none of the ${b.range.length} commit(s) after ${mdCode(short(b.good.sha))} exceeds ${formatPercent(i.threshold)} (${b.steps.length} step(s) measured).`;
  const table = mdTable(
    ['step', 'commit', 'position', 'change', '95% interval', 'verdict', 'time', 'subject'],
    b.steps.map((s, n) => [
      String(n + 1),
      mdCode(short(s.commit.sha)),
      `${s.index + 1}/${b.range.length}`,
      change(s.ratio),
      s.ci ? `${change(s.ci[0])} … ${change(s.ci[1])}` : '—',
      `${VERDICT[s.verdict] ?? mdText(s.verdict)}${s.note ? ` (${mdText(s.note)})` : ''}`,
      formatDuration(s.elapsedMs * 1e6),
      mdText(s.commit.subject),
    ]),
    ['right', 'left', 'right', 'right', 'right', 'left', 'right', 'left'],
  );
  return mdBlocks([
    `## bee-bench bisect: ${mdText(i.runner)} ${i.cases.map(mdCode).join(', ')}`,
    `Good ${mdCode(short(b.good.sha))} → bad ${mdCode(short(b.bad.sha))}: ${b.range.length} first-parent commit(s); each step is an A/B against the good commit (${mdText(i.measure)}).`,
    answer,
    table,
    `Total time: ${formatDuration(b.elapsedMs * 1e6)} for ${b.steps.length} step(s).`,
    b.difference ? differenceText(b.difference) : null,
  ]);
}

/** A whole comment's worth: one row's lists always fit. */
const DIFFERENCE_BUDGET = 60_000;

function differenceText(d: BisectDifference): string {
  const short = (sha: string) => mdCode(sha.slice(0, 12));
  const what = `${mdCode(d.row.caseId)} [${mdText(d.row.label)}] on ${short(d.first.sha)} against its parent ${short(d.parent.sha)}`;
  const how = d.from === 'step' ? 'from the counting runs of the step that named it' : 'from one more counted run of the row per side';
  const files = d.files ? `The row's files (callgrind, pprof, folded stacks, an HTML view) are in ${mdCode(`${d.files}/`)} of the output folder.` : '';
  const section = d.diff ? renderProfileSection([d.diff], DIFFERENCE_BUDGET, files) : null;
  if (!section) return `**Where it moved** (${what}): no profile${d.problem ? `: ${mdText(d.problem)}` : ''}.`;
  return `${section}\n\n<sub>The named commit's difference for ${what}, ${how} (${formatDuration(d.elapsedMs * 1e6)}).</sub>`;
}
