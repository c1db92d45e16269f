// Release experiments in the history branch, beside the benchmark records: each experiment's
// summary (bee-bench/experiment-summary@1: its arms, its one-paragraph summary and the pooled
// per-cell comparisons) is one immutable file experiments/<id>.json, and experiments/index.json
// is derived from those files on every write (the list, newest first, and per cell the trend over
// the experiments that measured it). The site's experiments page reads only these files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { stableJsonPretty } from './json.js';

export const EXPERIMENTS_DIR = 'experiments';
export const EXPERIMENT_INDEX_FILE = 'index.json';
export const EXPERIMENT_SUMMARY_SCHEMA = 'bee-bench/experiment-summary@1';
export const EXPERIMENT_INDEX_SCHEMA = 'bee-bench/experiment-index@1';

/** Numbers that may be undefined in the analysis (too few values) are null here. */
const num = z.number().nullable();

export const ExperimentCellSchema = z.object({
  family: z.enum(['download', 'upload', 'strategy']),
  size: z.number().int().min(1),
  level: z.number().int().min(0).max(4),
  strategy: z.string(),
  /** Strategy family: the arm within which RACE is set against DATA. */
  arm: z.string().optional(),
  a: z.string(),
  b: z.string(),
  n_a: z.number().int().min(0),
  n_b: z.number().int().min(0),
  median_a_s: num,
  median_b_s: num,
  shift_s: num,
  lo_s: num,
  hi_s: num,
  relative: num,
  p: num,
  q: num,
  direction: z.enum(['a-faster', 'b-faster', 'unclear']),
  failures_a: z.number().int().min(0),
  failures_b: z.number().int().min(0),
  replicates_needed: num,
});
export type ExperimentCell = z.infer<typeof ExperimentCellSchema>;

export const ExperimentArmSchema = z.object({
  label: z.string(),
  release: z.string(),
  run_id: z.string(),
  nodes: z.array(z.string()),
  client: z.string(),
  runner: z.string(),
});

/** A safe file name: letters, digits, ".", "_", "-" (run ids are made of these). */
export const ExperimentIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/, 'an experiment id is letters, digits, . _ - (at most 200)');

export const ExperimentSummarySchema = z.object({
  schema: z.literal(EXPERIMENT_SUMMARY_SCHEMA),
  id: ExperimentIdSchema,
  created_at: z.string().min(1),
  mode: z.enum(['side-by-side', 'compare', 'a/a', 'single']),
  arms: z.array(ExperimentArmSchema).min(1),
  alpha: z.number(),
  power_shift: z.number(),
  summary: z.string(),
  totals: z.object({ units: z.number().int(), downloads: z.number().int(), failed_units: z.number().int(), failed_attempts: z.number().int() }),
  sync_ceilings: z.number().int().min(0),
  cells: z.array(ExperimentCellSchema),
});
export type ExperimentSummary = z.infer<typeof ExperimentSummarySchema>;

export interface ExperimentIndexEntry {
  id: string;
  created_at: string;
  mode: ExperimentSummary['mode'];
  a: string;
  b: string | null;
  summary: string;
  faster: number;
  slower: number;
  cells: number;
}

export interface TrendPoint {
  id: string;
  created_at: string;
  a: string;
  b: string;
  median_a_s: number | null;
  median_b_s: number | null;
  shift_s: number | null;
  lo_s: number | null;
  hi_s: number | null;
  direction: ExperimentCell['direction'];
}

export interface ExperimentIndex {
  schema: typeof EXPERIMENT_INDEX_SCHEMA;
  /** Newest first. */
  experiments: ExperimentIndexEntry[];
  /** Download cells (pooled) measured by two or more experiments, oldest point first. */
  trends: { size: number; level: number; strategy: string; points: TrendPoint[] }[];
  /** Files under experiments/ that are not a valid summary: reported, left untouched, left out. */
  invalid: { file: string; problem: string }[];
}

export function experimentPath(id: string): string {
  return `${EXPERIMENTS_DIR}/${ExperimentIdSchema.parse(id)}.json`;
}

export function serializeExperiment(s: ExperimentSummary): string {
  return stableJsonPretty(ExperimentSummarySchema.parse(s));
}

/** Every experiments/<id>.json under the history folder, validated; bad files reported, not thrown. */
export function readExperiments(folderAbs: string): { summaries: ExperimentSummary[]; invalid: ExperimentIndex['invalid'] } {
  const dir = join(folderAbs, EXPERIMENTS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && n !== EXPERIMENT_INDEX_FILE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { summaries: [], invalid: [] };
    throw e;
  }
  const summaries: ExperimentSummary[] = [];
  const invalid: ExperimentIndex['invalid'] = [];
  for (const name of names.sort()) {
    const file = `${EXPERIMENTS_DIR}/${name}`;
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch (e) {
      invalid.push({ file, problem: `not JSON: ${(e as Error).message}` });
      continue;
    }
    const r = ExperimentSummarySchema.safeParse(json);
    if (!r.success) {
      const i = r.error.issues[0];
      invalid.push({ file, problem: `${i?.path.join('.') || 'file'}: ${i?.message ?? 'invalid'}` });
    } else if (`${r.data.id}.json` !== name) invalid.push({ file, problem: `id "${r.data.id}" does not match the file name` });
    else summaries.push(r.data);
  }
  return { summaries, invalid };
}

/** experiments/index.json from the summaries (pure; the same files always give the same bytes). */
export function deriveExperimentIndex(summaries: readonly ExperimentSummary[], invalid: ExperimentIndex['invalid'] = []): string {
  const sorted = [...summaries].sort((x, y) => (x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : x.id < y.id ? -1 : 1));
  const experiments = sorted
    .map((s) => {
      const cells = s.cells.filter((c) => c.family === 'download');
      return {
        id: s.id,
        created_at: s.created_at,
        mode: s.mode,
        a: s.arms[0]!.label,
        b: s.arms[1]?.label ?? null,
        summary: s.summary,
        faster: cells.filter((c) => c.direction === 'b-faster').length,
        slower: cells.filter((c) => c.direction === 'a-faster').length,
        cells: cells.length,
      };
    })
    .reverse();
  const byCell = new Map<string, ExperimentIndex['trends'][number]>();
  for (const s of sorted)
    for (const c of s.cells) {
      if (c.family !== 'download') continue;
      const k = `${c.size}|${c.level}|${c.strategy}`;
      const t = byCell.get(k) ?? byCell.set(k, { size: c.size, level: c.level, strategy: c.strategy, points: [] }).get(k)!;
      t.points.push({
        id: s.id,
        created_at: s.created_at,
        a: c.a,
        b: c.b,
        median_a_s: c.median_a_s,
        median_b_s: c.median_b_s,
        shift_s: c.shift_s,
        lo_s: c.lo_s,
        hi_s: c.hi_s,
        direction: c.direction,
      });
    }
  const trends = [...byCell.values()]
    .filter((t) => t.points.length >= 2)
    .sort((x, y) => x.size - y.size || x.level - y.level || x.strategy.localeCompare(y.strategy));
  const index: ExperimentIndex = { schema: EXPERIMENT_INDEX_SCHEMA, experiments, trends, invalid };
  return stableJsonPretty(index);
}
