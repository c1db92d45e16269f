// What a pull_request run leaves for the fork-safe comment job: data, never markdown. The comment
// job runs with a write token on output of a job that ran the PR's code, so it renders the comment
// itself from this file after validating it (zod, every string and list bounded): the report's
// rows and header fields, or the build that failed. Its outputs come from the same validated rows;
// the marker is set by the comment job, not taken from the file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { BuildFailureInput } from '../report/render/ab-comment.js';
import type { AbReportInput } from '../report/model/ab.js';
import { AbRowSchema, countRows, type AbCounts } from '../verdict/index.js';
import { HostSchema, RunSizeSchema, RunnerSchema, type Runner } from '../spec/schema.js';
import { ProfileDiffsSchema } from '../profile/schema.js';
import { EvidenceSettingSchema } from '../evidence/views.js';
import { MeasureKindSchema } from '../spec/measure.js';
import { parseArtifactFile } from './artifact-file.js';

export const BUNDLE_SCHEMA = 'bee-bench/action-comment@3';
export const BUNDLE_FILE = 'comment.json';
/** Beyond this size the file is refused unread (a report of 1000 rows is about 500 KB). */
const MAX_BYTES = 4 << 20;

const text = (max: number) => z.string().max(max);
const sha = z.string().regex(/^[0-9a-f]{40}$/);

const ReportSchema = z.strictObject({
  title: text(300),
  runner: RunnerSchema,
  baseLabel: text(300),
  headLabel: text(300),
  rows: z.array(AbRowSchema).max(1000),
  alpha: z.number().gt(0).lt(1),
  threshold: z.number().min(0).max(10),
  rounds: z.number().int().min(0).max(10_000),
  profile: RunSizeSchema,
  env: z.strictObject({
    host: z.union([HostSchema, text(300)]),
    clientBase: text(300),
    clientHead: text(300),
    specHash: text(100),
    wallTimeMs: z.number().finite().nonnegative(),
    stoppedEarly: z.union([z.boolean(), text(300)]).optional(),
    loadShift: z.strictObject({ spread: z.number().finite().positive(), rows: z.number().int().nonnegative(), of: z.number().int().nonnegative() }).optional(),
    settings: z.partialRecord(MeasureKindSchema, EvidenceSettingSchema).optional(),
  }),
  baseline: z.strictObject({ kind: z.literal('history'), branch: text(300), runs: z.number().int().nonnegative() }).optional(),
  /** Flagged rows' function profile differences: names capped, lists bounded (src/profile/schema.ts). */
  profiles: ProfileDiffsSchema.optional(),
});

const BuildFailureSchema = z.strictObject({
  title: text(300),
  runner: RunnerSchema,
  side: z.enum(['base', 'head']),
  source: text(500),
  logTail: z.array(text(2000)).max(50),
});

export const BundleSchema = z.strictObject({
  schema: z.literal(BUNDLE_SCHEMA),
  client: RunnerSchema,
  pr: z.number().int().positive(),
  head_sha: sha,
  base_sha: sha.optional(),
  workflow: text(200),
  outcome: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('report'), report: ReportSchema }),
    z.strictObject({ kind: z.literal('build-failed'), failure: BuildFailureSchema }),
  ]),
});
export type Bundle = z.infer<typeof BundleSchema>;

/** What a report or a failed build renders from: the PR comment's input without the marker. */
export type BundleOutcome =
  | { kind: 'report'; report: Omit<AbReportInput, 'marker' | 'crossClient' | 'trendUrl'> }
  | { kind: 'build-failed'; failure: Omit<BuildFailureInput, 'marker'> };

/** Something worth a comment under `comment: on-change`. */
export const hasChange = (c: AbCounts) => c.regressions + c.improvements + c.new + c.missing + c.failed > 0;

/** The counts the outputs report: a failed build counts as one failed row. */
export function outcomeCounts(o: BundleOutcome): AbCounts {
  if (o.kind === 'report') return countRows(o.report.rows);
  return { ...countRows([]), failed: 1 };
}

export function writeBundle(dir: string, meta: Omit<Bundle, 'schema' | 'outcome'>, outcome: BundleOutcome): void {
  // Only the fields the schema knows: the comment job refuses anything else.
  const data =
    outcome.kind === 'report'
      ? { kind: 'report', report: pickReport(outcome.report) }
      : {
          kind: 'build-failed',
          failure: {
            title: outcome.failure.title,
            runner: outcome.failure.runner,
            side: outcome.failure.side,
            source: outcome.failure.source,
            logTail: outcome.failure.logTail.slice(-50),
          },
        };
  writeFileSync(join(dir, BUNDLE_FILE), `${JSON.stringify({ schema: BUNDLE_SCHEMA, ...meta, outcome: data }, null, 2)}\n`);
}

function pickReport(r: Extract<BundleOutcome, { kind: 'report' }>['report']) {
  const { title, runner, baseLabel, headLabel, rows, alpha, threshold, rounds, profile, env, baseline, profiles } = r;
  return {
    title,
    runner,
    baseLabel,
    headLabel,
    rows,
    alpha,
    threshold,
    rounds,
    profile,
    env,
    ...(baseline ? { baseline } : {}),
    ...(profiles ? { profiles } : {}),
  };
}

/** Parses comment.json's bytes (size checked first); throws naming the file and field when it is not a bundle. */
export function parseBundle(bytes: Buffer): Bundle {
  return parseArtifactFile(BUNDLE_FILE, bytes, BundleSchema, MAX_BYTES, 'write it with the bee-bench version this job runs (mode: run)');
}

export const markerFor = (workflow: string, client: Runner) => `bee-bench:${workflow}:${client}`;
