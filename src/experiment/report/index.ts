// The experiment report, the engine CLI's one entry point: reads the journals (streamed), analyses
// them (../analysis) and writes experiment-report.md, experiment-report.csv, experiment-report.html
// (figures drawn by Chart.js with its error-bar and boxplot plugins, inlined: no CDN) and
// experiment-analysis.json (the analysis the history stores) into `out`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyse, type Analysis, type AnalysisOptions } from '../analysis/analyse.js';
import { readJournal } from '../analysis/read.js';
import { experimentCsv, experimentSamplesCsv } from './csv.js';
import { experimentHtml } from './html.js';
import { experimentMarkdown } from './markdown.js';

export const REPORT_FILES = {
  md: 'experiment-report.md',
  csv: 'experiment-report.csv',
  samples: 'experiment-samples.csv',
  html: 'experiment-report.html',
  json: 'experiment-analysis.json',
} as const;

export interface ExperimentReportOptions extends AnalysisOptions {
  /** Run folders or journal.jsonl files: one (side by side, or an A/A) or two (compare A B). */
  journals: string[];
  /** Folder the files are written to (created). */
  out: string;
  /** Leave the HTML's charts out (tables only), e.g. where the chart bundle cannot be built. */
  charts?: boolean;
}

export interface ExperimentReport {
  files: string[];
  summary: string;
  analysis: Analysis;
}

export async function experimentReport(opts: ExperimentReportOptions): Promise<ExperimentReport> {
  const journals = [];
  for (const j of opts.journals) journals.push(await readJournal(j));
  const analysis = analyse(journals, opts);
  mkdirSync(opts.out, { recursive: true });
  const files: string[] = [];
  const write = (name: string, text: string) => {
    const path = join(opts.out, name);
    writeFileSync(path, text);
    files.push(path);
  };
  write(REPORT_FILES.md, experimentMarkdown(analysis));
  write(REPORT_FILES.csv, experimentCsv(analysis));
  write(REPORT_FILES.samples, experimentSamplesCsv(analysis));
  write(REPORT_FILES.html, await experimentHtml(analysis, { charts: opts.charts ?? true }));
  write(
    REPORT_FILES.json,
    JSON.stringify(analysis, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)),
  );
  return { files, summary: analysis.summary, analysis };
}

export { analyse, readJournal, type Analysis, type AnalysisOptions };
export { experimentSummary, experimentId, publishExperiment, type PublishExperimentOptions } from './history.js';
