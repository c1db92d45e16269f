// A small inline SVG trend (no Chart.js instance per cell: the overview has one per case x param x
// runner, and a hundred canvases would cost more than the whole first view is allowed).
import { svg } from './dom.js';

export function sparkline(values: readonly number[], color: string, width = 96, height = 24): SVGSVGElement {
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, class: 'spark', 'aria-hidden': 'true', focusable: 'false' });
  const v = values.filter((x) => Number.isFinite(x));
  if (v.length === 0) return root;
  const min = Math.min(...v);
  const max = Math.max(...v);
  const pad = 3;
  const x = (i: number): number => (v.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (v.length - 1));
  const y = (val: number): number => (max === min ? height / 2 : height - pad - ((val - min) * (height - 2 * pad)) / (max - min));
  if (v.length > 1) {
    const pts = v.map((val, i) => `${x(i).toFixed(1)},${y(val).toFixed(1)}`).join(' ');
    root.appendChild(svg('polyline', { points: pts, fill: 'none', stroke: color, 'stroke-width': 1.5, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }));
  }
  const last = v[v.length - 1]!;
  root.appendChild(svg('circle', { cx: x(v.length - 1).toFixed(1), cy: y(last).toFixed(1), r: 2.5, fill: color }));
  return root;
}
