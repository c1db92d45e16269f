// bee-bench bisect: which first-parent commit between a good and a bad ref made a case slower.
// Each probed commit is checked out in its own worktree (real git) and compared with the good ref
// by the injected step comparator; the search is search.ts. Worktrees are removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitIn } from '../history/git.js';
import type { StepComparator, Checkout } from './step-probe.js';
import { firstExceeding, type SearchOutcome } from './search.js';
import { firstParentRange, type Commit } from './walk.js';

export interface BisectOptions {
  repo: string;
  good: string;
  bad: string;
  compare: StepComparator;
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
    return { ...outcome, good, bad, range: commits, elapsedMs: performance.now() - started };
  } finally {
    for (const dir of made) await removeWorktree(dir);
    if (!o.workDir) rmSync(workDir, { recursive: true, force: true });
  }
}
