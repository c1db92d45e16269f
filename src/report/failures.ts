// "How many failed and why", said once above the tables of the report and the PR comment: a
// failed case makes the run exit 1, and the reader should not have to hunt the cells for it.
import type { Runner } from '../spec/schema.js';
import { mdCode, mdText } from './escape.js';
import { mdQuote } from './md.js';
import { allRows, RUNNER_LABEL, type AggregateModel } from './model.js';

export interface Failure {
  runner?: Runner;
  caseId: string;
  label: string;
  reason: string;
}

/** Listed one per line up to this many; the rest are counted. */
const SHOWN = 10;

/** Every failed cell of an aggregate report, in report order. */
export function failuresOf(model: AggregateModel): Failure[] {
  return allRows(model).flatMap((row) =>
    Object.values(row.cells).flatMap((c) =>
      c?.status === 'failed' ? [{ runner: c.runner, caseId: row.caseId, label: row.label, reason: c.reason ?? 'no reason recorded' }] : [],
    ),
  );
}

/** One plain-text line per failure, for logs and the HTML report. */
export function failureLine(f: Failure): string {
  return `${f.runner ? `${RUNNER_LABEL[f.runner]} ` : ''}${f.caseId} (${f.label}): ${f.reason}`;
}

export function failureHeadline(n: number): string {
  return `${n} case${n === 1 ? '' : 's'} failed`;
}

/** A markdown quote: the count, then each failure with its reason; null when none failed. */
export function failureSummary(failures: readonly Failure[]): string | null {
  if (failures.length === 0) return null;
  const lines = failures
    .slice(0, SHOWN)
    .map((f) => `- ${f.runner ? `${mdText(RUNNER_LABEL[f.runner])} ` : ''}${mdCode(f.caseId)} ${mdText(f.label)}: ${mdText(f.reason)}`);
  if (failures.length > SHOWN) lines.push(`- … and ${failures.length - SHOWN} more (see the tables)`);
  return mdQuote([`❌ **${failureHeadline(failures.length)}**:`, ...lines]);
}
