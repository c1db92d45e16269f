// Folders of src/ import each other without cycles (one concern per folder, layered), and the
// verdict lives in src/verdict only: src/report renders, src/run measures.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(process.cwd(), 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

const folderOf = (file: string) => {
  const parts = relative(SRC, file).split('/');
  return parts.length > 1 ? parts[0]! : '.';
};

/** folder -> folders it imports from. */
function folderGraph(): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const f of files(SRC)) {
    const from = folderOf(f);
    for (const m of readFileSync(f, 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)) {
      const to = folderOf(normalize(join(dirname(f), m[1]!)));
      if (to !== from) (g.get(from) ?? g.set(from, new Set()).get(from)!).add(to);
    }
  }
  return g;
}

function cycles(g: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const walk = (start: string, at: string, path: string[]) => {
    for (const next of g.get(at) ?? []) {
      if (next === start) found.push([...path, next].join(' -> '));
      else if (!path.includes(next)) walk(start, next, [...path, next]);
    }
  };
  for (const start of g.keys()) walk(start, start, [start]);
  return found;
}

describe('src layering', () => {
  it('has no import cycle between folders', () => {
    expect(cycles(folderGraph())).toEqual([]);
  });

  it('keeps verdicts out of report and run: report renders, run measures', () => {
    const g = folderGraph();
    expect([...(g.get('verdict') ?? [])].filter((f) => f === 'report' || f === 'run' || f === 'action')).toEqual([]);
    for (const f of files(join(SRC, 'report'))) expect(readFileSync(f, 'utf8')).not.toMatch(/\bverdicts\(|compareLogRatios|unpairedHistory/);
  });

  it('starts every child process with childEnv (no credentials reach builds, runners or git)', () => {
    const spawning = files(SRC).filter((f) => readFileSync(f, 'utf8').includes("from 'node:child_process'"));
    expect(spawning.length).toBeGreaterThan(5);
    for (const f of spawning) {
      const text = readFileSync(f, 'utf8');
      const calls = text.match(/(?<![.\w])(spawn|spawnSync|execFile|execFileSync|exec)\(/g)?.length ?? 0;
      expect(text.match(/childEnv\(/g)?.length ?? 0, relative(SRC, f)).toBeGreaterThanOrEqual(calls);
      expect(text, relative(SRC, f)).not.toMatch(/\.\.\.process\.env/);
    }
  });
});
