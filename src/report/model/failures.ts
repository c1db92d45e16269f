// "How many failed and why", said once above the tables of the report and the PR comment: a
// failed case makes the run exit 1, and the reader should not have to hunt the cells for it.
import type { Runner } from '../../spec/schema.js';
import { allRows, RUNNER_LABEL, type AggregateModel } from './types.js';

export interface Failure {
  runner?: Runner;
  caseId: string;
  label: string;
  reason: string;
}

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
