// The first view: every case x param x runner as a sparkline with its latest figure and change,
// grouped by spec group, and the cross-client scoreboard (latest run and over time). It needs
// index.json only; no series file is loaded here.
import type { IndexCase, ScoreboardEntry } from '../../src/history/schema.js';
import { RUNNER_LABEL } from '../../src/report/model/types.js';
import { formatCount, formatRatio, THROUGHPUT_FOOTNOTE } from '../../src/report/units.js';
import type { Runner } from '../../src/spec/schema.js';
import { applyTheme, Chart, RUNNER_POINT, theme, type Theme } from './charts.js';
import type { ViewContext, ViewHandle } from './context.js';
import { formatUtc, minUnitFor } from './date-adapter.js';
import { download, fileName, toCsv, type Row } from './download.js';
import { dottedName, el, internalLink } from './dom.js';
import { basisOf, changeTitle, exportUnit, exportValue, formatFigureChange, formatValue, valueOf, type Basis } from './metric.js';
import { formatHash } from './permalink.js';
import { sparkline } from './sparkline.js';

const OVERVIEW_COLUMNS = [
  'case',
  'group',
  'label',
  'runner',
  'branch',
  'value',
  'unit',
  'display',
  'change_fraction',
  'change',
  'sha',
  'timestamp',
  'trend_points',
  'points',
] as const;

function labelsOf(c: IndexCase): string[] {
  const seen: string[] = [];
  for (const s of c.series) if (!seen.includes(s.label)) seen.push(s.label);
  return seen;
}

interface Cell {
  basis: Basis;
  value: number | null;
  trend: number[];
  change: number | null;
  sha: string;
  timestamp: string;
  points: number;
}

function cellOf(c: IndexCase, basis: Basis, label: string, runner: Runner, branch: string): Cell | null {
  const s = c.series.find((x) => x.label === label && x.runner === runner);
  const l = s?.latest[branch];
  if (!s || !l) return null;
  const work = { ops: l.ops, bytes: l.bytes };
  return {
    basis,
    value: valueOf(basis, l.median_ns, work),
    trend: (Array.isArray(l.trend) ? l.trend : []).map((ns) => valueOf(basis, ns, work)).filter((v): v is number => v !== null),
    change: l.change,
    sha: l.sha,
    timestamp: l.timestamp,
    points: s.points,
  };
}

export function renderOverview(root: HTMLElement, ctx: ViewContext): ViewHandle {
  const { index, state } = ctx;
  const branch = state.branch ?? '';
  const t = theme();
  applyTheme(t);
  const charts: Chart[] = [];
  document.title = 'bee-bench trends';

  const heading = el('h2', { text: 'Overview', attrs: { id: 'view-heading', tabindex: '-1' } });
  const exportRows: Row[] = [];

  root.append(heading);
  if (index.invalid.length > 0) root.append(invalidNotice(index.invalid));
  root.append(
    scoreboardSection(
      index.scoreboard.filter((e) => e.branch === branch),
      index.runners,
      t,
      charts,
    ),
  );

  const groups = [...index.groups];
  for (const c of index.cases) if (!groups.some((g) => g.id === c.group)) groups.push({ id: c.group, title: c.group });
  let shown = 0;
  for (const g of groups) {
    const cases = index.cases.filter((c) => c.group === g.id);
    if (cases.length === 0) continue;
    const section = caseGroup(g, cases, ctx, t, exportRows);
    if (section) {
      root.append(section);
      shown++;
    }
  }
  if (shown === 0) root.append(el('p', { class: 'empty', text: `No case has runs on branch ${branch}.` }));

  const dl = el('div', { class: 'toolbar' });
  const csv = el('button', { text: 'Download CSV', attrs: { type: 'button' } });
  const json = el('button', { text: 'Download JSON', attrs: { type: 'button' } });
  csv.addEventListener('click', () => download(`${fileName('bee-bench', 'overview', branch)}.csv`, 'text/csv', toCsv(OVERVIEW_COLUMNS, exportRows)));
  json.addEventListener('click', () =>
    download(
      `${fileName('bee-bench', 'overview', branch)}.json`,
      'application/json',
      `${JSON.stringify({ schema: 'bee-bench/site-export@1', view: 'overview', branch, rows: exportRows }, null, 2)}\n`,
    ),
  );
  dl.append(el('span', { class: 'toolbar-label', text: 'This table:' }), csv, json);
  heading.after(dl);
  root.append(el('p', { class: 'footnote', text: THROUGHPUT_FOOTNOTE }));

  return { destroy: () => charts.forEach((c) => c.destroy()) };
}

function invalidNotice(invalid: Array<{ file: string; problem: string }>): HTMLElement {
  const list = el('ul');
  for (const i of invalid.slice(0, 50)) list.append(el('li', {}, el('code', { text: i.file }), ': ', i.problem));
  if (invalid.length > 50) list.append(el('li', { text: `… and ${formatCount(invalid.length - 50)} more` }));
  return el(
    'details',
    { class: 'notice', attrs: { role: 'note' } },
    el('summary', {
      text:
        invalid.length === 1
          ? '1 history record failed validation and is left out of every figure.'
          : `${formatCount(invalid.length)} history records failed validation and are left out of every figure.`,
    }),
    list,
  );
}

function scoreboardSection(entries: ScoreboardEntry[], runners: Runner[], t: Theme, charts: Chart[]): HTMLElement {
  const section = el('section', { class: 'card scoreboard', attrs: { 'aria-labelledby': 'scoreboard-h' } });
  section.append(el('h3', { text: 'Cross-client scoreboard', attrs: { id: 'scoreboard-h' } }));
  section.append(
    el('p', {
      class: 'note',
      text: 'Geometric mean, over every case and param the clients share, of each client’s per-op time divided by the fastest client’s. 1.00x is fastest everywhere.',
    }),
  );
  const sorted = [...entries].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  const latest = sorted[sorted.length - 1];
  if (!latest) {
    section.append(el('p', { class: 'empty', text: 'No cross-client run on this branch yet.' }));
    return section;
  }
  const table = el('table', { class: 'score-table' });
  table.append(
    el(
      'caption',
      {},
      'Latest run: ',
      el('code', { text: latest.sha.slice(0, 7) }),
      ` · ${formatUtc(Date.parse(latest.timestamp), 'datetime')} · ${formatCount(latest.rows)} rows`,
    ),
  );
  table.append(
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { text: 'Client', attrs: { scope: 'col' } }),
        el('th', { text: 'Geomean vs fastest', attrs: { scope: 'col' } }),
        el('th', { text: 'Rows won', attrs: { scope: 'col' } }),
      ),
    ),
  );
  const body = el('tbody');
  const ranked = runners.filter((r) => latest.geomean[r] !== undefined).sort((a, b) => (latest.geomean[a] ?? Infinity) - (latest.geomean[b] ?? Infinity));
  for (const r of ranked) {
    const swatch = el('span', { class: `swatch runner-${r}`, attrs: { 'aria-hidden': 'true' } });
    body.append(
      el(
        'tr',
        {},
        el('th', { attrs: { scope: 'row' } }, swatch, RUNNER_LABEL[r]),
        el('td', { class: 'num', text: formatRatio(latest.geomean[r]) }),
        el('td', { class: 'num', text: `${formatCount(latest.wins[r] ?? 0)} of ${formatCount(latest.rows)}` }),
      ),
    );
  }
  table.append(body);

  const canvas = el('canvas', {
    attrs: {
      role: 'img',
      'aria-label': `Scoreboard over time: geomean ratio to the fastest client per run, ${sorted.length} runs. The table beside it has the latest run.`,
    },
  });
  const box = el('div', { class: 'chart-box chart-box-small' }, canvas);
  section.append(el('div', { class: 'score-grid' }, table, box));

  const byX = sorted.map((e) => Date.parse(e.timestamp));
  charts.push(
    new Chart(canvas, {
      type: 'line',
      data: {
        datasets: runners.map((r) => ({
          label: RUNNER_LABEL[r],
          data: sorted.flatMap((e, i) => (e.geomean[r] === undefined ? [] : [{ x: byX[i]!, y: e.geomean[r]!, sha: e.sha }])),
          borderColor: t.runner[r],
          backgroundColor: t.runner[r],
          pointStyle: RUNNER_POINT[r],
          pointRadius: sorted.length > 60 ? 0 : 2.5,
          pointHoverRadius: 5,
          borderWidth: 1.5,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        normalized: true,
        interaction: { mode: 'nearest', intersect: false, axis: 'x' },
        scales: {
          x: {
            type: 'time',
            time: { minUnit: minUnitFor(byX[byX.length - 1]! - byX[0]!) },
            ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 6 },
            grid: { display: false },
          },
          y: { type: 'linear', ticks: { callback: (v) => formatRatio(Number(v)) }, title: { display: true, text: 'x fastest (lower is better)' } },
        },
        plugins: {
          legend: { position: 'top', align: 'end', labels: { usePointStyle: true, boxHeight: 7 } },
          tooltip: {
            callbacks: {
              title: (items) => {
                const raw = items[0]?.raw as { x: number; sha: string } | undefined;
                return raw ? `${formatUtc(raw.x, 'datetime')} · ${raw.sha.slice(0, 7)}` : '';
              },
              label: (item) => `${item.dataset.label ?? ''}: ${formatRatio((item.raw as { y: number }).y)}`,
            },
          },
        },
      },
    }),
  );
  return section;
}

function caseGroup(g: { id: string; title: string }, cases: IndexCase[], ctx: ViewContext, t: Theme, exportRows: Row[]): HTMLElement | null {
  const { index, state } = ctx;
  const branch = state.branch ?? '';
  const runners = index.runners;
  const headId = `group-${g.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const table = el('table', { class: 'cases' });
  // Fixed column widths, so the runner columns line up from one group's table to the next.
  table.append(
    el('colgroup', {}, el('col', { class: 'col-case' }), el('col', { class: 'col-label' }), ...runners.map(() => el('col', { class: 'col-runner' }))),
  );
  const headRow = el('tr', {}, el('th', { text: 'Case', attrs: { scope: 'col' } }), el('th', { text: 'Param', attrs: { scope: 'col' } }));
  for (const r of runners)
    headRow.append(el('th', { attrs: { scope: 'col' } }, el('span', { class: `swatch runner-${r}`, attrs: { 'aria-hidden': 'true' } }), RUNNER_LABEL[r]));
  table.append(el('thead', {}, headRow));
  let rows = 0;
  for (const c of cases) {
    const basis = basisOf(c);
    const labels = labelsOf(c).filter((label) => runners.some((r) => cellOf(c, basis, label, r, branch)));
    if (labels.length === 0) continue;
    const body = el('tbody');
    labels.forEach((label, li) => {
      const tr = el('tr');
      if (li === 0) {
        const link = internalLink(formatHash({ view: 'case', case: c.id, branch, log: false }), c.id, { class: 'case-link' });
        link.replaceChildren(...dottedName(c.id));
        if (c.doc) link.setAttribute('title', c.doc);
        const th = el('th', { attrs: { scope: 'rowgroup', rowspan: String(labels.length) } }, link);
        if (c.kind === 'net')
          th.append(el('span', { class: 'badge', text: 'net', attrs: { title: 'Client to a local Bee over loopback: not Swarm-network throughput.' } }));
        tr.append(th);
      }
      tr.append(el('td', { class: 'label', text: label }));
      for (const r of runners) {
        const cell = cellOf(c, basis, label, r, branch);
        if (!cell) {
          tr.append(
            el(
              'td',
              { class: 'cell empty-cell' },
              el('span', { class: 'sr-only', text: `${RUNNER_LABEL[r]}: no data` }),
              el('span', { text: '—', attrs: { 'aria-hidden': 'true' } }),
            ),
          );
          continue;
        }
        const display = formatValue(basis, cell.value);
        const change = formatFigureChange(basis, cell.change);
        tr.append(
          el(
            'td',
            { class: 'cell' },
            sparkline(cell.trend, t.runner[r]),
            el('span', { class: 'value', text: display }),
            el('span', { class: 'change', text: change, attrs: { title: changeTitle() } }),
          ),
        );
        exportRows.push({
          case: c.id,
          group: c.group,
          label,
          runner: r,
          branch,
          value: cell.value === null ? null : exportValue(basis, cell.value),
          unit: exportUnit(basis),
          display,
          change_fraction: cell.change,
          change,
          sha: cell.sha,
          timestamp: cell.timestamp,
          trend_points: cell.trend.length,
          points: cell.points,
        });
      }
      body.append(tr);
      rows++;
    });
    table.append(body);
  }
  if (rows === 0) return null;
  return el(
    'section',
    { class: 'card group', attrs: { 'aria-labelledby': headId } },
    el('h3', { text: g.title, attrs: { id: headId } }),
    el('div', { class: 'table-scroll' }, table),
  );
}
