// The one reader of the JSON files a measure job leaves in its artifact (comment.json,
// publish.json): size checked before parsing, JSON and zod errors reported the way every other
// input file of bee-bench reports them (src/spec/errors.ts: file, field, fix).
import type { z } from 'zod';
import { describeIssues, InputError, parseJson } from '../spec/errors.js';

/** Parses an artifact file's bytes against its schema; throws InputError naming the file and the first fields at fault. */
export function parseArtifactFile<T>(file: string, bytes: Buffer, schema: z.ZodType<T>, maxBytes: number, fix: string): T {
  if (bytes.length > maxBytes) throw new InputError(file, [`${bytes.length} bytes, more than the ${maxBytes} accepted`], fix);
  const parsed = schema.safeParse(parseJson(file, bytes.toString('utf8')));
  if (!parsed.success) throw new InputError(file, describeIssues(parsed.error).slice(0, 5), fix);
  return parsed.data;
}
