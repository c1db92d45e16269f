// The report page's script entry (bundled by bundle.ts): reads the figures the page carries as JSON
// and draws them; the charts are left on window.beeBenchExperimentCharts for a look from the console
// (and for the browser test).
import { drawFigures } from './charts.js';
import type { FigureSpec } from './figures.js';

const data = document.getElementById('experiment-figures');
const charts = data?.textContent ? drawFigures(JSON.parse(data.textContent) as FigureSpec[]) : [];
(window as unknown as { beeBenchExperimentCharts: unknown[] }).beeBenchExperimentCharts = charts;
