// The wall-time rule (docs/design.md, "Statistics and verdicts"): Benjamini–Hochberg across every
// compared row of one report, then per row a q below alpha and a change beyond the threshold.
// The statistics (p, ratio, minP) come from src/stats; only the decision is made here.
import { benjaminiHochberg, minRounds, type Comparison, type DesignName } from '../stats/index.js';
import type { Verdict } from './change.js';

export interface WallOptions {
  /** FDR level for BH q-values, e.g. 0.05. */
  alpha: number;
  /** Smallest relative change worth reporting, e.g. 0.05 for 5%. */
  threshold: number;
}

/** regression when q < alpha and ratio > 1 + threshold; improvement when q < alpha and ratio < 1 / (1 + threshold). */
export function wallVerdict(q: number, ratio: number, o: WallOptions): Verdict {
  const up = 1 + o.threshold;
  if (q < o.alpha && ratio > up) return 'regression';
  if (q < o.alpha && ratio < 1 / up) return 'improvement';
  return '~';
}

export type WallJudged<T> = T & {
  q: number;
  verdict: Verdict;
  /**
   * Why the verdict says nothing: "no difference" when every difference is zero, "too few rounds
   * to judge (needs ≥ N)" (or samples, history design) when no data could reach q < alpha.
   */
  note?: string;
};

type Compared = Pick<Comparison, 'p' | 'ratio' | 'minP'> & { design?: DesignName; identical?: boolean };

/** BH across all rows of one report, then wallVerdict per row. Extra fields of each row are kept. */
export function judgeWall<T extends Compared>(rows: readonly T[], o: WallOptions): WallJudged<T>[] {
  const q = benjaminiHochberg(rows.map((r) => r.p));
  return rows.map((row, i) => {
    const qi = q[i]!;
    const out: WallJudged<T> = { ...row, q: qi, verdict: wallVerdict(qi, row.ratio, o) };
    // q >= p >= minP, so a row whose best case misses alpha is structurally blind.
    if (row.identical) out.note = 'no difference';
    else if (row.minP >= o.alpha) {
      out.note = row.design === 'unpaired-history' ? 'too few samples to judge' : `too few rounds to judge (needs ≥ ${minRounds(o.alpha)})`;
    }
    return out;
  });
}
