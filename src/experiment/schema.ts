// The zod schemas of the Bee release experiment: its design (bee-bench/experiment-design@1, a JSON
// file or built from CLI flags) and every row of its journal (bee-bench/experiment-journal@1,
// journal.jsonl in the run folder). One file for both halves: the engine writes these rows, the
// analysis reads them; neither keeps a private copy of a shape.
import { z } from 'zod';

export const DESIGN_SCHEMA = 'bee-bench/experiment-design@1';
export const JOURNAL_SCHEMA = 'bee-bench/experiment-journal@1';
export const JOURNAL_FILE = 'journal.jsonl';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/i, 'expected 64 hex digits');
const hex = z.string().regex(/^[0-9a-f]+$/i, 'expected hex digits');
const iso = z.string().min(1);

/** Erasure-coding level: 0 NONE, 1 MEDIUM, 2 STRONG, 3 INSANE, 4 PARANOID. */
export const LevelSchema = z.number().int().min(0).max(4);
export type Level = z.infer<typeof LevelSchema>;
/** Strategies a design may ask for at level > 0 (level 0 always downloads with NONE: the seed's coupling). */
export const DesignStrategySchema = z.enum(['DATA', 'PROX', 'RACE']);
/** The strategy a unit actually downloads with. */
export const StrategySchema = z.enum(['NONE', 'DATA', 'PROX', 'RACE']);
export type Strategy = z.infer<typeof StrategySchema>;

export const DesignNodeSchema = z.object({
  /** Unique, e.g. "a". */
  label: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'a label is letters, digits, _ . -'),
  /** e.g. "2.7.0": nodes of one release are that release's servers. */
  release: z.string().min(1),
  url: z.url({ protocol: /^https?$/ }),
  /** Bought on a dev node when absent. */
  batch_id: hex64.optional(),
});
export type DesignNode = z.infer<typeof DesignNodeSchema>;

export const WaitRuleSchema = z.object({
  signal: z.enum(['auto', 'tag', 'stewardship', 'none']),
  ceiling_s: z.number().nonnegative(),
  poll_s: z.number().positive(),
});
export type WaitRule = z.infer<typeof WaitRuleSchema>;

export const DesignSchema = z
  .object({
    schema: z.literal(DESIGN_SCHEMA),
    sizes: z.array(z.number().int().min(1)).min(1),
    levels: z.array(LevelSchema).min(1),
    strategies: z.array(DesignStrategySchema),
    fallback: z.boolean().optional(),
    nodes: z.array(DesignNodeSchema).min(1),
    replicates: z.number().int().min(1),
    attempts: z.number().int().min(1),
    upload: z.enum(['deferred', 'direct']),
    endpoint: z.enum(['bytes', 'bzz']),
    wait: WaitRuleSchema,
    timeout_s: z.number().positive(),
    seed: hex64.optional(),
    order: z.enum(['blocked', 'sequential']).default('blocked'),
  })
  .superRefine((d, ctx) => {
    const seen = new Set<string>();
    d.nodes.forEach((n, i) => {
      if (seen.has(n.label))
        ctx.addIssue({
          code: 'custom',
          path: ['nodes', i, 'label'],
          message: `node label "${n.label}" is used twice: give each node its own label`,
        });
      seen.add(n.label);
    });
    if (d.levels.some((l) => l > 0) && d.strategies.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['strategies'],
        message: 'levels above 0 need at least one strategy (DATA, PROX or RACE)',
      });
  });
export type Design = z.infer<typeof DesignSchema>;
export type DesignInput = z.input<typeof DesignSchema>;

const ClientSchema = z.object({ name: z.string(), version: z.string() });

export const RunRowSchema = z.object({
  type: z.literal('run'),
  schema: z.literal(JOURNAL_SCHEMA),
  run_id: z.string().min(1),
  created_at: iso,
  design: DesignSchema,
  seed: hex64,
  runner: z.enum(['js', 'go', 'rs']),
  client: ClientSchema,
  nodes: z.array(z.object({ label: z.string(), release: z.string(), url: z.string(), version: z.string() })),
  bee_bench: z.string(),
});

/** The factors of one unit, repeated on its upload and download rows so each row stands alone. */
const unitFactors = {
  unit: z.string().min(1),
  node: z.string(),
  release: z.string(),
  size: z.number().int().min(1),
  level: LevelSchema,
  strategy: StrategySchema,
  rep: z.number().int().min(1),
};

export const UploadRowSchema = z.object({
  type: z.literal('upload'),
  ...unitFactors,
  seed: hex64,
  sha256: hex64,
  ok: z.boolean(),
  ms: z.number().nonnegative(),
  reference: hex.optional(),
  tag: z.number().int().optional(),
  error: z.string().optional(),
  at: iso,
});

export const SyncRowSchema = z.object({
  type: z.literal('sync'),
  unit: z.string().min(1),
  node: z.string(),
  signal: z.enum(['tag', 'stewardship', 'none']),
  /** false = the ceiling was reached; the download still runs and the report says so. */
  synced: z.boolean(),
  waited_ms: z.number().nonnegative(),
  detail: z.string().optional(),
  at: iso,
});

export const DownloadRowSchema = z.object({
  type: z.literal('download'),
  ...unitFactors,
  /** 1-based. */
  attempt: z.number().int().min(1),
  ok: z.boolean(),
  ms: z.number().nonnegative(),
  bytes: z.number().int().nonnegative().optional(),
  error: z.string().optional(),
  at: iso,
});

export const PhaseRowSchema = z.object({
  type: z.literal('phase'),
  phase: z.enum(['upload', 'sync', 'download']),
  state: z.enum(['start', 'done']),
  at: iso,
});

export const ResumeRowSchema = z.object({ type: z.literal('resume'), at: iso });

export const JournalRowSchema = z.discriminatedUnion('type', [
  RunRowSchema,
  UploadRowSchema,
  SyncRowSchema,
  DownloadRowSchema,
  PhaseRowSchema,
  ResumeRowSchema,
]);

export type RunRow = z.infer<typeof RunRowSchema>;
export type UploadRow = z.infer<typeof UploadRowSchema>;
export type SyncRow = z.infer<typeof SyncRowSchema>;
export type DownloadRow = z.infer<typeof DownloadRowSchema>;
export type PhaseRow = z.infer<typeof PhaseRowSchema>;
export type ResumeRow = z.infer<typeof ResumeRowSchema>;
export type JournalRow = z.infer<typeof JournalRowSchema>;
