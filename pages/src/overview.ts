// The first view: every case x param x runner as a sparkline with its latest figure and change,
// grouped by spec group, and the cross-client scoreboard (latest run and over time). It needs
// index.json only; no series file is loaded here.
import type { HistoryIndex, IndexCase, IndexSeries, ScoreboardEntry } from '../../src/history/schema.js';
import { boardRows, costSamples, RANKING_RULE, scoreRows, scores, unitCosts, type ScoreEntry, type ScoreRow } from '../../src/stats/scoreboard.js';
import { RUNNER_LABEL } from '../../src/report/model/types.js';
import { formatCount, formatRatio, THROUGHPUT_FOOTNOTE } from '../../src/report/units.js';
import type { Runner } from '../../src/spec/schema.js';
import { applyTheme, Chart, RUNNER_POINT, theme, type Theme } from './charts.js';
import type { ViewContext, ViewHandle } from './context.js';
import { formatUtc, minUnitFor } from './date-adapter.js';
import { download, fileName, toCsv, type Row } from './download.js';
import { dottedName, el, internalLink } from './dom.js';
import { anyCounts, countCell, formatCountChange } from './counts.js';
import { basisOf, changeDirection, changeTitle, exportUnit, exportValue, formatValue, timeChangeWords, valueOf, type Basis, type Figure } from './metric.js';
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
  figure: Figure;
  /** The change as shown: time's in the figure's direction, counts' with two decimals. */
  changeText: string;
  value: number | null;
  trend: number[];
  change: number | null;
  sha: string;
  timestamp: string;
  points: number;
}

/** A row's latest figures on the branch: its counts when `counts` and the row has them, else its time. */
function cellOf(c: IndexCase, basis: Basis, label: string, runner: Runner, branch: string, counts = false): Cell | null {
  const s = c.series.find((x) => x.label === label && x.runner === runner);
  const l = s?.latest[branch];
  if (!s || !l) return null;
  const counted = counts ? countCell(basis, l) : null;
  if (counted)
    return { figure: { count: basis }, changeText: formatCountChange(counted.change), ...counted, sha: l.sha, timestamp: l.timestamp, points: s.points };
  const work = { ops: l.ops, bytes: l.bytes };
  return {
    figure: basis,
    changeText: timeChangeWords(l.change),
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
  // Instruction counts instead of time, where the history has them (figure=count).
  const offerCounts = anyCounts(index.cases);
  const counts = offerCounts && state.figure === 'count';

  root.append(heading);
  if (index.invalid.length > 0) root.append(invalidNotice(index.invalid));
  const missing = (['js', 'go', 'rs'] as const).filter((r) => !index.runners.includes(r));
  if (missing.length > 0)
    root.append(
      el('p', {
        class: 'note missing-clients',
        text: `Not in this history: ${missing.map((r) => RUNNER_LABEL[r]).join(', ')} (no run recorded a result for ${missing.length === 1 ? 'it' : 'them'}: skipped or not asked for).`,
      }),
    );
  root.append(
    scoreboardSection(
      ((counts ? index.scoreboard_counts : index.scoreboard) ?? []).filter((e) => e.branch === branch),
      latestScoreboard(index, branch, counts),
      index.runners,
      t,
      charts,
      counts,
    ),
  );

  const groups = [...index.groups];
  for (const c of index.cases) if (!groups.some((g) => g.id === c.group)) groups.push({ id: c.group, title: c.group });
  let shown = 0;
  for (const g of groups) {
    const cases = index.cases.filter((c) => c.group === g.id);
    if (cases.length === 0) continue;
    const section = caseGroup(g, cases, ctx, t, exportRows, counts);
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
  if (offerCounts) dl.prepend(overviewFigure(ctx, counts));
  heading.after(dl);
  root.append(el('p', { class: 'footnote', text: THROUGHPUT_FOOTNOTE }));

  return { destroy: () => charts.forEach((c) => c.destroy()) };
}

/** Time or instruction counts for the table and the scoreboard, kept in the permalink. */
function overviewFigure(ctx: ViewContext, counts: boolean): HTMLElement {
  const select = el('select', { attrs: { id: 'overview-figure' } });
  for (const [value, text] of [
    ['time', 'Time'],
    ['count', 'Instructions'],
  ] as const) {
    const o = el('option', { text, attrs: { value } });
    o.selected = (value === 'count') === counts;
    select.append(o);
  }
  select.addEventListener('change', () => {
    const next = { ...ctx.state };
    if (select.value === 'count') next.figure = 'count';
    else delete next.figure;
    ctx.navigate(next);
  });
  return el('label', { class: 'check' }, 'Figure ', select);
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

/** The scoreboard over the latest value of every row on a branch, and the runs those values come from. */
export interface LatestScoreboard {
  entries: ScoreEntry[];
  /** Rows scored. */
  rows: number;
  /** Rows compared but left out: the latest times' intervals leave the ranking open (never on counts). */
  open: number;
  runs: number;
  /** Oldest and newest time of the values used (ms). */
  from: number;
  to: number;
}

/**
 * The headline scoreboard: every (case, param) row takes each client's latest value on the branch,
 * so a run of one case adds to the picture instead of replacing it (the per-run entries below swing
 * with what each run measured).
 */
export function latestScoreboard(index: Pick<HistoryIndex, 'cases' | 'runners'>, branch: string, counts = false): LatestScoreboard | null {
  // Time, or on the counts view instructions per iteration (rows some client did not count are left out).
  const figure = (l: IndexSeries['latest'][string]) => (counts ? (l.instructions ?? 0) : l.median_ns);
  const rows: ScoreRow[] = [];
  const runs = new Set<string>();
  const times: number[] = [];
  for (const c of index.cases) {
    for (const label of labelsOf(c)) {
      const cells = c.series.flatMap((s) => {
        const l = s.label === label ? s.latest[branch] : undefined;
        return l && figure(l) > 0 ? [{ runner: s.runner, l }] : [];
      });
      if (cells.length < 2) continue;
      const costs = unitCosts(cells.map(({ l }) => ({ median_ns: figure(l), ops: l.ops, bytes: l.bytes })));
      if (!costs) continue;
      const row: ScoreRow = {
        group: c.group,
        costs: cells.map(({ runner, l }, i) => {
          const unitCost = costs[i]!;
          // The median's interval and the iterations in the cost's units (scaled as the median was); time only.
          const ci = counts ? undefined : l.median_interval;
          const scale = l.median_ns / unitCost;
          const samples = counts || !(scale > 0) || !l.samples_ns ? undefined : costSamples(l.samples_ns, scale);
          return { runner, unitCost, ...(ci && scale > 0 ? { interval: { lo: ci.lo / scale, hi: ci.hi / scale } } : {}), ...(samples ? { samples } : {}) };
        }),
      };
      rows.push(row);
      if (!scores(row)) continue; // the harness group times the runners, not the clients; rows whose ranking is open are counted apart
      for (const { l } of cells) {
        runs.add(l.run_id ?? `${l.sha} ${l.timestamp}`);
        times.push(Date.parse(l.run_at ?? l.timestamp));
      }
    }
  }
  const board = boardRows(rows);
  if (board.scored + board.open === 0) return null;
  return {
    entries: scoreRows(rows, index.runners),
    rows: board.scored,
    open: board.open,
    runs: runs.size,
    from: times.length > 0 ? Math.min(...times) : NaN,
    to: times.length > 0 ? Math.max(...times) : NaN,
  };
}

function scoreboardSection(
  entries: ScoreboardEntry[],
  latestRows: LatestScoreboard | null,
  runners: Runner[],
  t: Theme,
  charts: Chart[],
  counts: boolean,
): HTMLElement {
  const section = el('section', { class: 'card scoreboard', attrs: { 'aria-labelledby': 'scoreboard-h' } });
  section.append(el('h3', { text: counts ? 'Cross-client scoreboard (instructions)' : 'Cross-client scoreboard', attrs: { id: 'scoreboard-h' } }));
  section.append(
    el('p', {
      class: 'note',
      text: counts
        ? 'Geometric mean, over every case and param the clients counted, of each client’s instructions per op divided by the fewest. 1.00x is fewest everywhere.'
        : 'Geometric mean, over every case and param the clients share, of each client’s per-op time divided by the fastest client’s. 1.00x is fastest everywhere.',
    }),
  );
  const sorted = [...entries].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  if (latestRows && latestRows.rows === 0) {
    // Every row the clients share leaves its ranking open: no headline, and why.
    section.append(el('p', { class: 'empty' }, 'No row ranks its clients clearly enough to score. ', openNote(latestRows.open)));
    return section;
  }
  if (!latestRows || sorted.length === 0) {
    section.append(el('p', { class: 'empty', text: 'No cross-client run on this branch yet.' }));
    return section;
  }
  const span =
    latestRows.from === latestRows.to
      ? formatUtc(latestRows.to, 'datetime')
      : `${formatUtc(latestRows.from, 'datetime')} – ${formatUtc(latestRows.to, 'datetime')}`;
  const table = el('table', { class: 'score-table' });
  table.append(
    el(
      'caption',
      {},
      `Latest value of each row: ${formatCount(latestRows.rows)} row${latestRows.rows === 1 ? '' : 's'} from ${formatCount(latestRows.runs)} run${latestRows.runs === 1 ? '' : 's'} · ${span}`,
      counts ? null : openNote(latestRows.open),
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
  const standing = new Map(latestRows.entries.filter((e) => e.geomean !== null).map((e) => [e.runner, e]));
  const ranked = runners.filter((r) => standing.has(r)).sort((a, b) => standing.get(a)!.geomean! - standing.get(b)!.geomean!);
  for (const r of ranked) {
    const s = standing.get(r)!;
    const swatch = el('span', { class: `swatch runner-${r}`, attrs: { 'aria-hidden': 'true' } });
    body.append(
      el(
        'tr',
        {},
        el('th', { attrs: { scope: 'row' } }, swatch, RUNNER_LABEL[r]),
        el('td', { class: 'num', text: formatRatio(s.geomean!) }),
        el('td', { class: 'num', text: `${formatCount(s.wins)} of ${formatCount(s.rows)}` }),
      ),
    );
  }
  table.append(body);

  const canvas = el('canvas', {
    attrs: {
      role: 'img',
      'aria-label': `Scoreboard over time: geomean ratio to the fastest client per run (over the rows that run measured), ${sorted.length} runs. The table beside it takes each row's latest value.`,
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

/** The caption's second line: how many rows with an open ranking the headline leaves out, and the rule. */
function openNote(n: number): HTMLElement {
  const text = n > 0 ? ` ${formatCount(n)} row${n === 1 ? ' is' : 's are'} left out: ${RANKING_RULE}.` : ` Every shared row is ranked: ${RANKING_RULE}.`;
  return el('span', { class: 'ranking-note', text });
}

function caseGroup(g: { id: string; title: string }, cases: IndexCase[], ctx: ViewContext, t: Theme, exportRows: Row[], counts: boolean): HTMLElement | null {
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
        // A tooltip has no code style: the spec's `code` marks go, the words stay.
        if (c.doc) link.setAttribute('title', c.doc.replace(/`([^`]+)`/g, '$1'));
        const th = el('th', { attrs: { scope: 'rowgroup', rowspan: String(labels.length) } }, link);
        if (c.kind === 'net')
          th.append(el('span', { class: 'badge', text: 'net', attrs: { title: 'Client to a local Bee over loopback: not Swarm-network throughput.' } }));
        tr.append(th);
      }
      tr.append(el('td', { class: 'label', text: label }));
      for (const r of runners) {
        const cell = cellOf(c, basis, label, r, branch, counts);
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
        const display = formatValue(cell.figure, cell.value, c.op);
        const change = cell.changeText;
        const direction = changeDirection(cell.change, change);
        tr.append(
          el(
            'td',
            // In counts, a row without them shows its time, and says so.
            counts && typeof cell.figure !== 'object'
              ? { class: 'cell', attrs: { title: 'No instruction counts for this row: its time is shown.' } }
              : { class: 'cell' },
            sparkline(cell.trend, t.runner[r]),
            el('span', { class: 'value', text: display }),
            el('span', { class: `change ${direction}`, text: change, attrs: { title: changeTitle(direction) } }),
          ),
        );
        exportRows.push({
          case: c.id,
          group: c.group,
          label,
          runner: r,
          branch,
          value: cell.value === null ? null : exportValue(cell.figure, cell.value),
          unit: exportUnit(cell.figure, c.op),
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
