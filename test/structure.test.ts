// Folders of src/ import each other without cycles (one concern per folder, layered), and every
// decision lives in src/verdict only: src/stats computes, src/run measures, src/pipeline
// orchestrates, src/report renders.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METRIC_FAMILIES } from '../src/evidence/history-metrics.js';

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

/**
 * What src/report must not hold besides: a figure held against a named threshold (an UPPER_CASE
 * constant), a measured figure (ratio, spread, growth, cv, cpu/wall, load) against a number other
 * than 0 or 1 (a sign is wording: faster or slower), or a memory story set. Rendering compares
 * counts and lengths, never a measurement with a bar.
 */
const THRESHOLDS = [
  /\s(<|<=|>|>=)\s*-?[\d.]*\s*\*?\s*[A-Z][A-Z0-9]*_[A-Z0-9_]+\b(?!\.length)/,
  /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b(\s*\*\s*[\w.]+)?\s(<|<=|>|>=)\s/,
  /\b(ratio|spread|growth|cv|cpuWallRatio|loadAverage)\b[^;<>=\n]{0,16}(<|<=|>|>=)\s*(?!(?:0|1)(?![.\d]))\d[\d.]*/,
  /(?<![=!<>])=\s*'(transient|retained)'|[?:]\s*'(transient|retained)'|\breturn\s+'(transient|retained)'/,
];

function codeLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => !l.startsWith('//') && !l.startsWith('*') && !l.startsWith('/*'));
}

function decisionLines(text: string): string[] {
  return codeLines(text).filter((l) => DECISIONS.some((r) => r.test(l)));
}

function thresholdLines(text: string): string[] {
  return codeLines(text).filter((l) => THRESHOLDS.some((r) => r.test(l)));
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
  it('keeps thresholds out of src/report: no figure held against a bar, no memory story set', () => {
    const report = files(join(SRC, 'report'));
    expect(report.length).toBeGreaterThan(10);
    expect(report.flatMap((f) => thresholdLines(readFileSync(f, 'utf8')).map((l) => `${relative(SRC, f)}: ${l}`))).toEqual([]);
    // The rules the report once held are found where they live now.
    expect(thresholdLines(readFileSync(join(SRC, 'verdict', 'memory.ts'), 'utf8')).length).toBeGreaterThanOrEqual(2);
    expect(thresholdLines(readFileSync(join(SRC, 'verdict', 'descriptive.ts'), 'utf8')).length).toBeGreaterThanOrEqual(2);
  });

  it('catches a threshold put into src/report', () => {
    for (const line of [
      'const flaky = !timerBound && Number.parseFloat(shown) > FLAKY_SPREAD * 100;',
      'if (growth < TRANSIENT_BELOW * bytesPerIteration) return undefined;',
      'const timerBound = cell.medianNs < TIMER_BOUND_NS;',
      "const waited = row.kind === 'cpu' && cell.cpuWallRatio < 0.9;",
      'if (Math.abs(ratio - 1) > 0.2) flagged = true;',
      "if (growth >= bytesPerIteration) cell.alloc.story = 'retained';",
      "return 'transient';",
      'const loaded = e.loadAverage[1] > e.cpus || spread >= 0.5;',
    ])
      expect(thresholdLines(`// src/report/model/example.ts\n${line}\n`), line).toEqual([line]);
    // Counting and laying out is not deciding.
    expect(
      thresholdLines(
        "if (failures.length > SHOWN) lines.push('more');\nif (!(max / min > 10)) return linear;\nconst contested = ok.length >= 2;\n// ratio > 0.2 decides\n",
      ),
    ).toEqual([]);
  });

  it('crosses into runners/ only for the callgrind dump reader, and runners/js never reaches out of its folder', () => {
    const intoRunners = files(SRC).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)]
        .map((m) => relative(process.cwd(), normalize(join(dirname(f), m[1]!))))
        .filter((to) => to.startsWith('runners/'))
        .map((to) => `${relative(SRC, f)} -> ${to}`),
    );
    expect(intoRunners).toEqual(['count/callgrind.ts -> runners/js/src/callgrind-costs.mjs']);
    // The js runner is built from a copy of runners/js alone: an import out of it would break there.
    const JS = join(process.cwd(), 'runners', 'js');
    const jsFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.name === 'node_modules' ? [] : e.isDirectory() ? jsFiles(join(dir, e.name)) : /\.m?js$/.test(e.name) ? [join(dir, e.name)] : [],
      );
    const out = jsFiles(JS).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/(?:from|import\()\s*'(\.\.?\/[^']+)'/g)]
        .filter((m) => relative(JS, normalize(join(dirname(f), m[1]!))).startsWith('..'))
        .map((m) => `${relative(JS, f)} -> ${m[1]}`),
    );
    expect(jsFiles(JS).length).toBeGreaterThan(10);
    expect(out).toEqual([]);
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

/** A string literal that is an evidence kind ('wall', 'instructions', 'allocations', 'cycles'), on a code line. */
const KIND_LITERAL = /(['"`])(wall|instructions|allocations|cycles)\1/;
const kindLines = (text: string) => codeLines(text).filter((l) => KIND_LITERAL.test(l));

/**
 * Files outside src/evidence and src/spec/measure.ts (the list of kinds) that may name a kind by its
 * literal, each for a reason a record cannot carry.
 */
const KIND_ALLOWED: Record<string, string> = {
  // `--measure` defaults to the flag's own text ("wall"), parsed by MeasureSchema like any value.
  'cli/flags.ts': 'the CLI flag default',
  // Flag and input names carry the evidence they set (--instructions-floor, `allocations-floor:`): user-facing names, kept.
  'cli/commands/ab.ts': 'the per-evidence floor flags',
  'action/inputs.ts': 'the per-evidence floor inputs',
  // Stored formats read back for compatibility: history records' `instructions` field and their v1 refusal.
  'history/schema.ts': 'zod schema of stored history records',
  'history/record.ts': 'the stored record field of counts',
  'history/gab.ts': 'the stored record field of counts (imported benches)',
  // Which figure a callgrind dump is read for (its Ir, or Ir with the cache misses weighed in).
  'count/callgrind.ts': "a dump's figure",
  'run/count.ts': "a dump's figure (the cycles of a cache-simulating run)",
  // A bisect step measures one figure, instruction counts where callgrind is and wall time
  // otherwise: a choice between two named evidences, not a loop over the registry.
  'bisect/step-probe.ts': "the bisect's choice of a step's figure",
  // A pprof file's sample type is named "instructions" by the format, not by the evidence.
  'profile/pprof.ts': "pprof's sample type name",
  // A word of the alert's text ("1.00% more instructions"), not a kind.
  'alert/body.ts': 'a noun of the change text',
};

describe('evidence kinds', () => {
  it('are named by their literal only in src/evidence, the measure list and the justified exceptions', () => {
    const naming = files(SRC)
      .filter((f) => folderOf(f) !== 'evidence' && relative(SRC, f) !== join('spec', 'measure.ts'))
      .filter((f) => kindLines(readFileSync(f, 'utf8')).length > 0)
      .map((f) => relative(SRC, f));
    expect(naming.filter((f) => !(f in KIND_ALLOWED))).toEqual([]);
    // The lists stay exact: an entry whose file no longer names a kind goes.
    expect(Object.keys(KIND_ALLOWED).filter((f) => !naming.includes(f))).toEqual([]);
  });

  it('are not named by the renderers, the A/B model and report, the cost model or the fail-on rule', () => {
    const guarded = [
      ...files(join(SRC, 'report')),
      join(SRC, 'ab', 'report.ts'),
      join(SRC, 'ab', 'history-baseline.ts'),
      join(SRC, 'shard', 'cost.ts'),
      join(SRC, 'verdict', 'fail-on.ts'),
    ];
    expect(guarded.flatMap((f) => kindLines(readFileSync(f, 'utf8')).map((l) => `${relative(SRC, f)}: ${l}`))).toEqual([]);
  });

  it('are not named by the trend site: it words and scales history metrics from the families list', () => {
    const site = files(join(process.cwd(), 'pages', 'src'));
    const units = METRIC_FAMILIES.flatMap((f) => [f.perIteration, f.perOp]);
    const unitPrefix = new RegExp(`(['"\`])(${[...new Set(units.map((u) => u.slice(0, u.indexOf('/') + 1)))].map((p) => p.replace('/', '\\/')).join('|')})`);
    const naming = site.flatMap((f) =>
      codeLines(readFileSync(f, 'utf8'))
        .filter((l) => unitPrefix.test(l) || kindLines(l).length > 0)
        .map((l) => `${relative(process.cwd(), f)}: ${l.trim()}`),
    );
    expect(site.length).toBeGreaterThan(10);
    // The series point's stored field of counts (a stored format, as in history/schema.ts) is the one exception.
    expect(naming).toEqual(["pages/src/caseview.ts: 'instructions',"]);
  });

  it('catches a kind named by its literal', () => {
    expect(kindLines("if (k === 'instructions') cells.push(x);\n// 'wall' in a comment\nconst label = 'wall time';\n")).toEqual([
      "if (k === 'instructions') cells.push(x);",
    ]);
  });
});

describe('source files', () => {
  it('open with a comment that says what they are for (engine, site, bench, tests and all three runners)', () => {
    const tracked = execFileSync('git', ['ls-files', 'src', 'pages/src', 'bench', 'scripts', 'test', 'runners'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.(ts|mts|mjs|go|rs)$/.test(f) && !f.endsWith('.d.mts') && existsSync(f));
    // A shebang may come first; then the first line is a comment.
    const silent = tracked.filter((f) => !/^(#![^\n]*\n)?(\/\/|\/\*)/.test(readFileSync(f, 'utf8')));
    expect(silent).toEqual([]);
    expect(tracked.length).toBeGreaterThan(300); // the check is not vacuous
  });
});
