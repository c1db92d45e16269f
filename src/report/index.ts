// src/report: pure functions from result data to report text; write.ts is the only file I/O.
export { aggregate, type AggregateOptions } from './aggregate.js';
export * from './model.js';
export { renderMarkdown, type MarkdownOptions } from './markdown.js';
export { renderHtml, type HtmlOptions, type ChartSpec } from './html.js';
export { renderCsv, CSV_COLUMNS } from './csv.js';
export {
  compareModels,
  renderCompareMarkdown,
  type CompareModel,
  type CompareOptions,
  type CompareRow,
  type CompareCell,
  type CompareSummary,
  type CompareMarkdownOptions,
} from './compare.js';
export { renderAbComment, orderRows, humanFigure, markerComment, GITHUB_COMMENT_LIMIT, type AbReportInput, type AbRenderOptions } from './ab-comment.js';
export { writeReports, writeText, chartJsSource, type WriteOptions, type WrittenReports } from './write.js';
export * as units from './units.js';
export * as escape from './escape.js';
