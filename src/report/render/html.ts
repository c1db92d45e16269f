// report.html: one self-contained page (no CDN, no request leaves the file). Tables are rendered
// here with every text HTML-escaped; charts are drawn in the browser by the inlined Chart.js from a
// JSON block, and the page script only ever sets textContent. A Content-Security-Policy with the
// hashes of the two inline scripts blocks anything else from running even if escaping failed.
import { createHash } from 'node:crypto';
import type { Runner } from '../../spec/schema.js';
import { caveatsOf, leadFigure, rowMarks, scaledWorkLine, type CellView } from '../model/cell.js';
import { htmlText, jsonForScript } from '../escape.js';
import { htmlPage } from './html-page.js';
import { failureHeadline, failureLine, failuresOf } from '../model/failures.js';
import { NET_SCOPE_CAVEAT, RUNNER_LABEL, type AggregateModel, type CaseModel, type GroupModel, type Row } from '../model/types.js';
import { showsAllocations } from '../model/memory.js';
import { aggregateTables, barItems, digestNote, notRunReason, type AggregateTables, type Piece, type Table } from '../model/tables.js';
import { ALLOC_LEGEND, ALLOC_SCOREBOARD_NOTE } from './notes.js';
import { RUNNER_COLORS, bars, sparkline } from './svg.js';
import { THROUGHPUT_FOOTNOTE, formatRatio } from '../units.js';

export interface HtmlOptions {
  title?: string;
  /** Chart.js 4 UMD source to inline; without it the page has tables only and says so. */
  chartJs?: string | null;
}

export interface ChartSpec {
  canvasId: string;
  title: string;
  axis: string;
  /** Logarithmic where the chart's values span more than 10x, so the fastest client's bars show. */
  log: boolean;
  /** Axis start: 0 on a linear axis, half the smallest value on a log one. */
  min: number;
  labels: string[];
  /** Values are time per unit of work as a multiple of the row's fastest (1 = fastest). */
  datasets: Array<{ label: string; color: string; values: Array<number | null>; display: string[] }>;
}

export function renderHtml(model: AggregateModel, opts: HtmlOptions = {}): string {
  return htmlReport(aggregateTables(model), opts);
}

/** report.html from the table model (writeReports builds it once for every format). */
export function htmlReport(t: AggregateTables, opts: HtmlOptions = {}): string {
  const { model } = t;
  const title = opts.title ?? 'bee-bench report';
  const charts: ChartSpec[] = [];
  const sections = model.groups.map((g) => groupHtml(g, t, charts)).join('\n');
  const data = jsonForScript({ charts });
  const chartJs = opts.chartJs ? opts.chartJs.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--') : null;
  const scripts = [chartJs, PAGE_SCRIPT].filter((s): s is string => s !== null);
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`).join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
  ].join('; '); // base64 hashes and keywords only: nothing to escape inside the attribute

  return htmlPage({
    title,
    csp,
    css: CSS,
    body: `<h1>${htmlText(title)}</h1>
<p class="meta">${meta(t.meta)}</p>
${model.hasNet ? `<div class="caveat"><strong>⚠ Scope of network figures.</strong> ${htmlText(NET_SCOPE_CAVEAT)}</div>` : ''}
${model.warnings.map((w) => `<div class="warn">⚠ ${htmlText(w)}</div>`).join('\n')}
${failedBlock(model)}
<h2>Runners</h2>
${htmlTableOf(t.runnersTable)}
${t.environment ? `<p class="env">${htmlText(t.environment)}</p>` : ''}
<h2>Scoreboard</h2>
${t.scoreboard ? `${htmlTableOf(t.scoreboard)}<p class="sub scoreboard-note">${htmlText(t.scoreboardNote)}</p>` : '<p>One runner only: nothing to rank.</p>'}
${t.allocScoreboard ? allocScoreboard(t.allocScoreboard) : ''}
${t.notRun.map((line) => `<p class="sub">Not ranked: ${htmlText(line)}.</p>`).join('\n')}
<p class="controls"><span id="chart-status" class="sub"></span></p>
${sections}
<footer><p>Cells lead with the figure rows compare: MB/s for byte cases, time per op otherwise (with its ratio to the fastest runner in the row, <strong>best</strong> in bold), so runners that ran different work (the param column names it) compare fairly. Below: the median per iteration and the work it did; spread (±half-range around the median, ⚠ above 50%), cv, p95 (n ≥ 10), iterations, peak RSS, CPU/wall (≈1 single-thread CPU-bound, &lt;1 waiting, &gt;1 multi-threaded); a sparkline of the iterations in order. Bars and charts: time per unit of work as a multiple of the row's fastest runner (1.00x), in each runner's colour, longest = slowest; logarithmic where they span more than 10x.</p>${showsAllocations(model) ? `<p>${htmlText(ALLOC_LEGEND)}</p>` : ''}<p>${htmlText(THROUGHPUT_FOOTNOTE)}</p></footer>
<script type="application/json" id="bee-bench-data">${data}</script>
${scripts.map((s) => `<script>${s}</script>`).join('\n')}`,
  });
}

/** Prose with `code spans` (spec docs, group notes): code spans become <code>, all text escaped. */
function prose(s: string): string {
  return s
    .split(/`([^`\r\n]+)`/)
    .map((p, i) => (i % 2 === 1 ? `<code>${htmlText(p)}</code>` : htmlText(p)))
    .join('');
}

function meta(m: AggregateTables['meta']): string {
  const parts: string[] = [];
  if (m.from) parts.push(`Runs from ${htmlText(m.from)}${m.to ? ` to ${htmlText(m.to)}` : ''}`);
  if (m.profiles.length > 0) parts.push(`profile ${m.profiles.map((p) => `<code>${htmlText(p)}</code>`).join(', ')}`);
  if (m.specs.length > 0) parts.push(`spec ${m.specs.map((h) => `<code>${htmlText(h)}</code>`).join(', ')}`);
  return parts.join(' · ');
}

function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, cls = ''): string {
  const head = `<tr>${headers.map((h) => `<th>${h}</th>`).join('')}</tr>`;
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c === '' ? '—' : c}</td>`).join('')}</tr>`).join('\n');
  return `<table${cls ? ` class="${cls}"` : ''}><thead>${head}</thead><tbody>\n${body}\n</tbody></table>`;
}

/** A table model's cell in HTML: text escaped, identifiers as code, bold figures, a not-run status. */
function htmlPieces(cell: readonly Piece[]): string {
  return cell
    .map((p) => {
      if (typeof p === 'string') return htmlText(p);
      if ('code' in p) return `<code>${htmlText(p.code)}</code>`;
      if ('strong' in p) return `<strong>${htmlText(p.strong)}</strong>`;
      const n = p.notRun;
      return `<span class="${n.status === 'failed' ? 'fail' : 'skip'}"><strong>${n.status}</strong>: ${htmlText(notRunReason(n))}</span>`;
    })
    .join('');
}

/** A table model as an HTML table; numeric tables get the class that right-aligns their figures. */
function htmlTableOf(t: Table, cls = t.numeric ? 'num' : ''): string {
  return table(
    t.headers.map(htmlText),
    t.rows.map((r) => r.map(htmlPieces)),
    cls,
  );
}

/** Heap bytes per unit of work, ranked like time (rows where a runner allocates nothing are counted apart). */
function allocScoreboard(t: Table): string {
  return `<h3>Heap bytes per unit of work</h3>${htmlTableOf(t, 'num alloc-scoreboard')}<p class="sub">${htmlText(ALLOC_SCOREBOARD_NOTE)}</p>`;
}

/** One group: a chart of every row, then one table whose rows are the group's (case, param) pairs. */
function groupHtml(g: GroupModel, t: AggregateTables, charts: ChartSpec[]): string {
  const { runners, fits, view } = t;
  const parts: string[] = [`<section class="group"><h2>${htmlText(g.title)}</h2><p class="note">${prose(g.note)}</p>`];
  const chart = chartOf(g, runners, charts.length);
  if (chart) {
    charts.push(chart);
    const height = 110 + chart.labels.length * (runners.length * 14 + 12); // title, legend and axis, then the bars
    parts.push(
      `<div class="chart-wrap" style="height:${height}px"><canvas id="${chart.canvasId}" role="img" aria-label="${htmlText(chart.title)}"></canvas></div>`,
    );
  }
  for (const c of g.cases) for (const row of c.rows) parts.push(digestHtml(row));
  parts.push(
    table(
      ['case · param', ...runners.map((r) => htmlText(RUNNER_LABEL[r])), 'bars'],
      g.cases.flatMap((c) =>
        c.rows.map((row, i) => [caseCell(c, row, i === 0), ...runners.map((r) => cellHtml(row, r, view(row, r))), row.contested ? rowBars(row, runners) : '']),
      ),
      'cases',
    ),
  );
  const caveats = caveatsOf(
    g.cases.flatMap((c) => c.rows),
    runners,
    view,
  );
  for (const text of caveats) parts.push(`<p class="sub">${htmlText(text)}</p>`);
  if (g.cases.some((c) => c.kind === 'net'))
    parts.push('<p class="sub scope">Scope: client ↔ local Bee over loopback, deferred uploads, warm local cache; not Swarm-network throughput.</p>');
  for (const c of g.cases) {
    const fit = fits.get(c.id);
    if (!fit) continue;
    parts.push(
      `<div class="fit"><strong>Latency vs size</strong>, <code>${htmlText(c.id)}</code> <span class="sub">(least squares: time = fixed overhead + bytes / throughput)</span>${htmlTableOf(fit)}</div>`,
    );
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** The first column: the case id and doc (first row of a case only), the param, the work per runner where it differs. */
function caseCell(c: CaseModel, row: Row, first: boolean): string {
  const head = first ? `<code>${htmlText(c.id)}</code><div class="doc">${prose(c.doc)}</div>` : '';
  const work = row.scaled ? `<div class="sub">${htmlText(scaledWorkLine(row))}</div>` : '';
  const precision = rowMarks(row)
    .map((m) => `<div class="sub low-precision">${htmlText(m)}</div>`)
    .join('');
  return `${head}<span class="param">${htmlText(row.label)}</span>${work}${precision}`;
}

/** A new digest disagreement stands out; a known one (spec `known`) says so and links its finding. */
function digestHtml(row: Row): string {
  const note = digestNote(row);
  if (!note) return '';
  const values = `<ul>${note.values
    .map((d) => `<li>${htmlText(RUNNER_LABEL[d.runner])}${d.caseId ? ` (<code>${htmlText(d.caseId)}</code>)` : ''}: <code>${htmlText(d.digest)}</code></li>`)
    .join('')}</ul>`;
  const k = note.known;
  if (k) {
    return `<div class="known">ℹ Known digest disagreement, <code>${htmlText(note.caseId)}</code> (${htmlText(note.label)}): ${htmlText(k.who)} differs, as <a href="${htmlText(k.url)}">FINDINGS ${htmlText(k.finding)}</a> records: ${htmlText(k.doc)}.${values}</div>`;
  }
  return `<div class="warn">⚠ <strong>Digest disagreement</strong>, <code>${htmlText(note.caseId)}</code> (${htmlText(note.label)}): the clients computed different outputs for the same input. Not a known finding: new.${values}</div>`;
}

function cellHtml(row: Row, runner: Runner, v: CellView): string {
  switch (v.status) {
    case 'absent':
      return '—';
    case 'skipped':
      return `<span class="skip">skip: ${htmlText(v.reason)}</span>`;
    case 'failed':
      return `<span class="fail">failed: ${htmlText(v.reason)}</span>`;
    case 'ok': {
      const line1 = v.best
        ? `<strong class="best">${htmlText(v.lead)}</strong> (best)`
        : v.ratio
          ? `<span class="lead">${htmlText(v.lead)}</span> (${htmlText(v.ratio)})`
          : `<span class="lead">${htmlText(v.lead)}</span>`;
      const lines = [
        line1,
        `<span class="raw">${htmlText(v.raw)}</span>`,
        `<span class="sub${v.flaky ? ' flaky' : ''}">${htmlText(v.spread.join(' · '))} ${sparkline(row.cells[runner]!.samplesNs, RUNNER_COLORS[runner])}</span>`,
      ];
      if (v.alloc) lines.push(`<span class="sub alloc">${htmlText(v.alloc)}</span>`);
      if (v.precision) lines.push(`<span class="sub low-precision">${htmlText(v.precision)}</span>`);
      return lines.join('<br>');
    }
  }
}

function rowBars(row: Row, runners: readonly Runner[]): string {
  return bars(barItems(row, runners));
}

/**
 * One horizontal bar chart per group: a category per (case, param), a bar per runner, the value
 * its time per unit of work as a multiple of the row's fastest. One scale serves every row that
 * way (the rows' own units differ), and a log axis beyond 10x keeps a 1000x faster client visible.
 */
function chartOf(g: GroupModel, runners: readonly Runner[], index: number): ChartSpec | null {
  const rows = g.cases.flatMap((c) => c.rows).filter((row) => runners.some((r) => row.cells[r]?.status === 'ok' && row.cells[r]?.unitCostNs !== undefined));
  if (rows.length === 0) return null;
  const value = (row: Row, r: Runner): number | null => {
    const cell = row.cells[r];
    if (cell?.status !== 'ok' || cell.unitCostNs === undefined) return null;
    return cell.ratio ?? 1;
  };
  const all = rows.flatMap((row) => runners.map((r) => value(row, r))).filter((v): v is number => v !== null);
  const max = Math.max(...all);
  const log = max / Math.min(...all) > 10;
  return {
    canvasId: `chart-${index}`,
    title: `${g.title}: time per unit of work, × the fastest client${log ? ' (log scale)' : ''}`,
    axis: `× the fastest (1 = fastest)${log ? ', log scale' : ''}`,
    log,
    min: log ? 0.5 : 0,
    labels: rows.map((row) => `${row.caseId.replace(/^(cpu|net)\./, '')} · ${row.label}`),
    datasets: runners.map((r) => ({
      label: RUNNER_LABEL[r],
      color: RUNNER_COLORS[r],
      values: rows.map((row) => value(row, r)),
      display: rows.map((row) => {
        const cell = row.cells[r];
        if (cell?.status !== 'ok' || cell.unitCostNs === undefined) return cell ? `${cell.status}${cell.reason ? `: ${cell.reason}` : ''}` : 'not run';
        return `${leadFigure(row, cell) ?? ''}${cell.ratio !== undefined ? ` (${formatRatio(cell.ratio)})` : ''}`;
      }),
    })),
  };
}

const CSS = `
body{font:14px/1.5 system-ui,-apple-system,sans-serif;max-width:1400px;margin:2rem auto;padding:0 1rem;color:#1e293b}
h2{margin-top:1.5rem;padding-top:.5rem;border-top:1px solid #e2e8f0}
h3{margin:0 0 .25rem;font-size:1rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}
th,td{padding:4px 10px;border-bottom:1px solid #e2e8f0;text-align:left;vertical-align:top}
th{background:#f8fafc}
table.num td:not(:first-child){text-align:right}
.meta,.sub{color:#64748b;font-size:.85rem}
.note,.doc{color:#475569}
.cases .doc{color:#64748b;font-size:.75rem;max-width:26rem;line-height:1.3;margin:.1rem 0 .2rem}
.cases td{font-size:.85rem;line-height:1.35}
.param{font-weight:600}
.lead{font-weight:600}
.raw{color:#334155}
.env{color:#475569;font-size:.85rem}
.known{background:#e0f2fe;padding:.5rem .75rem;border-radius:6px;margin:.5rem 0}
.caveat{background:#fff7ed;border:2px solid #f97316;padding:.75rem 1rem;border-radius:8px;margin:1rem 0}
.warn{background:#fef3c7;padding:.5rem .75rem;border-radius:6px;margin:.5rem 0}
.skip,.fail{color:#64748b;font-style:italic}
.fail{color:#b91c1c}
.best{color:#047857}
.flaky,.low-precision{color:#b45309}
.fit{margin-top:.5rem;padding:.5rem .75rem;background:#f8fafc;border-radius:6px}
.chart-wrap{position:relative;margin:.5rem 0 .75rem;max-width:1100px}
.known ul,.warn ul{margin:.25rem 0}
`;

/**
 * Runs in the page: reads the JSON block and draws one horizontal bar chart per group, each bar
 * labelled with its figure (a small inline plugin; no plugin download), text set via the canvas only.
 */
const PAGE_SCRIPT = `(function () {
  'use strict';
  var status = document.getElementById('chart-status');
  var data = JSON.parse(document.getElementById('bee-bench-data').textContent);
  if (typeof Chart === 'undefined') {
    status.textContent = 'Charts unavailable: Chart.js was not embedded in this file.';
    return;
  }
  var barLabels = {
    id: 'beeBenchBarLabels',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx;
      var spec = chart.options.plugins.beeBenchBarLabels.spec;
      ctx.save();
      ctx.font = '11px system-ui, sans-serif';
      ctx.textBaseline = 'middle';
      chart.data.datasets.forEach(function (ds, i) {
        chart.getDatasetMeta(i).data.forEach(function (bar, j) {
          var text = spec.datasets[i].display[j];
          var missing = ds.data[j] === null;
          ctx.fillStyle = missing ? '#94a3b8' : '#1e293b';
          var x = missing ? chart.scales.x.left + 4 : bar.x + 4;
          ctx.fillText(missing ? (spec.datasets[i].label + ': ' + text) : text, x, bar.y);
        });
      });
      ctx.restore();
    }
  };
  window.beeBenchCharts = data.charts.map(function (spec) {
    return new Chart(document.getElementById(spec.canvasId), {
      type: 'bar',
      data: {
        labels: spec.labels,
        datasets: spec.datasets.map(function (d) { return { label: d.label, data: d.values, backgroundColor: d.color, borderColor: d.color, minBarLength: 2 }; })
      },
      plugins: [barLabels],
      options: {
        indexAxis: 'y',
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        layout: { padding: { right: 140 } },
        plugins: {
          title: { display: true, text: spec.title },
          legend: { position: 'top' },
          beeBenchBarLabels: { spec: spec },
          tooltip: { callbacks: { label: function (ctx) {
            var d = spec.datasets[ctx.datasetIndex];
            return d.label + ': ' + d.display[ctx.dataIndex];
          } } }
        },
        scales: { x: { type: spec.log ? 'logarithmic' : 'linear', min: spec.min, title: { display: true, text: spec.axis }, ticks: { callback: function (v) {
          var l = Math.log10(v);
          return !spec.log || Math.abs(l - Math.round(l)) < 1e-9 ? v + 'x' : '';
        } } } }
      }
    });
  });
})();`;

/** The failed cases, counted and listed with their reasons above the tables. */
function failedBlock(model: AggregateModel): string {
  const failures = failuresOf(model);
  if (failures.length === 0) return '';
  return `<div class="warn">❌ <strong>${htmlText(failureHeadline(failures.length))}</strong>:<ul>${failures.map((f) => `<li>${htmlText(failureLine(f))}</li>`).join('')}</ul></div>`;
}
