// bee-bench bisect for real: a git repository made from the published bee-rs crate source, nine
// commits (the import and eight changes), one of which makes the BMT chunk address compute its
// root twice. The rs runner is built against each probed commit (--rs-client's path build) and
// every step is a paired A/B against the good commit. Commit dates are fixed (client-repo.ts), so
// the shas, and the build cache keys, repeat across runs. Bisect names that commit within 4 steps,
// and a range before it ends in "no change found".
import { appendFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { abStepComparator } from '../../src/bisect/step-probe.js';
import { renderBisectMarkdown } from '../../src/bisect/report.js';
import { bisect } from '../../src/bisect/run.js';
import { main } from '../../src/cli.js';
import { beeRsCrateDir, git, slowDownBmt } from '../action/client-repo.js';

const ROOT = process.cwd();
const SPEC = join(ROOT, 'spec', 'bench-spec.json');
const CASE = 'cpu.keccak.chunk-hash';
const ROUNDS = 6;
const THRESHOLD = 0.1;

const SLOW_FROM = 6;
let repo: string;
const shas: string[] = [];

function commit(message: string): void {
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
  shas.push(git(repo, 'rev-parse', 'HEAD'));
}

beforeAll(() => {
  repo = join(mkdtempSync(join(tmpdir(), 'bee-bench-bisect-repo-')), 'bee-rs');
  cpSync(beeRsCrateDir(), repo, { recursive: true, filter: (src) => !src.endsWith('.cargo-ok') });
  git(repo, 'init', '-q');
  commit('bee-rs as published on crates.io');
  for (let i = 1; i <= 8; i++) {
    if (i === SLOW_FROM) {
      slowDownBmt(repo);
      commit('bmt: hash each chunk twice (the slowdown)');
    } else {
      appendFileSync(join(repo, 'src', 'lib.rs'), `\n// change ${i}: harmless\n`);
      writeFileSync(join(repo, `NOTES-${i}.md`), `note ${i}\n`);
      commit(`change ${i}: a note and a comment`);
    }
  }
});

const compare = (outDir: string) =>
  abStepComparator({
    specFile: SPEC,
    profile: 'quick',
    cases: [CASE],
    outDir,
    runner: 'rs',
    rounds: ROUNDS,
    alpha: 0.05,
    threshold: THRESHOLD,
    runBudgetMs: 20 * 60_000,
    log: () => {},
  });

describe('bisect on a bee-rs history', () => {
  it(
    'names the slowed commit in at most 4 steps',
    async () => {
      const lines: string[] = [];
      const out = await bisect({
        repo,
        good: shas[0]!,
        bad: 'main',
        compare: compare(mkdtempSync(join(tmpdir(), 'bee-bench-bisect-out-'))),
        log: (l) => lines.push(l),
      });
      const md = renderBisectMarkdown(out, { runner: 'rs', cases: [CASE], threshold: THRESHOLD, measure: 'wall time' });
      console.log(`${md}\n(wall time ${(out.elapsedMs / 1000).toFixed(0)} s)`);
      expect(out.range.map((c) => c.sha)).toEqual(shas.slice(1));
      expect(out.first?.sha).toBe(shas[SLOW_FROM]);
      expect(out.steps.length).toBeLessThanOrEqual(4);
      const slowed = out.steps.find((s) => s.commit.sha === shas[SLOW_FROM])!;
      expect(slowed.ratio!).toBeGreaterThan(1 + THRESHOLD);
      expect(out.steps.filter((s) => s.exceeds).every((s) => shas.indexOf(s.commit.sha) >= SLOW_FROM)).toBe(true);
      expect(md).toContain(`First commit whose change exceeds`);
      expect(md).toContain(shas[SLOW_FROM]!.slice(0, 12));
      expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
    },
    40 * 60_000,
  );

  it(
    'the CLI says "no change found" on a range before the slowdown',
    async () => {
      const outDir = mkdtempSync(join(tmpdir(), 'bee-bench-bisect-cli-'));
      const write = process.stdout.write.bind(process.stdout);
      let printed = '';
      process.stdout.write = ((chunk: string) => ((printed += chunk), true)) as typeof process.stdout.write;
      let code: number;
      try {
        code = await main([
          'bisect',
          '--runner',
          'rs',
          '--good',
          shas[2]!,
          '--bad',
          shas[SLOW_FROM - 1]!,
          '--case',
          CASE,
          '--path',
          repo,
          '--rounds',
          String(ROUNDS),
          '--alpha',
          '0.05',
          '--threshold',
          String(THRESHOLD),
          '--out',
          outDir,
        ]);
      } finally {
        process.stdout.write = write;
      }
      expect(code).toBe(0);
      expect(printed).toMatch(/No change found/);
      expect(printed).toMatch(/Total time: /);
      expect(readFileSync(join(outDir, 'bisect.md'), 'utf8')).toBe(printed);
    },
    40 * 60_000,
  );
});
