// Words and numbers shared by the experiment report's markdown, CSV and HTML: what a direction is
// called, how a comparison's cell, shift and interval read, so the three formats say the same.
import { cellLabel, seconds, type Comparison } from '../analysis/analyse.js';
import { directionWords } from '../analysis/names.js';

export function directionText(c: Comparison): string {
  return directionWords(c.direction, c.aLabel, c.bLabel);
}

export function shiftText(c: Comparison): string {
  if (!Number.isFinite(c.shift)) return '–';
  return `${signed(c.shift)} (${seconds(c.lo)} to ${seconds(c.hi)})`;
}

export function signed(s: number): string {
  return `${s > 0 ? '+' : ''}${seconds(s)}`;
}

export function relativeText(r: number): string {
  return Number.isFinite(r) ? `${r >= 0 ? '+' : ''}${(r * 100).toFixed(1)} %` : '–';
}

export function pText(p: number): string {
  if (!Number.isFinite(p)) return '–';
  return p < 1e-4 ? p.toExponential(1) : p.toPrecision(2);
}

export function needText(n: number): string {
  if (Number.isNaN(n)) return '–';
  return Number.isFinite(n) ? String(n) : '∞';
}

export { cellLabel, seconds };
