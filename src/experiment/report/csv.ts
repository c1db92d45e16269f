// The experiment report's CSV files, numbers unformatted (seconds, fractions) for spreadsheets and R:
// experiment-report.csv has one row per compared cell of every family and scope;
// experiment-samples.csv one row per measured time (a unit's download or upload) with its z-score,
// to redo any figure or test elsewhere.
import { csvField } from '../../report/escape.js';
import type { Analysis } from '../analysis/analyse.js';
import { directionWords } from '../analysis/names.js';

const COLUMNS = [
  'family',
  'scope',
  'arm',
  'size_bytes',
  'level',
  'strategy',
  'a',
  'b',
  'n_a',
  'n_b',
  'median_a_s',
  'median_b_s',
  'shift_s',
  'lo_s',
  'hi_s',
  'conf_level',
  'relative',
  'p',
  'q',
  'direction',
  'failures_a',
  'failures_b',
  'failed_attempts_a',
  'failed_attempts_b',
  'replicates_needed',
] as const;

// Numbers stay numbers (csvField quotes text that looks like a formula, a leading minus included).
const num = (v: number): number | string => (Number.isFinite(v) ? v : Number.isNaN(v) ? '' : v > 0 ? 'Inf' : '-Inf');

export function experimentCsv(a: Analysis): string {
  const lines = [COLUMNS.join(',')];
  for (const c of a.comparisons) {
    const direction = c.direction === 'unclear' ? 'unclear' : directionWords(c.direction, c.aLabel, c.bLabel);
    lines.push(
      [
        c.family,
        c.scope,
        c.arm ?? '',
        c.size,
        c.level,
        c.strategy,
        c.aLabel,
        c.bLabel,
        c.a.n,
        c.b.n,
        num(c.a.median),
        num(c.b.median),
        num(c.shift),
        num(c.lo),
        num(c.hi),
        num(c.confLevel),
        num(c.relative),
        num(c.p),
        num(c.q),
        direction,
        c.a.failures,
        c.b.failures,
        c.a.failedAttempts,
        c.b.failedAttempts,
        num(c.replicatesNeeded),
      ]
        .map((v) => csvField(v))
        .join(','),
    );
  }
  return lines.join('\n') + '\n';
}

export function experimentSamplesCsv(a: Analysis): string {
  const lines = ['kind,arm,node,server,size_bytes,level,strategy,seconds,z'];
  for (const g of a.samples)
    g.values.forEach((v, i) => {
      lines.push([g.kind, g.arm, g.node, g.server, g.size, g.level, g.strategy, v, num(g.z[i] ?? NaN)].map((x) => csvField(x)).join(','));
    });
  return lines.join('\n') + '\n';
}
