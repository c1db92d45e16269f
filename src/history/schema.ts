// The history store on gh-pages (DESIGN.md section 3): immutable run records under runs/, and
// the files derived from them that the trend site (pages/) loads. zod validates records on read;
// the derived shapes are the contract between src/history (writer) and pages/ (reader).
import { z } from 'zod';
import { ClientSchema, HostSchema, KindSchema, ProfileSchema, RunnerSchema } from '../spec/schema.js';

export const RECORD_SCHEMA_ID = 'bee-bench/history-record@1';

export const RecordCaseSchema = z.object({
  id: z.string().min(1),
  kind: KindSchema,
  /** The param's label: with `id` and `runner`, names a series. */
  label: z.string(),
  param: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  status: z.enum(['ok', 'skipped', 'failed']),
  reason: z.string().optional(),
  n: z.number().int().nonnegative(),
  median_ns: z.number().nonnegative().nullable(),
  min_ns: z.number().nonnegative().nullable(),
  max_ns: z.number().nonnegative().nullable(),
  mad_ns: z.number().nonnegative().nullable(),
  samples_ns: z.array(z.number().nonnegative()),
  work: z.object({ ops: z.number().optional(), bytes: z.number().optional() }),
  peak_rss_bytes: z.number().int().nonnegative().nullable(),
  digest: z.string().optional(),
});
export type RecordCase = z.infer<typeof RecordCaseSchema>;

/** One immutable record per (run, runner): runs/YYYY/MM/<timestamp>-<sha7>-<runner>-<run_id>.json */
export const HistoryRecordSchema = z.object({
  schema: z.literal(RECORD_SCHEMA_ID),
  commit: z.object({
    sha: z.string().regex(/^[0-9a-f]{7,64}$/),
    message: z.string(),
    author: z.string(),
    timestamp: z.iso.datetime({ offset: true }),
    url: z.string().optional(),
  }),
  branch: z.string().min(1),
  event: z.string().min(1),
  run: z.object({ id: z.string().min(1), attempt: z.number().int().positive().optional(), url: z.string().optional() }),
  runner: RunnerSchema,
  client: ClientSchema,
  host: HostSchema,
  bee: z.object({ url: z.string(), version: z.string() }).nullable(),
  spec: z.object({ hash: z.string(), profile: ProfileSchema }),
  started_at: z.iso.datetime({ offset: true }),
  finished_at: z.iso.datetime({ offset: true }).nullable(),
  cases: z.array(RecordCaseSchema),
});
export type HistoryRecord = z.infer<typeof HistoryRecordSchema>;

// ---- Derived files (pure function of runs/; regenerated on every write) ----

/** One point of a series: one record's figure for (case, label, runner). */
export interface SeriesPoint {
  /** Record file, relative to the history folder: the point's identity. */
  record: string;
  branch: string;
  sha: string;
  message: string;
  author: string;
  /** Commit time (ISO); the x axis. */
  timestamp: string;
  url?: string;
  run_id: string;
  client_version: string;
  median_ns: number;
  min_ns: number;
  max_ns: number;
  n: number;
  /** Work per iteration, for per-op and MB/s axes. */
  ops?: number;
  bytes?: number;
  /** Set when this point starts a significant shift against the points before it (same branch). */
  shift?: { ratio: number; p: number };
}

export interface Series {
  runner: z.infer<typeof RunnerSchema>;
  label: string;
  points: SeriesPoint[];
}

/** series/<case-id>.json: every series of one case, loaded on demand by the case view. */
export interface CaseSeriesFile {
  schema: 'bee-bench/history-series@1';
  case: string;
  series: Series[];
}

export interface IndexSeries {
  runner: z.infer<typeof RunnerSchema>;
  label: string;
  points: number;
  /** Per branch: the latest point, its change against the previous one, and a small trend. */
  latest: Record<string, { median_ns: number; sha: string; timestamp: string; change: number | null; trend: number[]; ops?: number; bytes?: number }>;
}

export interface IndexCase {
  id: string;
  kind: 'cpu' | 'net';
  group: string;
  doc: string;
  /** Relative path of the case's series file. */
  file: string;
  series: IndexSeries[];
}

/** Cross-client scoreboard per run: geomean of per-op time ratio to the fastest runner. */
export interface ScoreboardEntry {
  run_id: string;
  branch: string;
  timestamp: string;
  sha: string;
  geomean: Partial<Record<z.infer<typeof RunnerSchema>, number>>;
  wins: Partial<Record<z.infer<typeof RunnerSchema>, number>>;
  rows: number;
}

/** index.json: all the first view needs, and nothing more (series load lazily). */
export interface HistoryIndex {
  schema: 'bee-bench/history-index@1';
  generated_from: number;
  branches: string[];
  runners: Array<z.infer<typeof RunnerSchema>>;
  groups: Array<{ id: string; title: string }>;
  cases: IndexCase[];
  scoreboard: ScoreboardEntry[];
  /** Records that failed validation: reported by file and field, excluded from everything else. */
  invalid: Array<{ file: string; problem: string }>;
}
