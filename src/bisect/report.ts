// The bisect table: every probed step in the order measured (commit, its place in the range,
// change against the good ref, interval, verdict, time), the answer, and the total time. The same
// markdown goes to the terminal and to the job summary.
import { mdCode, mdText } from '../report/escape.js';
import { mdBlocks, mdTable } from '../report/render/md.js';
import { formatChange, formatDuration, formatInterval, formatPercent } from '../report/units.js';
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
  const answer = b.first
    ? `**First commit whose change exceeds ${formatPercent(i.threshold)}: ${mdCode(short(b.first.sha))}** ${mdText(b.first.subject)}`
    : `**No change found**: none of the ${b.range.length} commit(s) after ${mdCode(short(b.good.sha))} exceeds ${formatPercent(i.threshold)} (${b.steps.length} step(s) measured).`;
  const table = mdTable(
    ['step', 'commit', 'position', 'change', '95% interval', 'verdict', 'time', 'subject'],
    b.steps.map((s, n) => [
      String(n + 1),
      mdCode(short(s.commit.sha)),
      `${s.index + 1}/${b.range.length}`,
      formatChange(s.ratio),
      formatInterval(s.ci),
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
  ]);
}
