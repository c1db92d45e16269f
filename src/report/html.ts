// report.html: one self-contained page (no CDN, no request leaves the file). Tables are rendered
// here with every text HTML-escaped; charts are drawn in the browser by the inlined Chart.js from a
// JSON block, and the page script only ever sets textContent. A Content-Security-Policy with the
// hashes of the two inline scripts blocks anything else from running even if escaping failed.
import { createHash } from 'node:crypto';
import type { Runner } from '../spec/schema.js';
import { cellView, scaledParams } from './cell.js';
import { htmlText, jsonForScript } from './escape.js';
import { NET_SCOPE_CAVEAT, RUNNER_LABEL, runnersOf, type AggregateModel, type CaseModel, type Row } from './model.js';
import { RUNNER_COLORS, bars, sparkline } from './svg.js';
import { THROUGHPUT_FOOTNOTE, durationAxisUnit, formatBytes, formatDuration, formatRatio, formatThroughput } from './units.js';

export interface HtmlOptions {
  title?: string;
  /** Chart.js 4 UMD source to inline; without it the page has tables only and says so. */
  chartJs?: string | null;
}

export interface ChartSpec {
  canvasId: string;
  title: string;
  axis: string;
  labels: string[];
  datasets: Array<{ label: string; color: string; values: Array<number | null>; display: string[] }>;
}

export function renderHtml(model: AggregateModel, opts: HtmlOptions = {}): string {
  const title = opts.title ?? 'bee-bench report';
  const runners = runnersOf(model);
  const charts: ChartSpec[] = [];
  const sections = model.groups
    .map((g) => {
      const cases = g.cases.map((c) => caseHtml(c, runners, charts)).join('\n');
      return `<section class="group"><h2>${htmlText(g.title)}</h2><p class="note">${prose(g.note)}</p>\n${cases}</section>`;
    })
    .join('\n');
  const data = jsonForScript({ charts });
  const chartJs = opts.chartJs ? opts.chartJs.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--') : null;
  const scripts = [chartJs, PAGE_SCRIPT].filter((s): s is string => s !== null);
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`).join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
  ].join('; '); // base64 hashes and keywords only: nothing to escape inside the attribute

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${htmlText(title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${htmlText(title)}</h1>
<p class="meta">${meta(model)}</p>
${model.hasNet ? `<div class="caveat"><strong>⚠ Scope of network figures.</strong> ${htmlText(NET_SCOPE_CAVEAT)}</div>` : ''}
${model.warnings.map((w) => `<div class="warn">⚠ ${htmlText(w)}</div>`).join('\n')}
<h2>Runners</h2>
${runnersTable(model)}
<h2>Scoreboard</h2>
${runners.length > 1 ? scoreboard(model) : '<p>One runner only: nothing to rank.</p>'}
<p class="controls"><label><input type="checkbox" id="log-scale"> logarithmic time axis</label> <span id="chart-status" class="sub"></span></p>
${sections}
<footer><p>Cells: median (ratio to the fastest runner in the row, <strong>best</strong> in bold); throughput · time per op; spread (±half-range around the median, ⚠ above 50%), cv, p95 (n ≥ 10), iterations, peak RSS, CPU/wall (≈1 single-thread CPU-bound, &lt;1 waiting on I/O, &gt;1 multi-threaded); a sparkline of the iterations in order. Bars: time per byte or per op, shortest green.</p><p>${htmlText(THROUGHPUT_FOOTNOTE)}</p></footer>
<script type="application/json" id="bee-bench-data">${data}</script>
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}

/** Prose with `code spans` (spec docs, group notes): code spans become <code>, all text escaped. */
function prose(s: string): string {
  return s
    .split(/`([^`\r\n]+)`/)
    .map((p, i) => (i % 2 === 1 ? `<code>${htmlText(p)}</code>` : htmlText(p)))
    .join('');
}

function meta(model: AggregateModel): string {
  const parts: string[] = [];
  if (model.startedAt) parts.push(`Runs from ${htmlText(model.startedAt)}${model.finishedAt ? ` to ${htmlText(model.finishedAt)}` : ''}`);
  if (model.profiles.length > 0) parts.push(`profile ${model.profiles.map((p) => `<code>${htmlText(p)}</code>`).join(', ')}`);
  if (model.specHashes.length > 0) parts.push(`spec ${model.specHashes.map((h) => `<code>${htmlText(h.slice(0, 12))}</code>`).join(', ')}`);
  return parts.join(' · ');
}

function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, cls = ''): string {
  const head = `<tr>${headers.map((h) => `<th>${h}</th>`).join('')}</tr>`;
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c === '' ? '—' : c}</td>`).join('')}</tr>`).join('\n');
  return `<table${cls ? ` class="${cls}"` : ''}><thead>${head}</thead><tbody>\n${body}\n</tbody></table>`;
}

function runnersTable(model: AggregateModel): string {
  return table(
    ['Runner', 'Client', 'Version', 'Source', 'Runtime', 'Host', 'Bee', 'Started'],
    model.runners.map((r) => [
      htmlText(r.label),
      `<code>${htmlText(r.client.name)}</code>`,
      `${htmlText(r.client.version)}${r.client.commit ? ` (<code>${htmlText(r.client.commit.slice(0, 12))}</code>)` : ''}`,
      htmlText(r.client.source),
      htmlText(r.host.runtime),
      htmlText(`${r.host.os}/${r.host.arch}, ${r.host.cpu_model}, ${r.host.cpus} CPUs, ${formatBytes(r.host.mem_mb * 2 ** 20)}`),
      r.bee ? htmlText(r.bee.version) : 'none',
      htmlText(r.startedAt),
    ]),
  );
}

function scoreboard(model: AggregateModel): string {
  const groups = model.groups.filter((g) => model.scoreboard.some((s) => s.byGroup[g.id] != null));
  const best = Math.min(...model.scoreboard.map((s) => s.geomean ?? Infinity));
  return `${table(
    ['Runner', 'Wins', 'Rows', 'Overall', ...groups.map((g) => htmlText(g.title))],
    model.scoreboard.map((s) => [
      htmlText(RUNNER_LABEL[s.runner]),
      String(s.wins),
      String(s.rows),
      s.geomean !== null && s.geomean === best ? `<strong>${formatRatio(s.geomean)}</strong>` : formatRatio(s.geomean),
      ...groups.map((g) => formatRatio(s.byGroup[g.id])),
    ]),
    'num',
  )}<p class="sub">Geometric mean over contested rows (two or more runners ok) of each runner's ratio to the fastest in the row, comparing time per byte or per op; 1.00x = fastest everywhere. Skipped and failed cells are left out.</p>`;
}

function caseHtml(c: CaseModel, runners: readonly Runner[], charts: ChartSpec[]): string {
  const parts: string[] = [`<div class="case"><h3><code>${htmlText(c.id)}</code></h3><p class="doc">${prose(c.doc)}</p>`];
  for (const row of c.rows) {
    if (!row.digestMismatch) continue;
    parts.push(
      `<div class="warn">⚠ <strong>Digest disagreement</strong> (${htmlText(row.label)}): the clients computed different outputs for the same input.<ul>${row.digestMismatch
        .map((d) => `<li>${htmlText(RUNNER_LABEL[d.runner])}${d.caseId ? ` (<code>${htmlText(d.caseId)}</code>)` : ''}: <code>${htmlText(d.digest)}</code></li>`)
        .join('')}</ul></div>`,
    );
  }
  parts.push(
    table(
      ['param', ...runners.map((r) => htmlText(RUNNER_LABEL[r])), 'bars'],
      c.rows.map((row) => [htmlText(row.label), ...runners.map((r) => cellHtml(row, r)), row.contested ? rowBars(row, runners) : '']),
    ),
  );
  for (const row of c.rows) {
    const scaled = row.scaled ? scaledParams(row) : [];
    if (scaled.length === 0) continue;
    const what = row.basis === 'bytes' ? 'time per byte' : row.basis === 'ops' ? `time per ${row.opLabel}` : 'time per iteration';
    parts.push(`<p class="sub">${htmlText(row.label)}: runners ran scaled work (${scaled.map((s) => `${htmlText(RUNNER_LABEL[s.runner])} ${htmlText(s.values)}`).join('; ')}); ratios and bars compare ${htmlText(what)}.</p>`);
  }
  if (c.kind === 'net') parts.push('<p class="sub scope">Scope: client ↔ local Bee over loopback, deferred uploads, warm local cache; not Swarm-network throughput.</p>');
  if (c.fits.length > 0) {
    parts.push(
      `<div class="fit"><strong>Latency vs size</strong> <span class="sub">(least squares: time = fixed overhead + bytes / throughput)</span>${table(
        ['Runner', 'fixed overhead', 'peak throughput', 'r²', 'points'],
        c.fits.map((f) => [htmlText(RUNNER_LABEL[f.runner]), formatDuration(f.overheadNs), formatThroughput(f.bytesPerNs), Number.isFinite(f.r2) ? f.r2.toFixed(3) : '—', String(f.points)]),
        'num',
      )}</div>`,
    );
  }
  const chart = chartOf(c, runners, charts.length);
  if (chart) {
    charts.push(chart);
    parts.push(`<div class="chart-wrap"><canvas id="${chart.canvasId}" role="img" aria-label="${htmlText(chart.title)}"></canvas></div>`);
  }
  parts.push('</div>');
  return parts.join('\n');
}

function cellHtml(row: Row, runner: Runner): string {
  const v = cellView(row, row.cells[runner]);
  switch (v.status) {
    case 'absent':
      return '—';
    case 'skipped':
      return `<span class="skip">skip: ${htmlText(v.reason)}</span>`;
    case 'failed':
      return `<span class="fail">failed: ${htmlText(v.reason)}</span>`;
    case 'ok': {
      const line1 = v.best ? `<strong class="best">${v.median}</strong> (best)` : v.ratio ? `${v.median} (${v.ratio})` : `${v.median}`;
      const lines = [line1, htmlText(v.rates.join(' · ')), `<span class="sub${v.flaky ? ' flaky' : ''}">${htmlText(v.spread.join(' · '))}</span>`, sparkline(row.cells[runner]!.samplesNs, RUNNER_COLORS[runner])];
      return lines.filter((l) => l.length > 0).join('<br>');
    }
  }
}

function rowBars(row: Row, runners: readonly Runner[]): string {
  return bars(runners.map((r) => ({ runner: r, value: row.cells[r]?.status === 'ok' ? (row.cells[r]?.unitCostNs ?? null) : null })));
}

/** Bar chart per case: median per runner per param (time per op / per MiB when runners ran scaled work). */
function chartOf(c: CaseModel, runners: readonly Runner[], index: number): ChartSpec | null {
  const scaled = c.rows.some((r) => r.scaled);
  const metric = (row: Row, r: Runner): number | null => {
    const cell = row.cells[r];
    if (cell?.status !== 'ok' || cell.medianNs === undefined) return null;
    if (!scaled) return cell.medianNs;
    if (cell.unitCostNs === undefined) return null;
    return row.basis === 'bytes' ? cell.unitCostNs * 2 ** 20 : cell.unitCostNs;
  };
  const all = c.rows.flatMap((row) => runners.map((r) => metric(row, r))).filter((v): v is number => v !== null);
  if (all.length === 0) return null;
  const unit = durationAxisUnit(all);
  const what = !scaled ? 'median time' : c.rows[0]?.basis === 'bytes' ? 'time per MiB' : c.rows[0]?.basis === 'ops' ? `time per ${c.opLabel}` : 'median time';
  return {
    canvasId: `chart-${index}`,
    title: `${c.id}: ${what}`,
    axis: `${what} (${unit.unit})`,
    labels: c.rows.map((r) => r.label),
    datasets: runners.map((r) => ({
      label: RUNNER_LABEL[r],
      color: RUNNER_COLORS[r],
      values: c.rows.map((row) => {
        const v = metric(row, r);
        return v === null ? null : v / unit.ns;
      }),
      display: c.rows.map((row) => {
        const v = metric(row, r);
        const cell = row.cells[r];
        if (v === null) return cell ? `${cell.status}${cell.reason ? `: ${cell.reason}` : ''}` : 'not run';
        return formatDuration(v);
      }),
    })),
  };
}

const CSS = `
body{font:14px/1.5 system-ui,-apple-system,sans-serif;max-width:1400px;margin:2rem auto;padding:0 1rem;color:#1e293b}
h2{margin-top:2.5rem;padding-top:.5rem;border-top:1px solid #e2e8f0}
h3{margin:0 0 .25rem;font-size:1rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}
th,td{padding:4px 10px;border-bottom:1px solid #e2e8f0;text-align:left;vertical-align:top}
th{background:#f8fafc}
table.num td:not(:first-child){text-align:right}
.meta,.sub{color:#64748b;font-size:.85rem}
.note,.doc{color:#475569}
.case{margin:1.5rem 0;padding:1rem 1.25rem;border:1px solid #e2e8f0;border-radius:8px}
.caveat{background:#fff7ed;border:2px solid #f97316;padding:.75rem 1rem;border-radius:8px;margin:1rem 0}
.warn{background:#fef3c7;padding:.5rem .75rem;border-radius:6px;margin:.5rem 0}
.skip,.fail{color:#64748b;font-style:italic}
.fail{color:#b91c1c}
.best{color:#047857}
.flaky{color:#b45309}
.fit{margin-top:.5rem;padding:.5rem .75rem;background:#f8fafc;border-radius:6px}
.chart-wrap{position:relative;height:300px;margin-top:.75rem}
`;

/** Runs in the page: reads the JSON block, draws one bar chart per case, toggles a log axis. */
const PAGE_SCRIPT = `(function () {
  'use strict';
  var status = document.getElementById('chart-status');
  var data = JSON.parse(document.getElementById('bee-bench-data').textContent);
  if (typeof Chart === 'undefined') {
    status.textContent = 'Charts unavailable: Chart.js was not embedded in this file.';
    return;
  }
  var charts = [];
  function draw(log) {
    charts.forEach(function (c) { c.destroy(); });
    charts = data.charts.map(function (spec) {
      return new Chart(document.getElementById(spec.canvasId), {
        type: 'bar',
        data: {
          labels: spec.labels,
          datasets: spec.datasets.map(function (d) { return { label: d.label, data: d.values, backgroundColor: d.color }; })
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          plugins: {
            title: { display: true, text: spec.title },
            tooltip: { callbacks: { label: function (ctx) {
              var d = spec.datasets[ctx.datasetIndex];
              return d.label + ': ' + d.display[ctx.dataIndex];
            } } }
          },
          scales: { y: { type: log ? 'logarithmic' : 'linear', title: { display: true, text: spec.axis } } }
        }
      });
    });
  }
  var box = document.getElementById('log-scale');
  box.addEventListener('change', function () { draw(box.checked); });
  draw(false);
})();`;
