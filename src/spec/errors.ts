// The error every input boundary throws (spec, result, history record, design): the file, the
// fields that are wrong and the fix, in one message.
import type { z } from 'zod';

/**
 * A bad input file: says which file, which field and what to do. Every boundary that reads a
 * spec, a result or a history record throws this instead of a bare zod or JSON error.
 */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
    readonly fix?: string,
  ) {
    super(`${file}: ${problems.join('; ')}${fix ? ` (fix: ${fix})` : ''}`);
    this.name = 'InputError';
  }
}

/** The characters of a key shown in an error. */
const KEY_SHOWN = 60;

/** `cases[3].params.quick[0].digest_with: per_runner scales "count" ...` for each zod issue. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    // A path segment is a key of the file, which may be hostile and huge (a 1 MiB param name): clipped.
    const key = (p: PropertyKey) => {
      const s = String(p);
      return s.length > KEY_SHOWN ? `${s.slice(0, KEY_SHOWN)}… (${s.length} characters)` : s;
    };
    const path = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${key(p)}`)).join('');
    // A bad key or union member says why in a nested issue: its size, where that was the fault.
    const nested = issue.code === 'invalid_key' ? issue.issues : issue.code === 'invalid_union' ? issue.errors.flat() : [];
    const inner = (nested.find((i) => i.code === 'too_big') ?? (issue.code === 'invalid_key' ? nested[0] : undefined))?.message;
    return `${path || '(top level)'}: ${issue.message}${inner ? ` (${inner})` : ''}`;
  });
}

/** Parses JSON text, naming the file and the line/column of a syntax error. */
export function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(msg);
    if (at) {
      const pos = Number(at[1]);
      const before = text.slice(0, pos);
      const line = before.split('\n').length;
      const col = pos - before.lastIndexOf('\n');
      throw new InputError(file, [`invalid JSON at line ${line}, column ${col}: ${msg}`], 'correct the JSON syntax');
    }
    throw new InputError(file, [`invalid JSON: ${msg}`], 'correct the JSON syntax');
  }
}
