// bee-bench bisect for real: a git repository made from the published bee-rs crate source, nine
// commits (the import and eight changes), one of which makes the BMT chunk address compute its
// root twice. The rs runner is built against each probed commit (--rs-client's path build) and
// every step is a paired A/B against the good commit. Commit dates are fixed (client-repo.ts), so
// the shas, and the build cache keys, repeat across runs. Bisect names that commit within 4 steps,
// and a range before it ends in "no change found". With instruction counts it also shows where the
// named commit moved against its parent: bmt_root, now called twice and no longer inlined, first.
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { abStepDifference } from '../../src/bisect/difference.js';
import { abStepComparator, type AbStepOptions } from '../../src/bisect/step-probe.js';
import { rowFolder } from '../../src/profile/index.js';
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
    size: 'quick',
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

describe('bisect with instruction counts: where the named commit moved', () => {
  // rustc inlines bmt_root into calculate_chunk_address while it is called once; the slowdown
  // calls it twice and it stays a function of its own: the doubled work shows as bmt_root (new),
  // and calculate_chunk_address loses the root it used to hold inlined.
  const CHANGED = 'bee::swarm::bmt::bmt_root';
  const EDITED = 'bee::swarm::bmt::calculate_chunk_address';
  const counted = (outDir: string, lines: string[]): AbStepOptions => ({
    specFile: SPEC,
    size: 'quick',
    cases: [CASE],
    outDir,
    runner: 'rs',
    rounds: 1,
    alpha: 0.05,
    threshold: THRESHOLD,
    runBudgetMs: 20 * 60_000,
    measure: ['instructions'],
    log: (l) => lines.push(l),
  });
  const walk = async (good: string, bad: string) => {
    const outDir = mkdtempSync(join(tmpdir(), 'bee-bench-bisect-counts-'));
    const lines: string[] = [];
    const o = counted(outDir, lines);
    const out = await bisect({ repo, good, bad, compare: abStepComparator(o), explain: abStepDifference(o), log: (l) => lines.push(l) });
    const md = renderBisectMarkdown(out, { runner: 'rs', cases: [CASE], threshold: THRESHOLD, measure: 'instruction counts under callgrind' });
    return { out, md, outDir, lines };
  };

  it(
    'profiles the named commit against its parent with one more counted run per side, the changed function first',
    async () => {
      // good = commit 4: the named commit 6's parent is commit 5, which no step compared it with.
      const { out, md, outDir, lines } = await walk(shas[4]!, shas[7]!);
      console.log(md);
      expect(out.first?.sha, lines.slice(-20).join('\n')).toBe(shas[SLOW_FROM]);
      const d = out.difference!;
      expect(d).toMatchObject({ from: 'counted', parent: { sha: shas[SLOW_FROM - 1] }, first: { sha: shas[SLOW_FROM] }, row: { caseId: CASE } });
      expect(d.diff!.total.head).toBeGreaterThan(d.diff!.total.base * 1.5);
      expect(d.diff!.own[0]).toMatchObject({ name: CHANGED, status: 'new' });
      expect(d.diff!.own.map((l) => l.name)).toContain(EDITED);
      expect(md).toContain('### Where it moved');
      expect(md).toContain(`against its parent \`${shas[SLOW_FROM - 1]!.slice(0, 12)}\``);
      // The client-function table's first line names the changed function.
      expect(md.split('| client function')[1]!.split('\n')[2]).toMatch(new RegExp(`^\\| \`${CHANGED}\` 🆕 \\|`));
      const dir = join(outDir, 'profiles', rowFolder(d.row));
      expect(d.files).toBe(join('profiles', rowFolder(d.row)));
      for (const f of ['callgrind.out.base', 'callgrind.out.head', 'base.pb.gz', 'head.pb.gz', 'diff.json', 'diff.html'])
        expect(existsSync(join(dir, f)), f).toBe(true);
      expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
    },
    40 * 60_000,
  );

  it(
    "takes the step's own profile when the parent is the good ref",
    async () => {
      const { out, md, outDir } = await walk(shas[SLOW_FROM - 1]!, shas[SLOW_FROM]!);
      expect(out.steps).toHaveLength(1);
      const d = out.difference!;
      expect(d).toMatchObject({ from: 'step', parent: { sha: shas[SLOW_FROM - 1] } });
      expect(d.diff!.own[0]).toMatchObject({ name: CHANGED, status: 'new' });
      expect(md).toContain('from the counting runs of the step that named it');
      expect(existsSync(join(outDir, 'profiles', rowFolder(d.row), 'diff.html'))).toBe(true);
    },
    40 * 60_000,
  );
});
