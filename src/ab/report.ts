// The one place an A/B's report comes out: from the comment's input, ab.md (the comment, the job
// summary, `report-path`), ab.json (the rows), the headline counts (the outputs) and the
// annotations. Every A/B path (paired rounds, counts only, against the history, a failed build)
// writes through here, so the comment, the outputs and the annotations cannot disagree.
import { join } from 'node:path';
import { regressionAnnotations } from '../report/render/annotations.js';
import { renderAbComment, renderBuildFailure, type BuildFailureInput } from '../report/render/ab-comment.js';
import { type AbReportInput } from '../report/model/ab.js';
import { writeText } from '../report/write.js';
import type { Result } from '../spec/schema.js';
import { countRows, type AbCounts } from '../verdict/index.js';

export interface AbReport {
  /** What the markdown was rendered from (the fork-safe comment job renders it again). */
  input: AbReportInput;
  markdown: string;
  markdownFile: string;
  counts: AbCounts;
  /** One warning line per regressed row. */
  annotations: string[];
}

/** Writes ab.md and ab.json (the rows and `details`) into outDir. */
export function writeAbReport(outDir: string, input: AbReportInput, details: Record<string, unknown> = {}): AbReport {
  const markdown = renderAbComment(input);
  const markdownFile = join(outDir, 'ab.md');
  writeText(markdownFile, markdown);
  writeText(join(outDir, 'ab.json'), `${JSON.stringify({ rows: input.rows, ...details }, null, 2)}\n`);
  return { input, markdown, markdownFile, counts: countRows(input.rows), annotations: regressionAnnotations(input.rows) };
}

/** A build that failed before anything was measured: ab.md names it; the outputs count it as one failed row. */
export function writeBuildFailureReport(outDir: string, failure: BuildFailureInput): { markdown: string; markdownFile: string; counts: AbCounts } {
  const markdown = renderBuildFailure(failure);
  const markdownFile = join(outDir, 'ab.md');
  writeText(markdownFile, markdown);
  return { markdown, markdownFile, counts: { ...countRows([]), failed: 1 } };
}

/** "bee-js 9.1.0 (path 0123456789ab)": the client a side's result names. */
export const clientText = (r: Result | null, label: string): string =>
  r ? `${r.client.name} ${r.client.version} (${r.client.source}${r.client.commit ? ` ${r.client.commit.slice(0, 12)}` : ''})` : `${label}: no result`;
