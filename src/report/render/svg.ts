// Tiny inline SVGs for the HTML report (markdown draws with text, text-charts.ts): a per-iteration
// sparkline (JIT warmup, GC pauses and network jitter show up as shape) and per-row bars (labelled,
// in the charts' colours). Output is a pure function of the numbers, coordinates rounded to 0.1 px so the report
// text is deterministic.
import type { Runner } from '../../spec/schema.js';
import { barScale } from './bar-scale.js';
import { RUNNER_LABEL } from '../model/types.js';

export const RUNNER_COLORS: Readonly<Record<Runner, string>> = { js: '#d4a500', go: '#00add8', rs: '#b7410e' };
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
  const points = samples.map((v, i) => `${(pad + i * step).toFixed(1)},${(height - pad - ((v - lo) / range) * (height - 2 * pad)).toFixed(1)}`).join(' ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" style="vertical-align:middle"><polyline points="${points}" fill="none" stroke="${color}" stroke-width="1"/></svg>`;
}

export interface Bar {
  runner: Runner;
  /** Ratio to the fastest (lower is better); null draws an empty slot (skipped, failed or absent). */
  value: number | null;
  /** The figure written beside the bar (escaped by the caller: units.ts output only). */
  text?: string;
}

/**
 * Labelled horizontal bars, one per runner in the runner's chart colour: runner name, bar, figure.
 * Linear within 10x, logarithmic beyond (barScale), like the charts, so every client shows.
 */
export function bars(items: readonly Bar[], width = 90): string {
  const valid = items.map((b) => b.value).filter((v): v is number => v != null && Number.isFinite(v) && v > 0);
  if (valid.length === 0) return '';
  const scale = barScale(valid);
  const barH = 10;
  const gap = 3;
  const nameW = 42;
  const textW = 110;
  const rows = items.map((b, i) => {
    const y = i * (barH + gap);
    const name = `<text x="0" y="${y + barH - 1}" font-size="10" fill="#475569">${RUNNER_LABEL[b.runner]}</text>`;
    if (b.value == null || !Number.isFinite(b.value) || b.value <= 0) {
      return `${name}<rect x="${nameW}" y="${y}" width="2" height="${barH}" fill="${MISSING_COLOR}"/><text x="${nameW + 6}" y="${y + barH - 1}" font-size="10" fill="#64748b">—</text>`;
    }
    const len = Math.max(2, Math.round(scale.length(b.value) * width));
    return `${name}<rect x="${nameW}" y="${y}" width="${len}" height="${barH}" fill="${RUNNER_COLORS[b.runner]}"/><text x="${nameW + len + 4}" y="${y + barH - 1}" font-size="10" fill="#1e293b">${b.text ?? ''}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${nameW + width + textW}" height="${items.length * (barH + gap)}"${scale.log ? ' data-scale="log"' : ''}>${rows.join('')}</svg>`;
}
