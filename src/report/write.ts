// The only file I/O of src/report: write report.md, report.html, report.csv and aggregate.json, and
// find the Chart.js source to inline. Everything else here is a pure function of the model.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { renderCsv } from './render/csv.js';
import { htmlReport } from './render/html.js';
import { markdownReport } from './render/report-md.js';
import { aggregateTables } from './model/tables.js';
import type { AggregateModel } from './model/types.js';

// Set by scripts/build.mjs (esbuild `define`) to the text of chart.js/dist/chart.umd.min.js, because
// node_modules does not exist next to the bundled dist/cli.js at run time.
declare const __BEE_BENCH_CHARTJS__: string | undefined;

/** The Chart.js 4 UMD build: embedded at bundle time, else read from node_modules; null if neither. */
export function chartJsSource(): string | null {
  if (typeof __BEE_BENCH_CHARTJS__ === 'string') return __BEE_BENCH_CHARTJS__;
  try {
    const main = createRequire(import.meta.url).resolve('chart.js'); // .../chart.js/dist/chart.cjs
    return readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8');
  } catch {
    return null;
  }
}

export interface WriteOptions {
  title?: string;
  /** Override the Chart.js source (null: write the page without charts). */
  chartJs?: string | null;
}

export interface WrittenReports {
  markdown: string;
  html: string;
  csv: string;
  json: string;
}

/** Write the four aggregate report files into outDir (created if missing); returns their paths. */
export function writeReports(outDir: string, model: AggregateModel, opts: WriteOptions = {}): WrittenReports {
  mkdirSync(outDir, { recursive: true });
  const paths: WrittenReports = {
    markdown: join(outDir, 'report.md'),
    html: join(outDir, 'report.html'),
    csv: join(outDir, 'report.csv'),
    json: join(outDir, 'aggregate.json'),
  };
  const title = opts.title !== undefined ? { title: opts.title } : {};
  const chartJs = opts.chartJs !== undefined ? opts.chartJs : chartJsSource();
  const tables = aggregateTables(model); // built once, printed by both
  writeFileSync(paths.markdown, markdownReport(tables, title));
  writeFileSync(paths.html, htmlReport(tables, { ...title, chartJs }));
  writeFileSync(paths.csv, renderCsv(model));
  writeFileSync(paths.json, `${JSON.stringify(model, null, 2)}\n`);
  return paths;
}

/** Write a single markdown file (compare page, PR comment preview). */
export function writeText(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
