// Reading the two runner-boundary files with errors that name file, field and fix.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { InputError, describeIssues, parseJson } from './errors.js';
import { ResultSchema, SpecSchema, type Result, type Spec } from './schema.js';

export interface LoadedSpec {
  spec: Spec;
  /** Hex SHA-256 of the file's bytes, as runners record it in result.spec.hash. */
  hash: string;
  file: string;
}

function readText(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new InputError(file, [`cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`], 'check the path');
  }
}

function validate<T>(schema: z.ZodType<T>, file: string, value: unknown, fix: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new InputError(file, describeIssues(parsed.error), fix);
  return parsed.data;
}

export function specHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function loadSpec(file: string): LoadedSpec {
  const bytes = readText(file);
  const spec = validate(SpecSchema, file, parseJson(file, bytes.toString('utf8')), 'edit the spec to match src/spec/schema.ts');
  return { spec, hash: specHash(bytes), file };
}

export function parseResult(file: string, text: string): Result {
  return validate(ResultSchema, file, parseJson(file, text), 'the runner wrote a result that breaks bee-bench/result@1 (spec/result.schema.json)');
}

export function loadResult(file: string): Result {
  return parseResult(file, readText(file).toString('utf8'));
}
