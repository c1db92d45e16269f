// A row's profile difference as it travels from the measure job to the report and the publish job:
// data from a process that ran the pull request's code, so every name is length-capped, every
// list bounded and every figure finite (docs/security.md). Names are escaped where rendered.
import { z } from 'zod';
import { RunnerSchema } from '../spec/schema.js';
import { NAME_CHARS } from './names.js';
import { LINES_PER_FUNCTION, PATH_CHARS } from './source-lines.js';

const MAX_LINES = 20;
const name = z
  .string()
  .min(1)
  .max(NAME_CHARS * 2); // UTF-16 units: a name of NAME_CHARS code points
const ir = z.number().finite().nonnegative();
const status = z.enum(['new', 'gone']).optional();

export const SelfLineSchema = z.strictObject({ name, base: ir, head: ir, status });
export type SelfLine = z.infer<typeof SelfLineSchema>;

export const ProfileDiffSchema = z.strictObject({
  caseId: z.string().max(200),
  label: z.string().max(200),
  runner: RunnerSchema,
  /** Instructions per iteration of the whole row, by side. */
  total: z.strictObject({ base: ir, head: ir }),
  iterations: z.strictObject({ base: z.number().int().nonnegative(), head: z.number().int().nonnegative() }),
  /** Functions by change in their own instructions per iteration. */
  self: z.array(SelfLineSchema).max(MAX_LINES),
  /** The client's functions by change with the callees outside the client folded in, and those callees. */
  own: z
    .array(
      z.strictObject({
        name,
        base: ir,
        head: ir,
        inclusiveBase: ir,
        inclusiveHead: ir,
        /**
         * The part of base and head split by proportion (fold.ts): callees whose recorded callers
         * reach no client function. Absent in lists made before caller context was recorded.
         */
        estimatedBase: ir.optional(),
        estimatedHead: ir.optional(),
        via: z.array(name).max(5),
        /**
         * The function's source lines whose instructions moved (source-lines.ts), largest change
         * first: the file from the client's source root, head's line number (`baseLine` where
         * base numbered it otherwise; `only` where one side's source lacks the line: an edited or
         * inserted line is head's only, the line it replaced base's, numbered as base numbers
         * it), instructions per iteration each side. Absent where the dumps have no lines for it
         * (bee-js's JIT code, lists made before lines were recorded).
         */
        lines: z
          .array(
            z.strictObject({
              file: z.string().min(1).max(PATH_CHARS),
              line: z.number().int().positive(),
              /** The function whose source holds the line (source-lines.ts enclosingFunction): an inlined one's own name. */
              function: name.optional(),
              baseLine: z.number().int().positive().optional(),
              only: z.enum(['base', 'head']).optional(),
              base: ir,
              head: ir,
            }),
          )
          .max(LINES_PER_FUNCTION)
          .optional(),
        /** A JavaScript function's start as V8's perf map gives it (bee-js has no per-line positions): head's, else base's. */
        start: z.strictObject({ file: z.string().min(1).max(PATH_CHARS), line: z.number().int().nonnegative() }).optional(),
        status,
      }),
    )
    .max(MAX_LINES),
  /** Calls into the allocator per iteration by allocation site; null where callgrind cannot see them (bee-js). */
  allocations: z
    .array(z.strictObject({ name, base: ir, head: ir }))
    .max(MAX_LINES)
    .nullable(),
});
export type ProfileDiff = z.infer<typeof ProfileDiffSchema>;

/** At most this many rows carry a difference in a report (the flagged ones, largest change first). */
export const MAX_PROFILED_ROWS = 100;
export const ProfileDiffsSchema = z.array(ProfileDiffSchema).max(MAX_PROFILED_ROWS);

/**
 * A run's compact profile of a counted row (compact.ts): what a push run keeps in the history store
 * beside its record, so an alert can show where a later run moved against it. Bounded here: a
 * function is kept when it reaches `share` of the row, at most `self` functions by own cost and
 * `own` client functions by folded cost (each with its `via` largest folded callees), and `allocations`
 * allocation sites; at most `rows` rows per run. A run's file is refused past MAX_RUN_PROFILES_BYTES
 * (src/history/profiles.ts). 0.5-6.5 KB a row, measured.
 */
export const COMPACT_CAPS = { share: 1e-4, self: 30, own: 20, via: 3, allocations: 10, rows: 200 } as const;

export const CompactProfileSchema = z.strictObject({
  caseId: z.string().min(1).max(200),
  label: z.string().max(200),
  runner: RunnerSchema,
  /** Instructions per iteration of the whole row. */
  total: ir,
  iterations: z.number().int().nonnegative(),
  /** Below these nothing was kept (COMPACT_CAPS.share of the row, or the smallest kept when a list was full). */
  cut: z.strictObject({ self: ir, own: ir, allocations: ir }),
  self: z.array(z.strictObject({ name, self: ir })).max(COMPACT_CAPS.self),
  own: z
    .array(
      z.strictObject({
        name,
        cost: ir,
        inclusive: ir,
        /** The part of `cost` split by proportion (fold.ts); absent in profiles kept before caller context was recorded. */
        estimated: ir.optional(),
        via: z.array(z.strictObject({ name, ir })).max(COMPACT_CAPS.via),
      }),
    )
    .max(COMPACT_CAPS.own),
  allocations: z.array(z.strictObject({ name, calls: ir })).max(COMPACT_CAPS.allocations),
});
export type CompactProfile = z.infer<typeof CompactProfileSchema>;

/** One runner's compact profiles of a run: in publish.json and, per record, in the history store. */
export const RunProfilesSchema = z.strictObject({ runner: RunnerSchema, rows: z.array(CompactProfileSchema).max(COMPACT_CAPS.rows) });
export type RunProfiles = z.infer<typeof RunProfilesSchema>;
