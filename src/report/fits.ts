// The latency-vs-size fit table, the same cells in markdown and HTML (only the runner label is
// escaped per format).
import { RUNNER_LABEL, type Fit } from './model.js';
import { formatDuration, formatThroughput } from './units.js';

export const FIT_HEADERS = ['Runner', 'fixed overhead', 'peak throughput', 'r²', 'points'] as const;

/** One row per fit; `text` escapes the runner label for the output format. */
export function fitRows(fits: readonly Fit[], text: (s: string) => string): string[][] {
  return fits.map((f) => [
    text(RUNNER_LABEL[f.runner]),
    formatDuration(f.overheadNs),
    formatThroughput(f.bytesPerNs),
    Number.isFinite(f.r2) ? f.r2.toFixed(3) : '—',
    String(f.points),
  ]);
}
