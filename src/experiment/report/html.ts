// The experiment report as one self-contained HTML page (experiment-report.html): the summary, the
// figures (canvases drawn by the inlined chart bundle from the figure specs the page carries as
// JSON), then the same tables as the markdown. Every user-controlled string passes htmlText; the
// data block passes jsonForScript.
import { htmlText, jsonForScript } from '../../report/escape.js';
import { levelName, seconds, sizeLabel, type Analysis, type Comparison } from '../analysis/analyse.js';
import { experimentChartsSource } from './bundle.js';
import { experimentFigures, type FigureSpec } from './figures.js';
import { cellLabel, directionText, needText, pText, relativeText, shiftText } from './labels.js';

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:1400px;padding:0 1rem;color:#222}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5rem 0;font-size:13px}th,td{border:1px solid #ddd;padding:2px 6px;text-align:right}
th:first-child,td:first-child,td.t{text-align:left}
.dir-a-faster{background:#dce7f6}.dir-b-faster{background:#fbefc4}
.panels{display:grid;grid-template-columns:repeat(auto-fill,minmax(420px,1fr));gap:12px}
.panel{position:relative;height:300px}.caption{color:#555;max-width:70em}
.summary{font-size:15px;max-width:70em}`;

export interface HtmlOptions {
  /** false: tables only, no chart code. */
  charts: boolean;
}

export async function experimentHtml(a: Analysis, opts: HtmlOptions): Promise<string> {
  const figures = experimentFigures(a);
  const title = a.arms.length >= 2 ? `${a.arms[1]!.label} against ${a.arms[0]!.label}` : (a.arms[0]?.label ?? '');
  const body: string[] = [];
  body.push(`<h1>Bee release experiment: ${htmlText(title)}</h1>`, `<p class="summary" id="summary">${htmlText(a.summary)}</p>`);
  for (const n of a.notes) body.push(`<p class="caption">${htmlText(n)}</p>`);
  body.push(runsTable(a));
  if (opts.charts) for (const f of figures) body.push(figureHtml(f));
  body.push('<h2 id="downloads">Downloads, pooled over servers</h2>', table(a, pooled(a, 'download'), false));
  const perServer = a.comparisons.filter((c) => c.family === 'download' && c.scope !== 'pooled');
  if (perServer.length) body.push('<h2>Downloads per server</h2>', table(a, perServer, true));
  for (const arm of a.arms) {
    const rows = pooled(a, 'strategy').filter((c) => c.arm === arm.label);
    if (rows.length) body.push(`<h2>RACE against DATA within ${htmlText(arm.label)}</h2>`, table(a, rows, false));
  }
  body.push('<h2 id="uploads">Uploads by size and level</h2>', table(a, pooled(a, 'upload'), false));
  body.push('<h2 id="failures">Failures</h2>', failuresTable(a), '<h2 id="sync">Sync waits</h2>', syncTable(a));
  let script = '';
  if (opts.charts) {
    const code = (await experimentChartsSource()).replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
    script = `<script type="application/json" id="experiment-figures">${jsonForScript(figures)}</script>\n<script>${code}</script>`;
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Bee release experiment: ${htmlText(title)}</title><style>${STYLE}</style></head>
<body>
${body.join('\n')}
${script}
</body></html>
`;
}

const pooled = (a: Analysis, f: Comparison['family']) => a.comparisons.filter((c) => c.family === f && c.scope === 'pooled');

function figureHtml(f: FigureSpec): string {
  const panels = f.panels.map((p) => `<div class="panel"><canvas id="chart-${htmlText(p.id)}" role="img" aria-label="${htmlText(p.title)}"></canvas></div>`);
  return `<section class="figure" id="figure-${htmlText(f.id)}"><h2>${htmlText(f.title)}</h2><p class="caption">${htmlText(f.caption)}</p><div class="panels">${panels.join('')}</div></section>`;
}

function runsTable(a: Analysis): string {
  const rows = a.journals.map((j) => {
    const arms = a.arms.filter((x) => x.runId === j.runId);
    return `<tr><td>${htmlText(j.runId)}</td><td class="t">${htmlText(j.createdAt)}</td><td class="t">${htmlText(arms[0]?.client ?? '')} (${htmlText(arms[0]?.runner ?? '')})</td><td class="t">${arms
      .map((x) => `${htmlText(x.label)}: ${x.nodes.map(htmlText).join(', ')}`)
      .join('; ')}</td><td>${j.rows}</td><td>${j.resumes}</td></tr>`;
  });
  return `<h2>Runs</h2><table><tr><th>run</th><th>created</th><th>client (runner)</th><th>arms: nodes</th><th>rows</th><th>resumes</th></tr>${rows.join('')}</table>`;
}

function table(a: Analysis, rows: Comparison[], withScope: boolean): string {
  if (rows.length === 0) return '<p>(no cells)</p>';
  const r0 = rows[0]!;
  const A = htmlText(r0.aLabel);
  const B = htmlText(r0.bLabel);
  const head = `<tr>${withScope ? '<th>server</th>' : ''}<th>cell</th><th>n ${A} / ${B}</th><th>median ${A}</th><th>median ${B}</th><th>shift ${B} − ${A} (95 % interval)</th><th>relative</th><th>p</th><th>BH q</th><th>direction</th><th>failures</th><th>replicates for ±${(a.options.powerShift * 100).toFixed(0)} %</th></tr>`;
  const body = rows.map(
    (c) =>
      `<tr class="dir-${c.direction}">${withScope ? `<td>${htmlText(c.scope)}</td>` : ''}<td>${htmlText(cellLabel(c))}</td><td>${c.a.n} / ${c.b.n}</td><td>${seconds(c.a.median)}</td><td>${seconds(c.b.median)}</td><td>${htmlText(shiftText(c))}</td><td>${relativeText(c.relative)}</td><td>${pText(c.p)}</td><td>${pText(c.q)}</td><td class="t">${htmlText(directionText(c))}</td><td>${c.a.failures} / ${c.b.failures}</td><td>${needText(c.replicatesNeeded)}</td></tr>`,
  );
  return `<table>${head}${body.join('')}</table>`;
}

function failuresTable(a: Analysis): string {
  if (a.failures.length === 0) return '<p>Every download succeeded at its first attempt.</p>';
  const rows = a.failures.map(
    (f) =>
      `<tr><td>${htmlText(f.arm)}</td><td class="t">${htmlText(f.node)}</td><td>${htmlText(sizeLabel(f.size))}</td><td class="t">${levelName(f.level)}</td><td class="t">${f.strategy}</td><td>${f.units}</td><td>${f.failures}</td><td>${f.failedAttempts}</td><td class="t">${htmlText(f.lastError ?? '')}</td></tr>`,
  );
  return `<table id="failures-table"><tr><th>release</th><th>node</th><th>size</th><th>level</th><th>strategy</th><th>units</th><th>never succeeded</th><th>failed attempts</th><th>last error</th></tr>${rows.join('')}</table>`;
}

function syncTable(a: Analysis): string {
  const rows = a.sync.map(
    (s) =>
      `<tr><td>${htmlText(s.arm)}</td><td>${s.units}</td><td>${s.synced}</td><td>${s.ceilingReached}</td><td class="t">${htmlText(s.signals.join(', ') || '–')}</td><td>${seconds(s.medianWaitS)}</td><td>${seconds(s.maxWaitS)}</td></tr>`,
  );
  const notes = a.sync
    .filter((s) => s.ceilingReached > 0)
    .map(
      (s) =>
        `<p>${htmlText(s.arm)}: the wait reached its ceiling for ${s.ceilingReached} upload(s); their downloads ran anyway (e.g. ${s.examples.map(htmlText).join('; ')}).</p>`,
    );
  return `<table><tr><th>release</th><th>units</th><th>synced</th><th>ceiling reached</th><th>signals</th><th>median wait</th><th>longest wait</th></tr>${rows.join('')}</table>${notes.join('')}`;
}
