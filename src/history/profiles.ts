// A run's compact function profiles in the history store: a side file per record, beside runs/
// (profiles/YYYY/MM/<the record's file name>), never inside the record, so records stay
// `history-record@2` and the trend site never loads them. Written once with the record (immutable
// like it), read back only by an alert, which diffs the last good run's against the alerting run's.
// The profiles come from a measure job: validated (zod, names and lists capped) and size-limited
// both ways, written and read.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { RunProfilesSchema, type RunProfiles } from '../profile/index.js';
import { RunnerSchema } from '../spec/schema.js';
import { describeIssues, parseJson, InputError } from '../spec/errors.js';
import { stableJson } from './json.js';
import { linkOnPath, RUNS_DIR } from './read.js';
import { recordPath } from './record.js';
import type { HistoryRecord } from './schema.js';

export const PROFILES_DIR = 'profiles';
export const RUN_PROFILES_SCHEMA = 'bee-bench/history-profiles@1';
/** The most one run's side file may hold, written or read (a quick `cpu.*` run's: 23 KB bee-rs, 31 KB bee-go). */
export const MAX_RUN_PROFILES_BYTES = 512 << 10;

export const RunProfilesFileSchema = z.strictObject({
  schema: z.literal(RUN_PROFILES_SCHEMA),
  /** The record it belongs to, as a path in the history folder. */
  record: z.string().max(300),
  runner: RunnerSchema,
  rows: RunProfilesSchema.shape.rows,
});

/** profiles/YYYY/MM/<record file name>: the side file of a record. */
export const profilesPath = (r: Pick<HistoryRecord, 'started_at' | 'commit' | 'runner' | 'run'>) =>
  `${PROFILES_DIR}/${recordPath(r).slice(RUNS_DIR.length + 1)}`;

/** The side file's bytes for a record, or why it is not written (another runner's, or too large). */
export function serializeRunProfiles(r: HistoryRecord, p: RunProfiles): { text: string } | { refused: string } {
  if (p.runner !== r.runner) return { refused: `profiles of ${p.runner} do not belong to the ${r.runner} record` };
  const file = RunProfilesFileSchema.parse({ schema: RUN_PROFILES_SCHEMA, record: recordPath(r), runner: p.runner, rows: p.rows });
  // One line, sorted keys: half the bytes of the pretty form, and the same bytes for the same profiles.
  const text = stableJson(file);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_RUN_PROFILES_BYTES) return { refused: `${bytes} bytes, more than the ${MAX_RUN_PROFILES_BYTES} a run's profiles may take` };
  return { text };
}

/** A record's compact profiles from the history folder, or why there are none (absent, too large, invalid). */
export function readRunProfiles(folderAbs: string, r: HistoryRecord): RunProfiles | string {
  const rel = profilesPath(r);
  const path = join(folderAbs, rel);
  const link = linkOnPath(folderAbs, rel);
  if (link) return `${link} is a symbolic link; not read`;
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return `${rel} is not a file`;
    size = st.size;
  } catch {
    return 'it ran without instruction counts, or before bee-bench kept profiles';
  }
  if (size > MAX_RUN_PROFILES_BYTES) return `${rel} is ${size} bytes, more than the ${MAX_RUN_PROFILES_BYTES} read`;
  try {
    const parsed = RunProfilesFileSchema.safeParse(parseJson(rel, readFileSync(path, 'utf8')));
    if (!parsed.success) return `${rel} is not valid: ${describeIssues(parsed.error).slice(0, 3).join('; ')}`;
    if (parsed.data.runner !== r.runner || parsed.data.record !== recordPath(r)) return `${rel} names another record than ${recordPath(r)}`;
    return { runner: parsed.data.runner, rows: parsed.data.rows };
  } catch (e) {
    if (e instanceof InputError) return `${rel} is not valid: ${e.problems.slice(0, 3).join('; ')}`;
    throw e;
  }
}
