// Text charts for markdown read on GitHub (report.md, the job summary): GitHub's sanitiser strips
// inline SVG from rendered markdown, so these draw with Unicode block characters, which survive
// any renderer. The HTML report keeps its SVG (svg.ts). Pure functions of the numbers.
import { barScale } from './bar-scale.js';

const LEVELS = '▁▂▃▄▅▆▇█';
/** Left-aligned eighths of a cell: index k draws k/8 of a full block. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/**
 * One block character per sample, lowest sample ▁ and highest █; longer series are averaged into
 * `maxWidth` buckets so the shape stays readable. Empty for fewer than two samples.
 */
export function textSparkline(samples: readonly number[], maxWidth = 30): string {
  if (samples.length < 2) return '';
  const width = Math.min(samples.length, maxWidth);
  const points = Array.from({ length: width }, (_, i) => {
    const from = Math.floor((i * samples.length) / width);
    const to = Math.floor(((i + 1) * samples.length) / width);
    const bucket = samples.slice(from, to);
    return bucket.reduce((a, b) => a + b, 0) / bucket.length;
  });
  const lo = Math.min(...points);
  const range = Math.max(...points) - lo;
  return points.map((v) => LEVELS[range > 0 ? Math.round(((v - lo) / range) * (LEVELS.length - 1)) : 0]).join('');
}

/**
 * One line per item: its label, a bar of up to `width` cells (eighths of a cell) and its figure.
 * Values are ratios to the fastest (lower is better): the scale is linear while they are within 10x
 * of each other and logarithmic beyond (barScale), so the fastest keeps a visible bar; it is
 * marked fastest, a missing value is —. Empty when no item has a value.
 */
export function textBars(items: ReadonlyArray<{ label: string; value: number | null; text?: string }>, width = 12): string[] {
  const valid = items.map((b) => b.value).filter((v): v is number => v != null && Number.isFinite(v) && v > 0);
  if (valid.length === 0) return [];
  const scale = barScale(valid);
  const min = Math.min(...valid);
  return items.map((b) => {
    if (b.value == null || !Number.isFinite(b.value) || b.value <= 0) return `${b.label} —`;
    const eighths = Math.max(1, Math.round(scale.length(b.value) * width * 8));
    const bar = '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
    return `${b.label} ${bar}${b.text ? ` ${b.text}` : ''}${b.value === min && valid.length > 1 ? ' fastest' : ''}`;
  });
}
