// The case view: one chart per param label, one line per runner over commit time on the chosen
// branch. Client-version changes are marked (diamond point, dashed segment into it) and so are the
// writer's significant shifts (star). Zoom and pan move every chart of the case together; the
// range, the branch and the log toggle live in the permalink. Downloads and the data tables hold
// exactly the points shown: this branch, the visible runners, inside the zoomed range.
import type { ActiveElement, ChartDataset, ChartEvent, LegendElement, LegendItem, Scale, ScriptableLineSegmentContext } from 'chart.js';
import type { CaseSeriesFile, IndexCase, Series, SeriesPoint } from '../../src/history/schema.js';
import { NET_SCOPE_CAVEAT, RUNNER_LABEL } from '../../src/report/model/types.js';
import { formatCount, THROUGHPUT_FOOTNOTE } from '../../src/report/units.js';
import type { Runner } from '../../src/spec/schema.js';
import { applyTheme, Chart, RUNNER_POINT, theme, type Theme } from './charts.js';
import type { ViewContext, ViewHandle } from './context.js';
import { loadSeries } from './data.js';
import { DECIMATION, fullData } from './decimate.js';
import { formatUtc, minUnitFor } from './date-adapter.js';
import { clear, el, externalLink, firstLine, internalLink, safeHttpUrl } from './dom.js';
import { download, fileName, toCsv, type Row } from './download.js';
import { hasCounts } from './counts.js';
import { axisTitle, basisOf, exportUnit, exportValue, formatValue, isCount, metricsOf, pointValue, type Figure } from './metric.js';
import { countMark, MARK_STYLE, stepLabels } from './steps.js';
import { formatHash, type ViewState } from './permalink.js';
import { PointTooltip, pointDetails, type Datum } from './tooltip.js';

export const CASE_COLUMNS = [
  'case',
  'label',
  'runner',
  'client_version',
  'branch',
  'timestamp',
  'sha',
  'value',
  'unit',
  'display',
  'median_ns',
  'min_ns',
  'max_ns',
  'n',
  'ops',
  'bytes',
  'shift_ratio',
  'shift_p',
  'version_changed_from',
  'message',
  'author',
  'url',
  'run_id',
  'record',
  'instructions',
  'toolchain',
  'count_mark',
] as const;

/** Rows shown in a data table at most; downloads always hold every shown point. */
const TABLE_ROWS = 500;

type LineChart = Chart<'line', Datum[]>;

interface ChartInfo {
  label: string;
  chart: LineChart;
  runners: Runner[];
  table: HTMLDetailsElement;
}

/**
 * Which time places a case's points on a branch. A client repository's pushes record the measured
 * client's own commits: commit time orders them. Where the records' commit is not the measured
 * client's (the nightly and local runs record bee-bench's commit, the clients at commits or
 * releases of their own), many runs share one commit time: run time tells them apart.
 */
export type TimeAxis = 'commit' | 'run';

export function timeAxisOf(file: CaseSeriesFile, branch: string): TimeAxis {
  let own = false;
  for (const s of file.series) {
    for (const p of s.points) {
      if (p.branch !== branch) continue;
      if (p.client_commit === undefined) continue;
      const same = p.client_commit.startsWith(p.sha) || p.sha.startsWith(p.client_commit);
      if (!same) return 'run';
      own = true;
    }
  }
  return own ? 'commit' : 'run';
}

/** The point's time on `axis` (run time falls back to commit time for records derived before it was kept). */
export const timeOf = (p: SeriesPoint, axis: TimeAxis): number => Date.parse(axis === 'run' ? (p.run_at ?? p.timestamp) : p.timestamp);

/** The points of one series on one branch, in time order, with version changes noted. */
export function datumsOf(s: Series, branch: string, basis: Figure, axis: TimeAxis = 'commit'): Datum[] {
  // Times parsed once (a comparator parsing them costs seconds-scale work on 10,000-point series).
  const pts = s.points
    .filter((p) => p.branch === branch)
    .map((p) => ({ p, x: timeOf(p, axis) }))
    .sort((a, b) => a.x - b.x);
  const out: Datum[] = [];
  let prevVersion: string | undefined;
  for (const { p, x } of pts) {
    const y = pointValue(basis, p);
    if (y === null || !Number.isFinite(x)) continue;
    const d: Datum = { x, y, pt: p };
    if (prevVersion !== undefined && p.client_version !== prevVersion) d.versionFrom = prevVersion;
    prevVersion = p.client_version;
    out.push(d);
  }
  return out;
}

/** The case's unit of work as the report names it ("lookup", "sign"); "op" when the spec names none. */
const opOf = (c: Pick<IndexCase, 'op'>): string => c.op ?? 'op';

function yTick(basis: Figure, scale: Scale, v: number, opLabel: string): string {
  if (v === 0) return '0';
  if (scale.type === 'logarithmic') {
    if (!(v > 0)) return '';
    const m = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
    if (![1, 2, 5].some((k) => Math.abs(m - k) < 1e-6)) return '';
  }
  return formatValue(basis, v, opLabel);
}

/** The y axis; `opLabel` is the case's unit of work, as the report names it. */
function yScale(basis: Figure, log: boolean, opLabel: string) {
  return {
    type: log ? ('logarithmic' as const) : ('linear' as const),
    // Counts move by fractions of a percent: their axis hugs the data, so a step is seen.
    beginAtZero: !log && !isCount(basis),
    title: { display: true, text: `${axisTitle(basis, opLabel)}${log ? ', log scale' : ''}` },
    ticks: {
      callback(this: Scale, v: number | string) {
        return yTick(basis, this, Number(v), opLabel);
      },
    },
  };
}

export function renderCase(root: HTMLElement, ctx: ViewContext): ViewHandle & { ready: Promise<void> } {
  const { index } = ctx;
  const state: ViewState = { ...ctx.state };
  const branch = state.branch ?? '';
  // An old link may name the case by a former id (a renamed case keeps its series): open the case.
  const c = index.cases.find((x) => x.id === state.case) ?? index.cases.find((x) => x.formerly?.includes(state.case ?? ''));
  if (c) state.case = c.id;
  if (!c) {
    document.title = 'Unknown case · bee-bench trends';
    root.append(
      el('h2', { text: 'Unknown case', attrs: { id: 'view-heading', tabindex: '-1' } }),
      el('p', { class: 'error', text: `No case ${JSON.stringify(state.case ?? '')} in this history.` }),
      el('p', {}, internalLink(formatHash({ view: 'overview', branch, log: false }), 'Back to the overview')),
    );
    return { destroy() {}, ready: Promise.resolve() };
  }
  // Instruction counts where the case has them (the same on every runner), else time; a metric the
  // points carry (heap bytes per op, ...) when the permalink names one, time when it says figure=time.
  const counted = hasCounts(c);
  const basis: Figure = state.metric ? { metric: state.metric } : counted && state.figure !== 'time' ? { count: basisOf(c) } : basisOf(c);
  const t = theme();
  applyTheme(t);
  document.title = `${c.id} · bee-bench trends`;
  const group = index.groups.find((g) => g.id === c.group)?.title ?? c.group;

  root.append(
    el(
      'nav',
      { class: 'crumbs', attrs: { 'aria-label': 'Breadcrumb' } },
      internalLink(formatHash({ view: 'overview', branch, log: false }), 'Overview'),
      ' / ',
      group,
    ),
    el('h2', { text: c.id, attrs: { id: 'view-heading', tabindex: '-1' } }),
  );
  // The spec's docs mark code with backticks: shown as code, never as literal backticks (text nodes only).
  if (c.doc) root.append(el('p', { class: 'doc' }, ...c.doc.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? el('code', { text: part }) : part))));
  if (c.formerly) root.append(el('p', { class: 'note formerly', text: `Formerly ${c.formerly.join(', ')}: its series continue here.` }));
  root.append(
    el('p', { class: 'meta', text: `${c.kind === 'net' ? 'Network' : 'CPU'} case · ${axisTitle(basis, opOf(c))} · branch ${branch} · times in UTC` }),
  );
  if (c.kind === 'net') root.append(el('p', { class: 'caveat', text: NET_SCOPE_CAVEAT }));

  const logBox = el('input', { attrs: { type: 'checkbox', id: 'log-scale' } });
  logBox.checked = state.log;
  const resetBtn = el('button', { text: 'Reset zoom', attrs: { type: 'button', id: 'reset-zoom' } });
  resetBtn.disabled = state.from === undefined;
  const csvBtn = el('button', { text: 'Download CSV', attrs: { type: 'button', id: 'download-csv' } });
  const jsonBtn = el('button', { text: 'Download JSON', attrs: { type: 'button', id: 'download-json' } });
  const toolbar = el(
    'div',
    { class: 'toolbar', attrs: { role: 'toolbar', 'aria-label': 'Chart controls' } },
    el('label', { class: 'check' }, logBox, ' Log scale'),
    resetBtn,
    el('span', { class: 'sep', attrs: { 'aria-hidden': 'true' } }),
    el('span', { class: 'toolbar-label', text: 'Shown points:' }),
    csvBtn,
    jsonBtn,
  );
  root.append(
    toolbar,
    el(
      'p',
      { class: 'hint' },
      'Zoom: drag across a time range, or Ctrl + scroll. Pan: Shift + drag. Click a point to pin its details. ',
      ...(isCount(basis)
        ? [
            el('span', { class: 'mark-key', text: '✱' }),
            ' count step (at or above the row’s A/A spread, labelled with the change) · ',
            el('span', { class: 'mark-key', text: '✚' }),
            ' toolchain changed · ',
            el('span', { class: 'mark-key', text: '✖' }),
            ' host changed with the counts · ',
          ]
        : [el('span', { class: 'mark-key', text: '✱' }), ' significant shift · ']),
      el('span', { class: 'mark-key', text: '◆' }),
      ' client version changed (dashed line into it).',
    ),
  );
  const status = el('p', { class: 'loading', text: 'Loading series…', attrs: { role: 'status' } });
  root.append(status);

  const infos: ChartInfo[] = [];
  let destroyed = false;
  let syncing = false;

  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') for (const i of infos) (i.chart as unknown as { $tip?: PointTooltip }).$tip?.hide(true);
  };
  document.addEventListener('keydown', onKey);

  const shownRows = (): Row[] => {
    return infos.flatMap((info) => shownPoints(info).map(({ runner, d }) => rowOf(c, basis, info.label, runner, d)));
  };

  const refreshTables = (): void => {
    for (const info of infos) if (info.table.open) fillTable(info, basis, t, opOf(c));
  };

  /** Tick unit to the visible span (after a zoom, a pan, a reset). */
  const retick = (): void => {
    for (const i of infos) {
      const x = i.chart.scales.x!;
      const unit = minUnitFor(x.max - x.min);
      const time = (i.chart.options.scales!.x as { time: { minUnit?: string } }).time;
      if (time.minUnit !== unit) {
        time.minUnit = unit;
        i.chart.update('none');
      }
    }
  };

  const recordRange = (src: LineChart | null): void => {
    retick();
    if (src) {
      const { min, max } = src.scales.x!;
      state.from = Math.round(min);
      state.to = Math.round(max);
    } else {
      delete state.from;
      delete state.to;
    }
    resetBtn.disabled = src === null;
    ctx.navigate(state, { replace: true });
    refreshTables();
  };

  const onRangeChange = (src: LineChart): void => {
    if (syncing) return;
    syncing = true;
    try {
      const { min, max } = src.scales.x!;
      for (const i of infos) if (i.chart !== src) i.chart.zoomScale('x', { min, max }, 'none');
    } finally {
      syncing = false;
    }
    recordRange(src);
  };

  resetBtn.addEventListener('click', () => {
    syncing = true;
    try {
      for (const i of infos) i.chart.resetZoom('none');
    } finally {
      syncing = false;
    }
    recordRange(null);
    ctx.announce('Zoom reset to the full range.');
  });

  logBox.addEventListener('change', () => {
    state.log = logBox.checked;
    for (const i of infos) {
      i.chart.options.scales!.y = yScale(basis, state.log, opOf(c));
      i.chart.update('none');
    }
    ctx.navigate(state, { replace: true });
    ctx.announce(state.log ? 'Logarithmic y axis.' : 'Linear y axis.');
  });

  const exportName = (): string => fileName('bee-bench', c.id, branch);
  csvBtn.addEventListener('click', () => download(`${exportName()}.csv`, 'text/csv', toCsv(CASE_COLUMNS, shownRows())));
  jsonBtn.addEventListener('click', () => {
    const zoomed = state.from !== undefined && state.to !== undefined;
    const doc = {
      schema: 'bee-bench/site-export@1',
      view: 'case',
      case: c.id,
      branch,
      unit: exportUnit(basis, opOf(c)),
      log: state.log,
      from: zoomed ? new Date(state.from!).toISOString() : null,
      to: zoomed ? new Date(state.to!).toISOString() : null,
      rows: shownRows(),
    };
    download(`${exportName()}.json`, 'application/json', `${JSON.stringify(doc, null, 2)}\n`);
  });

  const ready = loadSeries(c).then(
    (file) => {
      if (destroyed) return;
      status.remove();
      const metrics = metricsOf(file);
      if (metrics.length > 0 || state.metric || counted) toolbar.prepend(figureSelect(metrics, counted, basis, state, ctx));
      const charts = buildCharts(root, c, file, basis, branch, state, t, {
        onRangeChange,
        refreshTables,
      });
      infos.push(...charts);
      if (infos.length === 0) {
        root.append(el('p', { class: 'empty', text: `No runs of ${c.id} on branch ${branch}.` }));
        csvBtn.disabled = jsonBtn.disabled = logBox.disabled = true;
        return;
      }
      if (state.from !== undefined && state.to !== undefined) {
        syncing = true;
        try {
          for (const i of infos) i.chart.zoomScale('x', { min: state.from, max: state.to }, 'none');
        } finally {
          syncing = false;
        }
      }
      retick();
      root.append(el('p', { class: 'footnote', text: footnoteOf(basis) }));
    },
    (e: unknown) => {
      if (destroyed) return;
      status.className = 'error';
      status.setAttribute('role', 'alert');
      status.textContent = `Could not load the series of ${c.id}: ${(e as Error).message}`;
    },
  );

  return {
    ready,
    destroy() {
      destroyed = true;
      document.removeEventListener('keydown', onKey);
      for (const i of infos) i.chart.destroy();
    },
  };
}

function footnoteOf(figure: Figure): string {
  if (isCount(figure))
    return 'Each point is one run’s median instructions per iteration under callgrind, over the case’s work: the same on every machine with the same toolchain. A step is marked where the count moved by at least the row’s A/A spread (the one its record stored, else 0.05%) against the previous counted run of this branch.';
  if (typeof figure === 'object')
    return 'Each point is one run’s figure for this unit: for heap bytes and allocations, the median of its allocation run’s iterations, by the runtime’s own accounting.';
  return figure === 'bytes' ? THROUGHPUT_FOOTNOTE : 'Each point is the median of one run’s iterations.';
}

/** The select's value for instruction counts (a metric unit never starts with "="). */
const COUNT_OPTION = '=count';

/** Time, instruction counts or a metric the points carry: a choice kept in the permalink (a new view, zoom kept). */
function figureSelect(metrics: readonly string[], counted: boolean, shown: Figure, state: ViewState, ctx: ViewContext): HTMLElement {
  const select = el('select', { attrs: { id: 'figure' } });
  const options = ['', ...(counted ? [COUNT_OPTION] : []), ...metrics, ...(state.metric && !metrics.includes(state.metric) ? [state.metric] : [])];
  const current = state.metric ?? (isCount(shown) ? COUNT_OPTION : '');
  for (const unit of options) {
    const o = el('option', { text: unit === '' ? 'Time' : unit === COUNT_OPTION ? 'Instructions' : unit, attrs: { value: unit } });
    o.selected = unit === current;
    select.append(o);
  }
  select.addEventListener('change', () => {
    const next: ViewState = { ...state };
    delete next.metric;
    delete next.figure;
    if (select.value === '' && counted) next.figure = 'time';
    else if (select.value !== '' && select.value !== COUNT_OPTION) next.metric = select.value;
    ctx.navigate(next);
  });
  return el('label', { class: 'check' }, 'Figure ', select);
}

function rowOf(c: IndexCase, basis: Figure, label: string, runner: Runner, d: Datum): Row {
  const p = d.pt;
  return {
    case: c.id,
    label,
    runner,
    client_version: p.client_version,
    branch: p.branch,
    timestamp: p.timestamp,
    sha: p.sha,
    value: exportValue(basis, d.y),
    unit: exportUnit(basis, opOf(c)),
    display: formatValue(basis, d.y, opOf(c)),
    median_ns: p.median_ns,
    min_ns: p.min_ns,
    max_ns: p.max_ns,
    n: p.n,
    ops: p.ops ?? null,
    bytes: p.bytes ?? null,
    shift_ratio: p.shift?.ratio ?? null,
    shift_p: p.shift?.p ?? null,
    version_changed_from: d.versionFrom ?? null,
    message: firstLine(p.message),
    author: p.author,
    url: safeHttpUrl(p.url),
    run_id: p.run_id,
    record: p.record,
    instructions: p.instructions ?? null,
    toolchain: p.toolchain ?? null,
    count_mark: isCount(basis) ? (countMark(p)?.text ?? null) : null,
  };
}

interface Hooks {
  onRangeChange(chart: LineChart): void;
  refreshTables(): void;
}

function buildCharts(
  root: HTMLElement,
  c: IndexCase,
  file: CaseSeriesFile,
  basis: Figure,
  branch: string,
  state: ViewState,
  t: Theme,
  hooks: Hooks,
): ChartInfo[] {
  const labels: string[] = [];
  for (const s of file.series) if (!labels.includes(s.label)) labels.push(s.label);
  const runnerOrder = (r: Runner): number => {
    const i = ['js', 'go', 'rs'].indexOf(r);
    return i < 0 ? 99 : i;
  };
  const out: ChartInfo[] = [];
  const axis = timeAxisOf(file, branch);
  const axisName = axis === 'run' ? 'run time' : 'commit time';
  for (const label of labels) {
    const series = file.series.filter((s) => s.label === label).sort((a, b) => runnerOrder(a.runner) - runnerOrder(b.runner));
    const perRunner = series.map((s) => ({ runner: s.runner, data: datumsOf(s, branch, basis, axis) })).filter((x) => x.data.length > 0);
    // One time only (one run): an hour either side, so the axis still has labels.
    const xs = perRunner.flatMap((x) => x.data.map((d) => d.x));
    const single = Math.min(...xs) === Math.max(...xs) ? { min: xs[0]! - 1_800_000, max: xs[0]! + 1_800_000 } : {};
    if (perRunner.length === 0) continue;
    const total = perRunner.reduce((n, x) => n + x.data.length, 0);
    const longest = Math.max(...perRunner.map((x) => x.data.length));
    const baseRadius = longest > 150 ? 0 : 2.5;

    const canvas = el('canvas', {
      attrs: {
        role: 'img',
        'aria-label': `${c.id}, ${label}: ${axisTitle(basis, opOf(c))} over ${axisName} on branch ${branch}, ${perRunner.map((x) => `${RUNNER_LABEL[x.runner]} ${x.data.length} points`).join(', ')}. The data table below lists the values.`,
      },
    });
    const box = el('div', { class: 'chart-box' }, canvas);
    const table = el('details', { class: 'data-table' }, el('summary', { text: 'Data table' }), el('div', { class: 'table-scroll' }));
    const figure = el(
      'figure',
      { class: 'card chart-card', attrs: { 'data-label': label } },
      el('figcaption', {}, el('span', { class: 'label', text: label }), el('span', { class: 'count', text: `${formatCount(total)} points` })),
      box,
      table,
    );
    root.append(figure);
    const tip = new PointTooltip(box);
    const runners = perRunner.map((x) => x.runner);

    // Chart.js keeps these objects: when it decimates, their data reads the drawn subset.
    const datasets: Array<ChartDataset<'line', Datum[]> & { $pointStyles: (drawn: readonly Datum[]) => Record<string, unknown[]> }> = perRunner.map(
      ({ runner, data }) => ({
        label: RUNNER_LABEL[runner],
        data,
        borderColor: t.runner[runner],
        backgroundColor: t.runner[runner],
        borderWidth: 1.5,
        // Arrays for the drawn points (decimate.ts recomputes them whenever the drawn subset changes).
        // Count charts mark count steps and toolchain / host changes; time charts the shifts.
        $countMarks: isCount(basis),
        $pointStyles: (drawn: readonly Datum[]) => {
          const marked = drawn.map((d) => (isCount(basis) ? (countMark(d.pt) ? MARK_STYLE[countMark(d.pt)!.kind] : null) : d.pt.shift ? 'star' : null));
          return {
            pointStyle: drawn.map((d, i) => marked[i] ?? (d.versionFrom !== undefined ? 'rectRot' : RUNNER_POINT[runner])),
            pointRadius: drawn.map((d, i) => (marked[i] ? 8 : d.versionFrom !== undefined ? 5 : baseRadius)),
            pointBorderWidth: drawn.map((_d, i) => (marked[i] ? 2 : 1)),
            pointHoverRadius: drawn.map((_d, i) => (marked[i] ? 9 : 5)),
          };
        },
        segment: {
          borderDash: (sc: ScriptableLineSegmentContext) => (datasets[sc.datasetIndex]?.data[sc.p1DataIndex]?.versionFrom !== undefined ? [5, 4] : undefined),
        },
      }),
    );
    const chart: LineChart = new Chart<'line', Datum[]>(canvas, {
      type: 'line',
      data: { datasets },
      plugins: [stepLabels],
      options: {
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        normalized: true,
        interaction: { mode: 'nearest', intersect: false },
        onClick(_e: ChartEvent, elements: ActiveElement[]) {
          const a = elements[0];
          if (!a) return tip.hide(true);
          const d = chart.data.datasets[a.datasetIndex]?.data[a.index];
          const runner = runners[a.datasetIndex];
          if (d && runner) tip.show(pointDetails(runner, basis, d, t.runner[runner], opOf(c)), a.element.x, a.element.y, true);
        },
        scales: {
          x: {
            type: 'time',
            time: { minUnit: 'minute' },
            ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 8 },
            title: { display: true, text: axis === 'run' ? 'Run time (UTC)' : 'Commit time (UTC)' },
            ...single,
          },
          y: yScale(basis, state.log, opOf(c)),
        },
        plugins: {
          decimation: DECIMATION,
          legend: {
            position: 'top',
            align: 'end',
            labels: {
              usePointStyle: true,
              boxHeight: 7,
              // The runner's own shape, not the first point's (which may be a shift or version marker).
              generateLabels: (ch) =>
                Chart.defaults.plugins.legend.labels
                  .generateLabels(ch)
                  .map((item) => ({ ...item, pointStyle: RUNNER_POINT[runners[item.datasetIndex ?? 0] ?? 'js'] })),
            },
            onClick(this: LegendElement<'line'>, e: ChartEvent, item: LegendItem, legend: LegendElement<'line'>) {
              Chart.defaults.plugins.legend.onClick.call(this, e, item, legend);
              hooks.refreshTables();
            },
          },
          tooltip: {
            enabled: false,
            external({ tooltip }) {
              if (tip.pinned) return;
              const dp = tooltip.dataPoints?.[0];
              if (tooltip.opacity === 0 || !dp) return tip.hide();
              const runner = runners[dp.datasetIndex];
              if (runner) tip.show(pointDetails(runner, basis, dp.raw as Datum, t.runner[runner], opOf(c)), dp.element.x, dp.element.y, false);
            },
          },
          zoom: {
            limits: { x: { min: 'original', max: 'original', minRange: 60_000 } },
            zoom: {
              mode: 'x',
              wheel: { enabled: true, modifierKey: 'ctrl' },
              pinch: { enabled: true },
              drag: { enabled: true, threshold: 8, backgroundColor: 'rgba(127,127,127,0.15)', borderColor: t.muted, borderWidth: 1 },
              onZoomComplete: ({ chart: ch }) => hooks.onRangeChange(ch as unknown as LineChart),
            },
            pan: { enabled: true, mode: 'x', modifierKey: 'shift', onPanComplete: ({ chart: ch }) => hooks.onRangeChange(ch as unknown as LineChart) },
          },
        },
      },
    });
    (chart as unknown as { $tip?: PointTooltip }).$tip = tip;
    const info: ChartInfo = { label, chart, runners, table };
    table.addEventListener('toggle', () => {
      if (table.open) fillTable(info, basis, t, opOf(c));
    });
    out.push(info);
  }
  return out;
}

/** The points of visible runners inside the shown x range: every point, not the decimated ones drawn. */
function shownPoints(info: ChartInfo): Array<{ runner: Runner; d: Datum }> {
  const { min, max } = info.chart.scales.x!;
  const out: Array<{ runner: Runner; d: Datum }> = [];
  info.chart.data.datasets.forEach((ds, i) => {
    if (!info.chart.isDatasetVisible(i)) return;
    for (const d of fullData(ds)) if (d.x >= min && d.x <= max) out.push({ runner: info.runners[i]!, d });
  });
  return out;
}

function fillTable(info: ChartInfo, basis: Figure, t: Theme, opLabel: string): void {
  const holder = info.table.querySelector('.table-scroll')!;
  clear(holder);
  const rows = shownPoints(info).sort((a, b) => b.d.x - a.d.x);
  const table = el('table', { class: 'points' });
  table.append(
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['Time (UTC)', 'Client', 'Version', 'Value', 'Commit', 'Message', 'Author', 'Marks'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
      ),
    ),
  );
  const body = el('tbody');
  for (const { runner, d } of rows.slice(0, TABLE_ROWS)) {
    const marks = [isCount(basis) ? (countMark(d.pt)?.text ?? '') : d.pt.shift ? '✱ shift' : '', d.versionFrom !== undefined ? `◆ from ${d.versionFrom}` : '']
      .filter(Boolean)
      .join(' ');
    const sw = el('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } });
    sw.style.background = t.runner[runner];
    body.append(
      el(
        'tr',
        {},
        el('td', { class: 'nowrap', text: formatUtc(d.x, 'datetime') }),
        el('td', { class: 'nowrap' }, sw, RUNNER_LABEL[runner]),
        el('td', { text: d.pt.client_version }),
        el('td', { class: 'num', text: formatValue(basis, d.y, opLabel) }),
        el('td', {}, externalLink(d.pt.url, d.pt.sha.slice(0, 7), { class: 'sha' })),
        el('td', { class: 'msg', text: firstLine(d.pt.message) }),
        el('td', { text: d.pt.author }),
        el('td', { text: marks }),
      ),
    );
  }
  table.append(body);
  holder.append(table);
  const more = rows.length - TABLE_ROWS;
  holder.append(
    el('p', {
      class: 'note',
      text:
        more > 0
          ? `Newest ${formatCount(TABLE_ROWS)} of ${formatCount(rows.length)} shown points; the downloads hold all of them.`
          : `${formatCount(rows.length)} points shown.`,
    }),
  );
}
