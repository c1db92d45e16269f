// The failed cases as a markdown quote above the tables of report.md and the PR comment.
import { mdCode, mdText } from '../escape.js';
import { failureHeadline, type Failure } from '../model/failures.js';
import { RUNNER_LABEL } from '../model/types.js';
import { mdQuote } from './md-blocks.js';

/** Listed one per line up to this many; the rest are counted. */
const SHOWN = 10;

/** A markdown quote: the count, then each failure with its reason; null when none failed. */
export function failureSummary(failures: readonly Failure[]): string | null {
  if (failures.length === 0) return null;
  const lines = failures
    .slice(0, SHOWN)
    .map((f) => `- ${f.runner ? `${mdText(RUNNER_LABEL[f.runner])} ` : ''}${mdCode(f.caseId)} ${mdText(f.label)}: ${mdText(f.reason)}`);
  if (failures.length > SHOWN) lines.push(`- … and ${failures.length - SHOWN} more (see the tables)`);
  return mdQuote([`❌ **${failureHeadline(failures.length)}**:`, ...lines]);
}
