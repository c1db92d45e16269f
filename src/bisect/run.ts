// bee-bench bisect: which first-parent commit between a good and a bad ref made a case slower.
// Each probed commit is checked out in its own worktree (real git) and compared with the good ref
// by the injected step comparator; the search is search.ts. The named commit is then explained
// against its parent by the injected explainer (difference.ts). Worktrees are removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitIn } from '../history/git.js';
import type { BisectDifference, Explainer } from './difference.js';
import type { StepComparator, Checkout } from './step-probe.js';
import { firstExceeding, type SearchOutcome, type Step } from './search.js';
import { firstParentRange, type Commit } from './walk.js';

export interface BisectOptions {
  repo: string;
  good: string;
  bad: string;
  compare: StepComparator;
  /** After the walk names a commit: what it changed against its parent (difference.ts). */
  explain?: Explainer;
  /** Where the worktrees go (default: a fresh temporary folder, removed afterwards). */
  workDir?: string;
  log: (line: string) => void;
}

export interface BisectOutcome extends SearchOutcome<Commit> {
  good: Commit;
  bad: Commit;
  /** First-parent commits after good, up to and including bad. */
  range: Commit[];
  elapsedMs: number;
  /** The named commit's difference against its parent for the walked row, when explain made one. */
  difference?: BisectDifference;
}

export async function bisect(o: BisectOptions): Promise<BisectOutcome> {
  const started = performance.now();
  const { good, bad, commits } = await firstParentRange(o.repo, o.good, o.bad);
  o.log(`bisect: ${commits.length} first-parent commit(s) after ${good.sha.slice(0, 12)} up to ${bad.sha.slice(0, 12)}`);
  const workDir = o.workDir ?? mkdtempSync(join(tmpdir(), 'bee-bench-bisect-'));
  const git = gitIn(o.repo);
  const made: string[] = [];
  const removeWorktree = (dir: string) => git(['worktree', 'remove', '--force', dir], { allowFail: true });
  const checkout = async (c: Commit): Promise<Checkout> => {
    const dir = join(workDir, c.sha.slice(0, 16));
    await removeWorktree(dir);
    await git(['worktree', 'prune']);
    await git(['worktree', 'add', '--detach', dir, c.sha]);
    made.push(dir);
    o.log(`git: worktree ${dir} at ${c.sha.slice(0, 12)}`);
    return { commit: c, path: dir };
  };
  try {
    const goodCheckout = await checkout(good);
    // The named commit against its parent: the commit before it in the walk (its first parent).
    const explainFirst = async (first: Commit, steps: ReadonlyArray<Step<Commit>>): Promise<BisectDifference | null> => {
      const at = commits.indexOf(first);
      const parent = at > 0 ? commits[at - 1]! : good;
      const number = steps.findIndex((s) => s.commit === first) + 1;
      try {
        const parentCheckout = parent === good ? goodCheckout : await checkout(parent);
        return await o.explain!(parentCheckout, await checkout(first), { number, probe: steps[number - 1]!, against: good });
      } catch (e) {
        o.log(`bisect: no difference for ${first.sha.slice(0, 12)}: ${e instanceof Error ? e.message : String(e)}`);
        return null;
      }
    };
    let step = 0;
    const outcome = await firstExceeding(commits, async (c) => {
      step++;
      const position = commits.indexOf(c) + 1;
      o.log(`bisect: step ${step}: ${c.sha.slice(0, 12)} (${position}/${commits.length}) against ${good.sha.slice(0, 12)}`);
      const candidate = await checkout(c);
      try {
        const p = await o.compare(goodCheckout, candidate, step);
        o.log(`bisect: step ${step}: ${p.exceeds ? 'exceeds the threshold' : 'within the threshold'} (${p.verdict})`);
        return p;
      } finally {
        await removeWorktree(candidate.path);
      }
    });
    const difference = outcome.first && o.explain ? await explainFirst(outcome.first, outcome.steps) : null;
    return { ...outcome, good, bad, range: commits, elapsedMs: performance.now() - started, ...(difference ? { difference } : {}) };
  } finally {
    for (const dir of made) await removeWorktree(dir);
    if (!o.workDir) rmSync(workDir, { recursive: true, force: true });
  }
}
