// The history store on gh-pages (docs/design.md, "History store"): immutable run records under runs/, and
// the files derived from them that the trend site (pages/) loads. zod validates records on read;
// the derived shapes are the contract between src/history (writer) and pages/ (reader).
import { z } from 'zod';
import type { CountStep } from './count-steps.js';
import { ClientSchema, CounterSchema, HostSchema, KindSchema, RunSizeSchema, RunnerSchema, TEXT_CAPS, capped } from '../spec/schema.js';

/** Record text is capped as result text is (TEXT_CAPS); a commit message as git keeps one, a URL as a browser takes one. */
const text = capped;
export const COMMIT_MESSAGE_MAX = 65_536;

/** Records without instruction counts (read, never written any more). */
export const RECORD_SCHEMA_V1 = 'bee-bench/history-record@1';
/** @2 adds each counted case's instructions and the record's counter. */
export const RECORD_SCHEMA_ID = 'bee-bench/history-record@2';
/** Every record version this bee-bench reads, oldest first. */
export const RECORD_SCHEMAS = [RECORD_SCHEMA_V1, RECORD_SCHEMA_ID] as const;
export const SERIES_SCHEMA_ID = 'bee-bench/history-series@1';
export const INDEX_SCHEMA_ID = 'bee-bench/history-index@1';

/** A github-action-benchmark bench exactly as its data.js held it (import keeps it for export). */
export const GabBenchSchema = z.object({
  name: text(TEXT_CAPS.value).min(1),
  value: z.number(),
  unit: text(TEXT_CAPS.name),
  range: text(TEXT_CAPS.short).optional(),
  extra: text(TEXT_CAPS.message).optional(),
});

/**
 * A counted case's instructions per timed iteration (a counting run under callgrind: the same on
 * every machine with the same toolchain). per_op and per_byte are the median over the case's
 * work, as the time figures are read; aa_spread is the row's measured A/A spread (two processes
 * of the same code, src/verdict/steps.ts aaSpread) when the run measured one.
 */
export const RecordCountsSchema = z.object({
  samples: z.array(z.number().int().positive()).min(1),
  median: z.number().positive(),
  per_op: z.number().positive().optional(),
  per_byte: z.number().positive().optional(),
  aa_spread: z.number().nonnegative().optional(),
});
export type RecordCounts = z.infer<typeof RecordCountsSchema>;

export const RecordCaseSchema = z.object({
  id: text(TEXT_CAPS.name).min(1),
  kind: KindSchema,
  /** The param's label: with `id` and `runner`, names a series. */
  label: text(TEXT_CAPS.name),
  param: z.record(text(TEXT_CAPS.name), z.union([z.number(), text(TEXT_CAPS.value), z.boolean()])),
  status: z.enum(['ok', 'skipped', 'failed']),
  reason: text(TEXT_CAPS.message).optional(),
  n: z.number().int().nonnegative(),
  median_ns: z.number().nonnegative().nullable(),
  min_ns: z.number().nonnegative().nullable(),
  max_ns: z.number().nonnegative().nullable(),
  /** Median absolute deviation from the median, unscaled (src/stats madRaw). Stats are null when n = 0. */
  mad_ns: z.number().nonnegative().nullable(),
  samples_ns: z.array(z.number().nonnegative()),
  work: z.object({ ops: z.number().optional(), bytes: z.number().optional() }),
  peak_rss_bytes: z.number().int().nonnegative().nullable(),
  digest: text(TEXT_CAPS.value).optional(),
  /**
   * Further figures by unit, e.g. Go's {"B/op": 16, "allocs/op": 1}. Allocation runs give the
   * median heap figures per iteration ("B/iter", "allocs/iter") and per op of the case's work
   * ("B/op", "allocs/op"; an imported Go benchmark's op is one iteration, as its case declares no work).
   * Runs with the cache simulation give estimated cycles per iteration and per op ("cycles/iter",
   * "cycles/op"): the families in src/evidence/history-metrics.ts.
   */
  metrics: z.record(text(TEXT_CAPS.name), z.number()).optional(),
  /** Instructions per iteration, where the run counted (CPU cases; records @2 on). */
  instructions: RecordCountsSchema.optional(),
  /** Imported cases: the original bench, verbatim (name, value, unit, range, extra). */
  gab: GabBenchSchema.optional(),
  /** Imported cases: the original instruction-count bench, verbatim (src/history/gab.ts). */
  gab_instructions: GabBenchSchema.optional(),
});
export type RecordCase = z.infer<typeof RecordCaseSchema>;

/** One immutable record per (run, runner): runs/YYYY/MM/<timestamp>-<sha7>-<runner>-<run_id>.json */
export const HistoryRecordSchema = z
  .object({
    schema: z.enum(RECORD_SCHEMAS),
    commit: z.object({
      sha: z.string().regex(/^[0-9a-f]{7,64}$/),
      message: text(COMMIT_MESSAGE_MAX),
      author: text(TEXT_CAPS.short),
      timestamp: z.iso.datetime({ offset: true }),
      url: text(TEXT_CAPS.value).optional(),
    }),
    branch: text(TEXT_CAPS.short).min(1),
    event: text(TEXT_CAPS.name).min(1),
    run: z.object({ id: text(TEXT_CAPS.name).min(1), attempt: z.number().int().positive().optional(), url: text(TEXT_CAPS.value).optional() }),
    runner: RunnerSchema,
    client: ClientSchema,
    host: HostSchema,
    bee: z.object({ url: text(TEXT_CAPS.value), version: text(TEXT_CAPS.short) }).nullable(),
    spec: z.object({ hash: text(TEXT_CAPS.name), profile: RunSizeSchema }),
    started_at: z.iso.datetime({ offset: true }),
    finished_at: z.iso.datetime({ offset: true }).nullable(),
    cases: z.array(RecordCaseSchema),
    /** What counted the cases' instructions (tool and version): present when some case has them. */
    counter: CounterSchema.optional(),
    /** Imported records: where in a github-action-benchmark data.js they came from, for a lossless export. */
    source: z
      .object({
        format: z.literal('github-action-benchmark'),
        suite: text(TEXT_CAPS.short),
        tool: text(TEXT_CAPS.name),
        /** The entry's date (ms since the epoch). */
        date: z.number(),
        repo_url: text(TEXT_CAPS.value).optional(),
        /** The entry's commit object as GAB wrote it (author, committer, id, message, timestamp, url, ...). */
        commit: z.record(z.string(), z.unknown()),
      })
      .optional(),
  })
  .superRefine((r, ctx) => {
    // Instruction counts came with @2: a @1 record that has them was not written by bee-bench.
    if (r.schema !== RECORD_SCHEMA_V1) return;
    if (r.counter)
      ctx.addIssue({ code: 'custom', path: ['counter'], message: `${RECORD_SCHEMA_V1} records carry no counter; the record says ${RECORD_SCHEMA_ID}` });
    r.cases.forEach((c, i) => {
      if (c.instructions) ctx.addIssue({ code: 'custom', path: ['cases', i, 'instructions'], message: `${RECORD_SCHEMA_V1} records carry no instructions` });
    });
  });
export type HistoryRecord = z.infer<typeof HistoryRecordSchema>;

// ---- Derived files (pure function of runs/; regenerated on every write) ----
// Written by src/history/derive.ts as compact JSON with sorted keys. Optional members are absent
// (never null) when unknown. "Time per work unit" below is median_ns / bytes when the point has
// bytes, else / ops, else median_ns: the figure changes and shifts are computed on.

/** One point of a series: one record's figure for (case, label, runner); only ok cases make points. */
export interface SeriesPoint {
  /** Record file, relative to the history folder: the point's identity. */
  record: string;
  branch: string;
  sha: string;
  /** First line of the commit message, at most 200 characters. */
  message: string;
  author: string;
  /** Commit time (ISO, as recorded, with its offset); the x axis. */
  timestamp: string;
  url?: string;
  run_id: string;
  /** When the run started (ISO): the x axis where a chart's points come from several clients' commits. */
  run_at?: string;
  client_version: string;
  /** The measured client's commit, when built from a checkout. */
  client_commit?: string;
  /** Imported points: "github-action-benchmark <tool>: <original bench name>" (shown instead of the runner's client). */
  imported?: string;
  median_ns: number;
  min_ns: number;
  max_ns: number;
  n: number;
  /** Work per iteration, for per-op and MB/s axes. */
  ops?: number;
  bytes?: number;
  /** The record case's further figures by unit (RecordCase.metrics), keys sorted: the site charts them. */
  metrics?: Record<string, number>;
  /**
   * Set when this point starts a significant shift against the points before it (same branch):
   * the 5 points from it on vs the 5 before, rank-sum p (exact under ties) < 0.01 and |ratio - 1| > 5%, ratio being
   * the Hodges–Lehmann after/before ratio of time per work unit (src/history/shift.ts).
   */
  shift?: { ratio: number; p: number };
  /** Counted points: the median instructions per iteration (per op / per byte: divide by ops / bytes). */
  instructions?: number;
  /** Counted points: the row's A/A spread, when the record stored one. */
  aa_spread?: number;
  /** Counted points: the runtime or compiler and the counter ("go1.23.4; callgrind valgrind-3.22.0"). */
  toolchain?: string;
  /** Counted points: set when the count moved against the branch's previous counted point, or the toolchain changed (src/history/count-steps.ts). */
  count_step?: CountStep;
}

export interface Series {
  runner: z.infer<typeof RunnerSchema>;
  label: string;
  /**
   * Oldest first (commit time, then record path), all branches interleaved; retention keeps the
   * latest max-runs points per branch.
   */
  points: SeriesPoint[];
}

/** series/<case-id>.json: every series of one case, loaded on demand by the case view. */
export interface CaseSeriesFile {
  schema: typeof SERIES_SCHEMA_ID;
  case: string;
  /** Sorted by label, then runner (js, go, rs). */
  series: Series[];
}

export interface IndexSeries {
  runner: z.infer<typeof RunnerSchema>;
  label: string;
  /** Points in the series file (after retention). */
  points: number;
  /**
   * Per branch: the latest point; change = its time per work unit / the previous point's - 1
   * (null for a branch's first point); trend = the branch's last <= 20 median_ns, oldest first.
   * ops/bytes are the latest point's work.
   */
  latest: Record<
    string,
    {
      median_ns: number;
      sha: string;
      timestamp: string;
      run_id?: string;
      run_at?: string;
      change: number | null;
      trend: number[];
      ops?: number;
      bytes?: number;
      /** The latest time figure is low-precision (src/verdict/precision.ts): a mark for A/B-size claims. */
      low_precision?: true;
      /** The latest median's interval per iteration, ns (order statistics, src/stats/scoreboard.ts): the scoreboard's ranking rule reads it. */
      median_interval?: { lo: number; hi: number };
      /** The latest point's iterations, ns (at most INDEX_SAMPLES order statistics, src/history/derive.ts): the scoreboard's ratio intervals are taken from them (src/stats/scoreboard.ts). */
      samples_ns?: number[];
      /** When the latest point is counted: its instructions per iteration, their change per work unit against the previous counted point, and the branch's last <= 20 counts. */
      instructions?: number;
      count_change?: number | null;
      count_trend?: number[];
    }
  >;
}

export interface IndexCase {
  id: string;
  kind: 'cpu' | 'net';
  /** Spec group id; for a case the spec does not know: its kind, or "imported" for gab.* cases. */
  group: string;
  /** From the spec's catalog; "" when the case is not in it. */
  doc: string;
  /** Relative path of the case's series file. */
  file: string;
  /** Ids the case had before (spec `formerly`): its series holds their records, and old links open it. */
  formerly?: string[];
  /** What one op is called, as the report names it ("lookup": µs/lookup); absent for "op". */
  op?: string;
  series: IndexSeries[];
}

/**
 * Cross-client scoreboard per run id (runs where >= 2 runners were ok on some case/param): per
 * row, each runner's time per work unit over the row's fastest (per byte if every runner has bytes,
 * else per op, else per iteration when the work is identical; other rows are left out); geomean of
 * those ratios per runner (1 = fastest everywhere), wins = rows where it was the fastest.
 * branch/timestamp/sha are those of the run's first record by path.
 */
export interface ScoreboardEntry {
  run_id: string;
  branch: string;
  timestamp: string;
  sha: string;
  geomean: Partial<Record<z.infer<typeof RunnerSchema>, number>>;
  wins: Partial<Record<z.infer<typeof RunnerSchema>, number>>;
  /** Rows scored. */
  rows: number;
  /** Rows compared but left out because their ranking is open (src/stats/scoreboard.ts); absent when none. */
  open?: number;
  /** Indexes from before the ranking rule: rows left out as low-precision. Never written now. */
  low_precision?: number;
}

/** index.json: all the first view needs, and nothing more (series load lazily). */
export interface HistoryIndex {
  schema: typeof INDEX_SCHEMA_ID;
  /** Valid records derived from. */
  generated_from: number;
  /** Branches the derived files hold (sorted): the default one and the recently active others. */
  branches: string[];
  /** The branch the site opens on. */
  default_branch: string;
  /** Branches with records that the derived files leave out (inactive; their records are kept). */
  expired_branches: number;
  /** Runners with at least one point, in js, go, rs order. */
  runners: Array<z.infer<typeof RunnerSchema>>;
  /** Groups of the listed cases, in spec order, then unknown groups sorted. */
  groups: Array<{ id: string; title: string }>;
  /** Cases with at least one point, sorted by id. */
  cases: IndexCase[];
  /** Oldest first; the latest max-runs entries per branch. */
  scoreboard: ScoreboardEntry[];
  /** The same board on instructions per work unit, over the rows every runner counted (absent when no run counted two runners). */
  scoreboard_counts?: ScoreboardEntry[];
  /** Records that failed validation: reported by file and field, excluded from everything else. */
  invalid: Array<{ file: string; problem: string }>;
}
