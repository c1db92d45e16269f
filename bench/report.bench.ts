// Times the aggregate report (aggregate + report.md + report.html + report.csv + aggregate.json) of
// three runners over every spec case, quick and full params (large included), 20 samples per cell,
// with net cases run. Bar: under 1 s. Run: npx tsx bench/report.bench.ts
import { performance } from 'node:perf_hooks';
import { aggregate } from '../src/report/model/aggregate.js';
import { renderCsv } from '../src/report/render/csv.js';
import { renderHtml } from '../src/report/render/html.js';
import { renderMarkdown } from '../src/report/render/report-md.js';
import { allRows } from '../src/report/model/types.js';
import { chartJsSource } from '../src/report/write.js';
import type { Result } from '../src/spec/schema.js';
import { realSpec, syntheticResult } from '../test/report/fixtures.js';

const BAR_MS = 1000;
const { spec, hash } = realSpec();
const chartJs = chartJsSource();

const results: Result[] = (['js', 'go', 'rs'] as const).map((runner) => {
  const opts = { n: 20, bee: true, large: true };
  const quick = syntheticResult(runner, spec, hash, { ...opts, profile: 'quick' });
  const full = syntheticResult(runner, spec, hash, { ...opts, profile: 'full' });
  return { ...full, cases: [...quick.cases, ...full.cases] };
});

function once(): { ms: number; bytes: number; rows: number } {
  const t0 = performance.now();
  const model = aggregate(results, spec, { specHash: hash });
  const md = renderMarkdown(model);
  const html = renderHtml(model, { chartJs });
  const csv = renderCsv(model);
  const json = JSON.stringify(model, null, 2);
  const ms = performance.now() - t0;
  return { ms, bytes: md.length + html.length + csv.length + json.length, rows: allRows(model).length };
}

const first = once();
const times: number[] = [];
for (let i = 0; i < 10; i++) times.push(once().ms);
times.sort((a, b) => a - b);
const median = (times[4]! + times[5]!) / 2;
const cells = results.reduce((s, r) => s + r.cases.length, 0);
console.log(
  `report (md+html+csv+json) for 3 runners, ${first.rows} rows, ${cells} cells x 20 samples: ` +
    `first ${first.ms.toFixed(1)} ms, median of 10 ${median.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms ` +
    `(${(first.bytes / 1e6).toFixed(2)} MB of output; Chart.js ${chartJs ? 'inlined' : 'missing'}); bar < ${BAR_MS} ms`,
);
if (first.ms >= BAR_MS || median >= BAR_MS) {
  console.error(`FAIL: report generation over ${BAR_MS} ms`);
  process.exit(1);
}
