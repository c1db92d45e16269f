// src/report: pure functions from result data to report text; write.ts is the only file I/O.
// model/ builds what a report shows (the aggregate model, its table model, the compare model, the
// cell views); render/ only formats it (markdown, HTML, CSV, the PR comment). No threshold or
// verdict lives here: src/verdict decides (test/structure.test.ts checks).
export { aggregate, type AggregateOptions } from './model/aggregate.js';
export * from './model/types.js';
export { renderMarkdown, markdownReport, type MarkdownOptions } from './render/report-md.js';
export { renderHtml, htmlReport, type HtmlOptions, type ChartSpec } from './render/html.js';
export { renderCsv, CSV_COLUMNS } from './render/csv.js';
export { compareModels, type CompareModel, type CompareOptions, type CompareRow, type CompareCell, type CompareSummary } from './model/compare.js';
export { renderCompareMarkdown, type CompareMarkdownOptions } from './render/compare-markdown.js';
export { aggregateTables, type AggregateTables, type Table, type Piece } from './model/tables.js';
export { renderAbComment, humanFigure, markerComment, GITHUB_COMMENT_LIMIT, type AbRenderOptions } from './render/ab-comment.js';
export { orderRows, type AbReportInput } from './model/ab.js';
export { writeReports, writeText, chartJsSource, type WriteOptions, type WrittenReports } from './write.js';
export * as units from './units.js';
export * as escape from './escape.js';
