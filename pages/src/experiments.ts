// The site's release experiments page (experiments.html): the list of experiments from
// experiments/index.json, newest first, each linkable as experiments.html#<id>; the linked one
// opened with its per-cell shifts drawn (estimate and 95 % interval, coloured by direction after
// BH) and its cells tabled; and a trend per cell when experiments repeat (one per release): the
// shift each experiment measured, in order. Charts through the experiment report's own drawing
// code (src/experiment/report/charts.ts), bundled here; nothing from a CDN.
import type { ExperimentCell, ExperimentIndex, ExperimentSummary } from '../../src/history/experiments.js';
import { DIRECTION_COLORS, directionWords, levelName, seconds, sizeLabel } from '../../src/experiment/analysis/names.js';
import { drawFigures } from '../../src/experiment/report/charts.js';
import type { FigureSpec, PanelSpec } from '../../src/experiment/report/figures.js';
import { loadExperiment, loadExperimentIndex } from './data.js';
import { clear, el, internalLink } from './dom.js';

declare global {
  interface Window {
    /** For tests and the curious: the charts drawn on this page. */
    beeBenchExperiments?: { charts: unknown[] };
  }
}

const main = document.getElementById('main')!;
let charts: { destroy(): void }[] = [];

const directionText = (c: Pick<ExperimentCell, 'direction' | 'a' | 'b'>) => directionWords(c.direction, c.a, c.b);

function directions(a: string, b: string, alpha: number) {
  return [
    { key: 'b-faster' as const, label: `${b} faster (q < ${alpha})` },
    { key: 'a-faster' as const, label: `${a} faster (q < ${alpha})` },
    { key: 'unclear' as const, label: `no clear difference (q ≥ ${alpha})` },
  ];
}

/** One error-bar panel per file size: the shift B − A of every download cell of one experiment. */
function estimateFigure(s: ExperimentSummary): FigureSpec {
  const cells = s.cells.filter((c) => c.family === 'download');
  const a = s.arms[0]!.label;
  const b = s.arms[1]?.label ?? '';
  const sizes = [...new Set(cells.map((c) => c.size))].sort((x, y) => x - y);
  const label = (c: ExperimentCell) => `${levelName(c.level)}, ${c.strategy}`;
  const panels: PanelSpec[] = sizes.map((size) => {
    const row = cells.filter((c) => c.size === size);
    return {
      id: `exp-${size}`,
      title: `${sizeLabel(size)}: ${b} − ${a}`,
      kind: 'errorbar',
      xTitle: 'erasure level, strategy',
      yTitle: `shift ${b} − ${a} (s)`,
      logY: false,
      labels: row.map(label),
      datasets: directions(a, b, s.alpha).map((d) => ({
        label: d.label,
        color: DIRECTION_COLORS[d.key],
        data: row
          .filter((c) => c.direction === d.key && c.shift_s !== null)
          .map((c) => ({ x: label(c), y: c.shift_s!, yMin: c.lo_s ?? c.shift_s!, yMax: c.hi_s ?? c.shift_s! })),
      })),
    };
  });
  return { id: 'estimates', title: `Download time: shift of ${b} against ${a} per cell, with 95 % interval`, caption: '', panels };
}

/** One panel per cell measured by two or more experiments: each experiment's shift, oldest first. */
function trendFigure(index: ExperimentIndex): FigureSpec {
  const panels: PanelSpec[] = index.trends.map((t) => {
    const label = (p: ExperimentIndex['trends'][number]['points'][number]) => `${p.b} vs ${p.a}`;
    return {
      id: `trend-${t.size}-${t.level}-${t.strategy}`,
      title: `${sizeLabel(t.size)}, level ${levelName(t.level)}, ${t.strategy}`,
      kind: 'errorbar',
      xTitle: 'experiment (newer release vs older), oldest first',
      yTitle: 'shift newer − older (s)',
      logY: false,
      labels: t.points.map(label),
      datasets: (['b-faster', 'a-faster', 'unclear'] as const).map((key) => ({
        label: key === 'b-faster' ? 'newer release faster' : key === 'a-faster' ? 'older release faster' : 'no clear difference',
        color: DIRECTION_COLORS[key],
        data: t.points
          .filter((p) => p.direction === key && p.shift_s !== null)
          .map((p) => ({ x: label(p), y: p.shift_s!, yMin: p.lo_s ?? p.shift_s!, yMax: p.hi_s ?? p.shift_s! })),
      })),
    };
  });
  return { id: 'trends', title: 'Trend per cell across experiments', caption: '', panels };
}

function canvases(f: FigureSpec): HTMLElement {
  return el(
    'div',
    { class: 'exp-panels' },
    ...f.panels.map((p) => el('div', { class: 'exp-panel' }, el('canvas', { attrs: { id: `chart-${p.id}`, role: 'img', 'aria-label': p.title } }))),
  );
}

function cellTable(s: ExperimentSummary): HTMLElement {
  const a = s.arms[0]!.label;
  const b = s.arms[1]?.label ?? '';
  const head = el(
    'tr',
    {},
    ...['cell', `n ${a} / ${b}`, `median ${a}`, `median ${b}`, `shift ${b} − ${a} (95 % interval)`, 'BH q', 'direction', 'failures'].map((h) =>
      el('th', { text: h }),
    ),
  );
  const rows = s.cells
    .filter((c) => c.family === 'download')
    .map((c) =>
      el(
        'tr',
        { class: `dir-${c.direction}` },
        el('td', { text: `${sizeLabel(c.size)}, level ${levelName(c.level)}, ${c.strategy}` }),
        el('td', { text: `${c.n_a} / ${c.n_b}` }),
        el('td', { text: seconds(c.median_a_s) }),
        el('td', { text: seconds(c.median_b_s) }),
        el('td', { text: c.shift_s === null ? '–' : `${c.shift_s > 0 ? '+' : ''}${seconds(c.shift_s)} (${seconds(c.lo_s)} to ${seconds(c.hi_s)})` }),
        el('td', { text: c.q === null ? '–' : c.q.toPrecision(2) }),
        el('td', { text: directionText(c) }),
        el('td', { text: `${c.failures_a} / ${c.failures_b}` }),
      ),
    );
  return el('table', { class: 'exp-cells' }, head, ...rows);
}

async function render(): Promise<void> {
  for (const c of charts) c.destroy();
  charts = [];
  clear(main);
  document.body.dataset.state = 'loading';
  let index: ExperimentIndex;
  try {
    index = await loadExperimentIndex();
  } catch (e) {
    main.append(el('p', { class: 'error', text: `${(e as Error).message} No experiment has been published to this history yet?` }));
    document.body.dataset.state = 'error';
    return;
  }
  const open = decodeURIComponent(location.hash.slice(1));
  const figures: FigureSpec[] = [];
  main.append(el('h2', { attrs: { id: 'view-heading', tabindex: '-1' }, text: `Experiments (${index.experiments.length})` }));
  const list = el('ol', { class: 'exp-list' });
  for (const e of index.experiments) {
    const title = e.b ? `${e.b} against ${e.a}` : e.a;
    const item = el(
      'li',
      { attrs: { id: `exp-${e.id}` } },
      el('h3', {}, internalLink(`#${encodeURIComponent(e.id)}`, title)),
      el('p', {
        class: 'exp-meta',
        text: `${e.created_at.slice(0, 10)} · ${e.mode} · ${e.id} · ${e.b ?? ''} faster in ${e.faster}, slower in ${e.slower} of ${e.cells} cells`,
      }),
      el('p', { class: 'exp-summary', text: e.summary }),
    );
    list.append(item);
    if (e.id === open) {
      item.classList.add('open');
      try {
        const s = await loadExperiment(e.id);
        const f = estimateFigure(s);
        figures.push(f);
        item.append(el('h4', { text: f.title }), canvases(f), cellTable(s));
      } catch (err) {
        item.append(el('p', { class: 'error', text: (err as Error).message }));
      }
    }
  }
  main.append(list);
  if (index.trends.length > 0) {
    const t = trendFigure(index);
    figures.push(t);
    main.append(
      el('h2', { attrs: { id: 'trends' }, text: t.title }),
      el('p', {
        class: 'exp-meta',
        text: 'Each point is one experiment’s Hodges–Lehmann shift of the newer release against the older, with its 95 % interval; colour by direction after BH.',
      }),
      canvases(t),
    );
  }
  charts = drawFigures(figures, main);
  window.beeBenchExperiments = { charts };
  document.body.dataset.state = 'ready';
  if (open) document.getElementById(`exp-${open}`)?.scrollIntoView();
}

window.addEventListener('hashchange', () => void render());
void render();
