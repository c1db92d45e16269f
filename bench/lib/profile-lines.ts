// Which source lines of one file moved between a row's two profile files (callgrind.out.base and
// callgrind.out.head in its profiles folder), for the patch set's check (bench/profile-patches.ts).
// A line's cost is its own instructions plus the instructions under the calls made from it
// (callgrind's call lines carry the calling line), per iteration. Base and head are different
// versions of the file, so a line is matched by its source text, not its number: lines that only
// moved down by an insertion keep their cost.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LineMove {
  /** The line in head's file (1-based). */
  line: number;
  text: string;
  change: number;
}

/** Cost by (file, line) from a callgrind file of format version 1; null when it records no line. */
export function lineCosts(text: string): Map<string, Map<number, number>> | null {
  const out = new Map<string, Map<number, number>>();
  const names = new Map<string, string>();
  const resolveName = (spec: string) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(spec.trim());
    if (!m) return spec.trim();
    if (m[2] !== undefined) names.set(m[1]!, m[2]);
    return names.get(m[1]!) ?? '';
  };
  let positions = ['line'];
  let fnFile = '';
  let file = '';
  const last: number[] = [];
  let anyLine = false;
  let lineAt = 0;
  for (const raw of text.split('\n')) {
    const c = raw.charCodeAt(0);
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      const parts = raw.trim().split(/\s+/);
      for (let i = 0; i < positions.length; i++) {
        const p = parts[i] ?? '0';
        const prev = last[i] ?? 0;
        const v = p === '*' ? prev : p.startsWith('+') ? prev + Number(p.slice(1)) : p.startsWith('-') ? prev - Number(p.slice(1)) : Number(p);
        last[i] = v;
      }
      const line = last[lineAt] ?? 0;
      const ir = Number(parts[positions.length] ?? 0) || 0;
      if (line > 0) anyLine = true;
      const byLine = out.get(file) ?? new Map<number, number>();
      out.set(file, byLine);
      byLine.set(line, (byLine.get(line) ?? 0) + ir);
    } else if (raw.startsWith('positions:')) {
      positions = raw.slice(10).trim().split(/\s+/);
      lineAt = Math.max(0, positions.indexOf('line'));
    } else if (raw.startsWith('fl=')) {
      fnFile = file = resolveName(raw.slice(3));
    } else if (raw.startsWith('fi=') || raw.startsWith('fe=')) {
      file = resolveName(raw.slice(3));
    } else if (raw.startsWith('fn=')) {
      file = fnFile;
    } else if (raw.startsWith('cfi=') || raw.startsWith('cfl=')) {
      resolveName(raw.slice(4));
    }
  }
  return anyLine ? out : null;
}

/**
 * The lines of `file` (a path relative to the client's root, matched as the end of the profile's
 * file names) by how much their cost rose in head, most first; null when the profile files carry
 * no lines. `sources` are the two versions' roots, to read each line's text.
 */
export function movedLines(folder: string, sources: { base: string; head: string }, file: string): LineMove[] | null {
  const read = (side: 'base' | 'head') => {
    const path = join(folder, `callgrind.out.${side}`);
    if (!existsSync(path)) throw new Error(`${path}: missing (was the row profiled? --profile-case)`);
    return lineCosts(readFileSync(path, 'utf8'));
  };
  const base = read('base');
  const head = read('head');
  if (!base || !head) return null;
  const byText = (costs: Map<string, Map<number, number>>, root: string) => {
    const src = readFileSync(join(root, file), 'utf8').split('\n');
    const out = new Map<string, { cost: number; line: number }>();
    for (const [f, lines] of costs) {
      if (!f.replace(/\\/g, '/').endsWith(file)) continue;
      for (const [line, ir] of lines) {
        const text = src[line - 1]?.trim() ?? `line ${line}`;
        const got = out.get(text);
        out.set(text, { cost: (got?.cost ?? 0) + ir, line: got?.line ?? line });
      }
    }
    return out;
  };
  const b = byText(base, sources.base);
  const h = byText(head, sources.head);
  return [...h]
    .map(([text, { cost, line }]) => ({ line, text, change: cost - (b.get(text)?.cost ?? 0) }))
    .filter((l) => l.change > 0)
    .sort((x, y) => y.change - x.change);
}
