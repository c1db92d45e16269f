// Tiny inline SVGs for the HTML report (markdown draws with text, text-charts.ts): a per-iteration
// sparkline (JIT warmup, GC pauses and network jitter show up as shape) and per-row bars (fastest
// green). Output is a pure function of the numbers, coordinates rounded to 0.1 px so the report
// text is deterministic.
import type { Runner } from '../spec/schema.js';

export const RUNNER_COLORS: Readonly<Record<Runner, string>> = { js: '#d4a500', go: '#00add8', rs: '#b7410e' };
export const FASTEST_COLOR = '#22c55e';
const MISSING_COLOR = '#cbd5e1';

/** A 60x14 polyline of the samples in order; empty for fewer than two samples. */
export function sparkline(samples: readonly number[], color: string, width = 60, height = 14): string {
  if (samples.length < 2) return '';
  const pad = 1;
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of samples) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const range = hi - lo || 1;
  const step = (width - 2 * pad) / (samples.length - 1);
  const points = samples
    .map((v, i) => `${(pad + i * step).toFixed(1)},${(height - pad - ((v - lo) / range) * (height - 2 * pad)).toFixed(1)}`)
    .join(' ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" style="vertical-align:middle"><polyline points="${points}" fill="none" stroke="${color}" stroke-width="1"/></svg>`;
}

export interface Bar {
  runner: Runner;
  /** Lower is better; null draws an empty slot (skipped, failed or absent). */
  value: number | null;
}

/** Horizontal bars, one per runner, scaled to the slowest; the fastest is green. */
export function bars(items: readonly Bar[], width = 140): string {
  const valid = items.map((b) => b.value).filter((v): v is number => v != null && Number.isFinite(v) && v > 0);
  if (valid.length === 0) return '';
  const max = Math.max(...valid);
  const min = Math.min(...valid);
  const barH = 8;
  const gap = 2;
  const rects = items.map((b, i) => {
    const y = i * (barH + gap);
    if (b.value == null || !Number.isFinite(b.value) || b.value <= 0) {
      return `<rect x="0" y="${y}" width="2" height="${barH}" fill="${MISSING_COLOR}"/>`;
    }
    const len = Math.max(2, Math.round((b.value / max) * width));
    const fill = b.value === min && valid.length > 1 ? FASTEST_COLOR : RUNNER_COLORS[b.runner];
    return `<rect x="0" y="${y}" width="${len}" height="${barH}" fill="${fill}"/>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${items.length * (barH + gap)}">${rects.join('')}</svg>`;
}
