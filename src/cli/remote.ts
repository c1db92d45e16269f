// One line for a local history remote that does not serve: a missing path, a folder that is no git
// repository, a repository without the history branch. Said with the remote's name and the fix,
// instead of git's own multi-line error (site, history publish). An address (https, ssh) is left to
// git, which a publish hands its token; its error is cut to its first line.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { childEnv } from '../child/env.js';
import { redact } from '../history/git.js';

/** `git ls-remote --heads` of the branches matching `patterns`, quietly; null when git fails. */
function lsRemote(remote: string, patterns: readonly string[] = []): string | null {
  try {
    return execFileSync('git', ['ls-remote', '--heads', '--', remote, ...patterns], {
      encoding: 'utf8',
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 60_000,
    });
  } catch {
    return null;
  }
}

const looksLocal = (remote: string) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(remote) && !/^[^/\s]+@[^/\s]+:/.test(remote);

/**
 * Why `remote` cannot serve as a history remote; with `branch`, also when it lacks that branch.
 * Undefined when it serves. `publishing`: the branch will be created, so a missing one is fine.
 */
export function remoteProblem(remote: string, branch?: string, publishing = false): string | undefined {
  // An address is git's to reach (with the token a publish hands it); a path is checked here.
  if (!looksLocal(remote)) return undefined;
  const shown = redact(remote);
  if (!existsSync(resolve(remote)))
    return `--remote ${shown}: no such folder; make a history repository there with \`git init --bare ${shown}\`, then \`bee-bench history publish --remote ${shown} out/results\``;
  if (lsRemote(remote) === null) return `--remote ${shown}: not a git repository; give a repository (make one with \`git init --bare ${shown}\`)`;
  if (branch !== undefined && !publishing && !(lsRemote(remote, [branch]) ?? '').trim())
    return `--remote ${shown}: no branch ${branch} here yet; publish to it first with \`bee-bench history publish --remote ${shown} out/results\` (or name another with --history-branch)`;
  return undefined;
}
