// The step comparator bisect uses by default: one paired A/B (the same engine as `bee-bench ab`,
// src/run/jobs.ts) of the good ref against the candidate commit. The engine's judge decides
// whether the change exceeds the threshold. Any engine option (rounds, cases, and a measure such
// as instruction counts once the engine has one) passes through AbStepOptions to abJob untouched.
import { join } from 'node:path';
import type { AbRow } from '../verdict/index.js';
import { abJob, type AbJobOptions } from '../run/jobs.js';
import type { Probe } from './search.js';
import type { Commit } from './walk.js';

export interface Checkout {
  commit: Commit;
  path: string;
}

/** Measures a candidate checkout against the good one; `step` numbers the output folder. */
export type StepComparator = (good: Checkout, candidate: Checkout, step: number) => Promise<Probe>;

export type AbStepOptions = Omit<AbJobOptions, 'base' | 'head' | 'baseLabel' | 'headLabel' | 'marker' | 'trendUrl' | 'crossClient'>;

/** A step's probe from the judged rows: the slowest regressed row, else the slowest compared row. */
export function probeOf(rows: readonly AbRow[], sha: string): Probe {
  const compared = rows.filter((r) => r.status === 'ok' && r.ratio !== undefined);
  if (compared.length === 0) {
    const why = rows.map((r) => `${r.caseId} [${r.label}]: ${r.note ?? r.status}`).join('; ') || 'no rows';
    throw new Error(`bisect: the step at ${sha.slice(0, 12)} compared nothing (${why}); pick a case both commits can run`);
  }
  const regressed = compared.filter((r) => r.verdict === 'regression');
  const pick = (regressed.length ? regressed : compared).reduce((a, b) => (b.ratio! > a.ratio! ? b : a));
  return {
    ratio: pick.ratio!,
    ...(pick.ci ? { ci: pick.ci } : {}),
    exceeds: regressed.length > 0,
    verdict: pick.verdict ?? '~',
    ...(compared.length > 1 ? { note: `${pick.caseId} [${pick.label}], slowest of ${compared.length} rows` } : {}),
  };
}

export function abStepComparator(o: AbStepOptions): StepComparator {
  return async (good, candidate, step) => {
    const out = await abJob({
      ...o,
      outDir: join(o.outDir, `step-${String(step).padStart(2, '0')}-${candidate.commit.sha.slice(0, 12)}`),
      base: { kind: 'path', path: good.path },
      head: { kind: 'path', path: candidate.path },
      baseLabel: good.commit.sha.slice(0, 12),
      headLabel: candidate.commit.sha.slice(0, 12),
    });
    return probeOf(out.rows, candidate.commit.sha);
  };
}
