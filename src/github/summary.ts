// The job summary (GITHUB_STEP_SUMMARY). GitHub rejects a step summary over 1 MiB, so a longer
// text is cut with a note; without the variable (a local run) nothing is written.
import * as core from '@actions/core';

export const SUMMARY_LIMIT_BYTES = 1024 * 1024;

export function fitSummary(markdown: string, limit = SUMMARY_LIMIT_BYTES): string {
  if (Buffer.byteLength(markdown, 'utf8') <= limit) return markdown;
  const note = "\n\n*(cut to fit GitHub's 1 MiB job summary limit; the artifact has the full report)*\n";
  let text = markdown.slice(0, limit - note.length);
  while (Buffer.byteLength(text + note, 'utf8') > limit) text = text.slice(0, Math.floor(text.length * 0.95));
  return text + note;
}

/** Appends markdown to the job summary; false (logged) when there is no summary file. */
export async function writeSummary(markdown: string, log: (line: string) => void): Promise<boolean> {
  if (!process.env.GITHUB_STEP_SUMMARY) {
    log('summary: GITHUB_STEP_SUMMARY is not set; no job summary written');
    return false;
  }
  await core.summary.addRaw(fitSummary(markdown), true).write();
  return true;
}
