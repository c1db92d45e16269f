// How the experiment's factors and figures are named everywhere they are shown (the report's
// three formats, the summary, the site's experiments page): sizes as the seed writes them
// (1 KB = 1000 bytes), erasure levels with their names, seconds with sensible digits, and a
// cell's direction in words. No dependencies, so the site's bundle can take it as it is.

export const LEVEL_NAMES = ['NONE', 'MEDIUM', 'STRONG', 'INSANE', 'PARANOID'] as const;

export function levelName(level: number): string {
  return `${level} ${LEVEL_NAMES[level] ?? ''}`.trim();
}

/** Bytes as the seed names sizes: 1 KB = 1000 bytes. */
export function sizeLabel(bytes: number): string {
  for (const [unit, f] of [
    ['GB', 1e9],
    ['MB', 1e6],
    ['KB', 1e3],
  ] as const)
    if (bytes >= f && bytes % (f / 10) === 0) return `${+(bytes / f).toFixed(1)} ${unit}`;
  return `${bytes} B`;
}

/** Seconds with sensible digits: 12.3 µs, 1.23 ms, 1.23 s, 123 s; "–" for no value. */
export function seconds(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return '–';
  const a = Math.abs(s);
  if (a === 0) return '0 s';
  if (a < 0.001) return `${(s * 1e6).toPrecision(3)} µs`;
  if (a < 1) return `${(s * 1000).toPrecision(3)} ms`;
  return `${s.toPrecision(3)} s`;
}

/** A cell's direction in words, B set against A. */
export function directionWords(direction: 'a-faster' | 'b-faster' | 'unclear', a: string, b: string): string {
  if (direction === 'b-faster') return `${b} faster`;
  if (direction === 'a-faster') return `${a} faster`;
  return 'no clear difference';
}

/** Colours of the figures, as the seed's: the older release blue, the newer yellow, no clear difference grey. */
export const ARM_COLORS = ['#3b6fb6', '#e0a400', '#3c9a5f', '#b04a8f'] as const;
export const DIRECTION_COLORS = { 'a-faster': ARM_COLORS[0], 'b-faster': ARM_COLORS[1], unclear: '#9a9a9a' } as const;
