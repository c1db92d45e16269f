// How long a bar is, in the SVG bars of report.html and the text bars of report.md alike.

/**
 * Bar lengths in [0, 1] for values where lower is better (ratios to the fastest): linear from 0
 * while the spread is within 10x, else logarithmic from half the smallest, so the fastest client
 * keeps a visible bar beside one 1000x slower.
 */
export function barScale(values: readonly number[]): { log: boolean; length: (v: number) => number } {
  const valid = values.filter((v) => Number.isFinite(v) && v > 0);
  const max = Math.max(...valid);
  const min = Math.min(...valid);
  if (!(max / min > 10)) return { log: false, length: (v) => v / max };
  const lo = Math.log(min / 2);
  return { log: true, length: (v) => (Math.log(v) - lo) / (Math.log(max) - lo) };
}
