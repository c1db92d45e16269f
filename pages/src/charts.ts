// Chart.js set-up shared by every chart on the site: only the parts used are registered (keeps
// app.js small), no animation (charts appear at once, and the first-paint figure is honest),
// colours from the CSS custom properties so light and dark follow prefers-color-scheme.
import { Chart, Legend, LinearScale, LineController, LineElement, LogarithmicScale, PointElement, TimeScale, Tooltip, type Plugin } from 'chart.js';
import zoomImport from 'chartjs-plugin-zoom';
import type { Runner } from '../../src/spec/schema.js';
import './date-adapter.js';
import { DECIMATION_PLUGINS } from './decimate.js';

/** performance.mark set once, when the first chart on the page has rendered (bench/site.bench.ts reads it). */
export const FIRST_CHART_MARK = 'bee-bench:first-chart';

const firstChart: Plugin = {
  id: 'beeBenchFirstChart',
  afterRender() {
    if (performance.getEntriesByName(FIRST_CHART_MARK).length === 0) performance.mark(FIRST_CHART_MARK);
  },
};

// The package's types describe a CommonJS module; esbuild bundles its ES module, whose default export is the plugin.
const zoomPlugin = zoomImport as unknown as Plugin;

Chart.register(
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  LogarithmicScale,
  TimeScale,
  Tooltip,
  Legend,
  zoomPlugin,
  ...DECIMATION_PLUGINS,
  firstChart,
);
Chart.defaults.animation = false;
Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily || 'system-ui, sans-serif';

export { Chart };

export interface Theme {
  fg: string;
  muted: string;
  grid: string;
  bg: string;
  runner: Record<Runner, string>;
}

export function theme(): Theme {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  return {
    fg: v('--fg', '#1b1f24'),
    muted: v('--muted', '#57606a'),
    grid: v('--grid', '#d8dee4'),
    bg: v('--bg', '#ffffff'),
    runner: { js: v('--runner-js', '#b08800'), go: v('--runner-go', '#0969da'), rs: v('--runner-rs', '#bc4c00') },
  };
}

/** Per-runner point shape, so runners stay apart without relying on colour alone. */
export const RUNNER_POINT: Record<Runner, 'circle' | 'rect' | 'triangle'> = { js: 'circle', go: 'rect', rs: 'triangle' };

/** Scale and legend colours for the current theme. */
export function applyTheme(t: Theme): void {
  Chart.defaults.color = t.muted;
  Chart.defaults.borderColor = t.grid;
}
