// What a push, schedule or dispatch run leaves for the publish job (mode: publish): its result files
// and the commit they measured, as data. The publish job holds the write token and runs no client
// code, so it appends these to the history and judges alerts only after validating them (zod, sizes
// bounded; the artifact was read under limits by src/github/artifact-download.ts) and after checking
// that they name the commit of the event it trusts. The commit's message, author and time are
// recorded from the API, never from this file (src/action/publish-source.ts). Counted rows' compact
// function profiles ride along as data: the history keeps them beside the records, alerts diff them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ARTIFACT_LIMITS } from '../github/artifact-download.js';
import { RunProfilesSchema, type RunProfiles } from '../profile/schema.js';
import { ResultSchema, RunnerSchema, type Result, type Runner } from '../spec/schema.js';
import { parseArtifactFile } from './artifact-file.js';

export const PUBLISH_SCHEMA = 'bee-bench/action-publish@1';
export const PUBLISH_FILE = 'publish.json';

const sha = z.string().regex(/^[0-9a-f]{40}$/, 'a full commit sha');

export const PublishBundleSchema = z.strictObject({
  schema: z.literal(PUBLISH_SCHEMA),
  client: RunnerSchema,
  event: z.string().max(100),
  ref: z.string().max(300),
  head_sha: sha,
  commit: z.strictObject({ sha, message: z.string().max(20_000), author: z.string().max(300), timestamp: z.iso.datetime({ offset: true }) }),
  results: z.array(ResultSchema).min(1).max(3),
  /** Per runner that counted: its counted rows' compact function profiles (names and lists capped, src/profile/schema.ts). */
  profiles: z.array(RunProfilesSchema).max(3).optional(),
});
export type PublishBundle = z.infer<typeof PublishBundleSchema>;

export function writePublishBundle(
  dir: string,
  b: { client: Runner; event: string; ref: string; commit: PublishBundle['commit']; results: readonly Result[]; profiles?: readonly RunProfiles[] },
): void {
  const bundle: PublishBundle = {
    schema: PUBLISH_SCHEMA,
    client: b.client,
    event: b.event,
    ref: b.ref,
    head_sha: b.commit.sha,
    commit: b.commit,
    results: [...b.results],
    ...(b.profiles && b.profiles.length > 0 ? { profiles: [...b.profiles] } : {}),
  };
  writeFileSync(join(dir, PUBLISH_FILE), `${JSON.stringify(bundle)}\n`);
}

/** Parses publish.json's bytes; throws naming the file and field when it is not a valid bundle. */
export function parsePublishBundle(bytes: Buffer): PublishBundle {
  return parseArtifactFile(
    PUBLISH_FILE,
    bytes,
    PublishBundleSchema,
    ARTIFACT_LIMITS.maxEntryBytes,
    'write it with writePublishBundle or scripts/publish-bundle.mjs',
  );
}
