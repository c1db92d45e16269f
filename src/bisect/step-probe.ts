// The step comparator bisect uses by default: one A/B (the same pipeline as `bee-bench ab`,
// src/ab/run.ts) of the good ref against the candidate commit. The engine's judge decides
// whether the change exceeds the threshold. Every engine option (rounds, cases, measure) passes
// through AbStepOptions to abPipeline untouched. Instruction counts are preferred where callgrind is
// there (deterministic, so a step needs no rounds); wall time otherwise.
import { join } from 'node:path';
import { findCounter } from '../count/callgrind.js';
import { measuresInstructions, type Measure } from '../spec/measure.js';
import { wallOf, type AbRow } from '../verdict/index.js';
import { abPipeline, type AbPipelineOptions } from '../ab/run.js';
import type { Probe } from './search.js';
import type { Commit } from './walk.js';

export interface Checkout {
  commit: Commit;
  path: string;
}

/** Measures a candidate checkout against the good one; `step` numbers the output folder. */
export type StepComparator = (good: Checkout, candidate: Checkout, step: number) => Promise<Probe>;

export type AbStepOptions = Omit<AbPipelineOptions, 'base' | 'head' | 'baseLabel' | 'headLabel' | 'marker' | 'trendUrl' | 'crossClient'>;

export const MEASURE_TEXT = { wall: 'wall time, paired rounds', instructions: 'instruction counts under callgrind' } as const;

/** What a step measures: instruction counts unless wall time was asked for or callgrind is missing. */
export async function bisectMeasure(requested: Measure | undefined, log: (line: string) => void): Promise<'wall' | 'instructions'> {
  if (requested && !measuresInstructions(requested)) return 'wall';
  const found = await findCounter();
  if (found.counter) return 'instructions';
  log(`bisect: steps measure wall time: ${found.reason}`);
  return 'wall';
}

/** A row's figure: its instruction-count verdict when it has one, else its wall-time verdict. */
function figureOf(r: AbRow): { ratio?: number; ci?: [number, number]; verdict?: string } {
  const counts = r.evidence.instructions?.judged;
  if (counts) return { ratio: counts.ratio, verdict: counts.verdict };
  const w = wallOf(r);
  return w ? { ratio: w.ratio, ...(w.ci ? { ci: w.ci } : {}), verdict: w.verdict } : {};
}

/** A step's probe from the judged rows: the slowest regressed row, else the slowest compared row. */
export function probeOf(rows: readonly AbRow[], sha: string): Probe {
  const compared = rows.filter((r) => r.status === 'ok' && figureOf(r).ratio !== undefined).map((r) => ({ r, f: figureOf(r) }));
  if (compared.length === 0) {
    const why = rows.map((r) => `${r.caseId} [${r.label}]: ${r.note ?? r.evidence.instructions?.note ?? r.status}`).join('; ') || 'no rows';
    throw new Error(`bisect: the step at ${sha.slice(0, 12)} compared nothing (${why}); pick a case both commits can run`);
  }
  const regressed = compared.filter((c) => c.f.verdict === 'regression');
  const pick = (regressed.length ? regressed : compared).reduce((a, b) => (b.f.ratio! > a.f.ratio! ? b : a));
  return {
    ratio: pick.f.ratio!,
    ...(pick.f.ci ? { ci: pick.f.ci } : {}),
    exceeds: regressed.length > 0,
    verdict: pick.f.verdict ?? '~',
    row: { caseId: pick.r.caseId, label: pick.r.label },
    ...(compared.length > 1 ? { note: `${pick.r.caseId} [${pick.r.label}], slowest of ${compared.length} rows` } : {}),
  };
}

/** The output folder of step number `step` (1-based, in the order measured) of a candidate commit. */
export const stepDir = (outDir: string, step: number, sha: string) => join(outDir, `step-${String(step).padStart(2, '0')}-${sha.slice(0, 12)}`);

export function abStepComparator(o: AbStepOptions): StepComparator {
  return async (good, candidate, step) => {
    const out = await abPipeline({
      ...o,
      outDir: stepDir(o.outDir, step, candidate.commit.sha),
      base: { kind: 'path', path: good.path },
      head: { kind: 'path', path: candidate.path },
      baseLabel: good.commit.sha.slice(0, 12),
      headLabel: candidate.commit.sha.slice(0, 12),
    });
    return probeOf(out.report.input.rows, candidate.commit.sha);
  };
}
