// What a pull_request run leaves for the fork-safe comment job: the rendered comment and a small
// meta file, next to the A/B results in the artifact. The comment job treats both as untrusted
// (the PR's code ran in the job that wrote them): meta is validated, the PR is checked against the
// triggering run's head sha, and the marker is set by the comment job, not taken from the file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { GITHUB_COMMENT_LIMIT } from '../report/ab-comment.js';
import type { AbCounts } from '../verdict/index.js';
import { RunnerSchema, type Runner } from '../spec/schema.js';

export const BUNDLE_SCHEMA = 'bee-bench/action-comment@1';
export const COMMENT_FILE = 'comment.md';
export const META_FILE = 'meta.json';

const count = z.number().int().min(0);
export const BundleMetaSchema = z.object({
  schema: z.literal(BUNDLE_SCHEMA),
  client: RunnerSchema,
  pr: z.number().int().positive(),
  head_sha: z.string().regex(/^[0-9a-f]{40}$/),
  base_sha: z.string().regex(/^[0-9a-f]{40}$/),
  workflow: z.string().max(200),
  counts: z.object({ regressions: count, improvements: count, unchanged: count, skipped: count, new: count, failed: count, missing: count }),
  changed: z.boolean(),
});
export type BundleMeta = z.infer<typeof BundleMetaSchema>;

/** Something worth a comment under `comment: on-change`. */
export const hasChange = (c: AbCounts) => c.regressions + c.improvements + c.new + c.missing > 0;

export function writeBundle(dir: string, meta: Omit<BundleMeta, 'schema' | 'changed'>, markdown: string): void {
  const full: BundleMeta = { schema: BUNDLE_SCHEMA, ...meta, changed: hasChange(meta.counts) };
  writeFileSync(join(dir, META_FILE), `${JSON.stringify(full, null, 2)}\n`);
  writeFileSync(join(dir, COMMENT_FILE), markdown);
}

export interface ReadBundle {
  meta: BundleMeta;
  body: string;
}

/** Reads a downloaded bundle; throws naming the file and field when it is not one. */
export function readBundle(dir: string): ReadBundle {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, META_FILE), 'utf8'));
  } catch (e) {
    throw new Error(`${META_FILE}: unreadable: ${e instanceof Error ? e.message : String(e)}`);
  }
  const meta = BundleMetaSchema.safeParse(raw);
  if (!meta.success) throw new Error(`${META_FILE}: ${meta.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const body = readFileSync(join(dir, COMMENT_FILE), 'utf8');
  return { meta: meta.data, body };
}

/**
 * An untrusted comment body made safe to post under our marker: every bee-bench marker in it is
 * removed (a body must not claim another workflow's sticky comment) and it is cut to GitHub's limit.
 */
export function sanitizeBody(body: string, marker: string): string {
  const cleaned = body.replace(/<!--\s*bee-bench[\s\S]*?-->/g, '');
  const room = GITHUB_COMMENT_LIMIT - marker.length - 200;
  return cleaned.length > room ? `${cleaned.slice(0, room)}\n\n*(cut to GitHub's comment size limit)*\n` : cleaned;
}

export const markerFor = (workflow: string, client: Runner) => `bee-bench:${workflow}:${client}`;
