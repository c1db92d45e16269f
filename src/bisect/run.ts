// bee-bench bisect: which first-parent commit between a good and a bad ref made a case slower.
// Each probed commit is checked out in its own worktree (real git) and compared with the good ref
// by the injected step comparator; the search is search.ts. Worktrees are removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, worktree } from '../action/git.js';
import type { StepComparator, Checkout } from './compare.js';
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
  const made: string[] = [];
  const checkout = async (c: Commit): Promise<Checkout> => {
    const dir = join(workDir, c.sha.slice(0, 16));
    made.push(await worktree(o.repo, c.sha, dir, o.log));
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
        await removeWorktree(o.repo, candidate.path);
      }
    });
    return { ...outcome, good, bad, range: commits, elapsedMs: performance.now() - started };
  } finally {
    for (const dir of made) await removeWorktree(o.repo, dir);
    if (!o.workDir) rmSync(workDir, { recursive: true, force: true });
  }
}

async function removeWorktree(repo: string, dir: string): Promise<void> {
  await git(repo, ['worktree', 'remove', '--force', dir]).catch(() => undefined);
}
