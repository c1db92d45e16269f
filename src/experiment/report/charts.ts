// Browser code: draws the experiment report's figures (FigureSpec from figures.ts) with Chart.js,
// chartjs-chart-boxplot (distributions with their points) and chartjs-chart-error-bars (estimates
// with intervals). Bundled by esbuild into the report page (bundle.ts) and imported by the site's
// experiments page; nothing is loaded from a CDN. Every canvas is found by the panel id.
import { BoxAndWiskers, BoxPlotController } from '@sgratzl/chartjs-chart-boxplot';
import { Chart, registerables, type ChartConfiguration } from 'chart.js';
import { LineWithErrorBarsController, PointWithErrorBar } from 'chartjs-chart-error-bars';
import type { FigureSpec, PanelSpec } from './figures.js';

let registered = false;
function register(): void {
  if (registered) return;
  Chart.register(...registerables, BoxPlotController, BoxAndWiskers, LineWithErrorBarsController, PointWithErrorBar);
  registered = true;
}

/** Tick label of a log axis: 1-2-5 steps only, in the axis unit. */
function logTick(value: number | string): string {
  const v = Number(value);
  const lead = v / 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5].some((d) => Math.abs(lead - d) < 1e-9) ? String(+v.toPrecision(3)) : '';
}

function config(p: PanelSpec): ChartConfiguration {
  const scales = {
    x: { title: { display: true, text: p.xTitle } },
    y: {
      type: p.logY ? ('logarithmic' as const) : ('linear' as const),
      title: { display: true, text: p.yTitle },
      ...(p.logY ? { ticks: { callback: logTick } } : {}),
    },
  };
  const plugins = { title: { display: true, text: p.title }, legend: { display: true, position: 'bottom' as const } };
  if (p.kind === 'box') {
    return {
      type: 'boxplot',
      data: {
        labels: p.labels,
        datasets: p.datasets.map((d) => ({
          label: d.label,
          data: d.data as number[][],
          backgroundColor: `${d.color}55`,
          borderColor: d.color,
          borderWidth: 1,
          itemRadius: 2,
          itemStyle: 'circle',
          itemBackgroundColor: `${d.color}aa`,
          outlierRadius: 0,
        })),
      },
      options: { animation: false, responsive: true, maintainAspectRatio: false, plugins, scales },
    } as unknown as ChartConfiguration;
  }
  return {
    type: 'lineWithErrorBars',
    data: {
      labels: p.labels,
      datasets: p.datasets.map((d) => ({
        label: d.label,
        data: d.data,
        showLine: false,
        borderWidth: 0,
        pointBorderWidth: 1,
        pointBorderColor: d.color,
        borderColor: d.color,
        backgroundColor: d.color,
        errorBarColor: d.color,
        errorBarWhiskerColor: d.color,
        errorBarLineWidth: 2,
        pointRadius: 4,
      })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins,
      // The zero line (no change) is always in view and drawn darker.
      scales: {
        x: { ...scales.x, offset: true },
        y: { ...scales.y, beginAtZero: true, grid: { color: (c: { tick?: { value: number } }) => (c.tick?.value === 0 ? '#555' : '#e5e5e5') } },
      },
    },
  } as unknown as ChartConfiguration;
}

/** Draws every panel of the figures into the canvases whose id is `chart-<panel id>`; returns the charts. */
export function drawFigures(figures: readonly FigureSpec[], root: ParentNode = document): Chart[] {
  register();
  const charts: Chart[] = [];
  for (const f of figures)
    for (const p of f.panels) {
      const canvas = root.querySelector<HTMLCanvasElement>(`#chart-${CSS.escape(p.id)}`);
      if (canvas) charts.push(new Chart(canvas, config(p)));
    }
  return charts;
}
