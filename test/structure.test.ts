// Folders of src/ import each other without cycles (one concern per folder, layered), and every
// decision lives in src/verdict only: src/stats computes, src/run measures, src/pipeline
// orchestrates, src/report renders.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(process.cwd(), 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
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

/** Lines that decide: p or q against alpha, a ratio against a threshold (or bar, flag), a verdict string set. */
const DECISIONS = [
  /\b(p|q|qi|pValue|qValue)!?\s*(<|<=|>|>=)\s*[\w.]*alpha\b/,
  /\balpha\s*(<|<=|>|>=)\s*[\w.!]*\b(p|q)\b/,
  /ratio\b[^;\n]{0,40}?\s(<|<=|>|>=)\s[^;\n]{0,40}?\b(threshold|bar|flag|up)\b/,
  /\b(threshold|bar|flag)\b[^;\n]{0,40}?\s(<|<=|>|>=)\s[^;\n]{0,40}?ratio\b/,
  /(?<![=!<>])=\s*'(regression|improvement)'|[?:]\s*'(regression|improvement)'|\breturn\s+'(regression|improvement)'/,
];

function decisionLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => !l.startsWith('//') && !l.startsWith('*') && !l.startsWith('/*'))
    .filter((l) => DECISIONS.some((r) => r.test(l)));
}

describe('src layering', () => {
  it('has no import cycle between folders', () => {
    expect(cycles(folderGraph())).toEqual([]);
  });

  it('keeps verdicts out of report and run: report renders, run measures', () => {
    const g = folderGraph();
    expect([...(g.get('verdict') ?? [])].filter((f) => f === 'report' || f === 'run' || f === 'action' || f === 'pipeline')).toEqual([]);
    for (const f of files(join(SRC, 'report'))) expect(readFileSync(f, 'utf8')).not.toMatch(/\bjudgeWall\(|compareLogRatios|unpairedHistory/);
  });

  it('decides in src/verdict only: no other file compares a p or q with alpha, a ratio with a threshold, or sets a verdict', () => {
    const outside = files(SRC).filter((f) => folderOf(f) !== 'verdict');
    // The check reads src/run, src/pipeline, src/stats, src/report and src/action, not a subset.
    for (const folder of ['run', 'pipeline', 'stats', 'report', 'action', 'history'])
      expect(
        outside.some((f) => folderOf(f) === folder),
        folder,
      ).toBe(true);
    const found = outside.flatMap((f) => decisionLines(readFileSync(f, 'utf8')).map((l) => `${relative(SRC, f)}: ${l}`));
    expect(found).toEqual([]);
    expect(files(join(SRC, 'verdict')).flatMap((f) => decisionLines(readFileSync(f, 'utf8'))).length).toBeGreaterThan(3);
  });

  it('catches a decision put into src/run', () => {
    for (const line of [
      "if (q < o.alpha && ratio > 1 + o.threshold) row.verdict = 'regression';",
      'const slower = r.q! <= alpha;',
      'const changed = Math.abs(counts.ratio - 1) >= threshold;',
      "const v: Verdict = ratio >= 1 + bar ? 'regression' : '~';",
      "return { ...row, verdict: 'improvement' };",
      "if (spread === 0) return 'regression';",
    ])
      expect(decisionLines(`// src/run/example.ts\n${line}\n`), line).toEqual([line]);
    expect(decisionLines("if (rowVerdict(r) === 'regression') n++;\nconst by = flaggedBy(r, 'regression');\n// q < alpha decides\n")).toEqual([]);
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
