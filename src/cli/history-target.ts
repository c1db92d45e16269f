// What the history commands share: the commit a local write is about, the history branch to write.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { defaultSpecPath } from '../build/paths.js';
import { childEnv, registerSecret } from '../child/env.js';
import { commitUrl, headCommit, type RecordContext } from '../history/index.js';
import { loadSpec } from '../spec/load.js';
import { log, num, UsageError, type FlagName, type Values } from './flags.js';
import { remoteProblem } from './remote.js';

/** The flags `historyTarget` reads: where the history is and how it is kept. */
export const HISTORY_FLAGS = ['remote', 'history-branch', 'folder', 'max-runs', 'default-branch', 'workdir', 'spec'] as const satisfies readonly FlagName[];
/** The flags `headContext` reads: which commit, branch and run a record is about. */
export const RECORD_CONTEXT_FLAGS = ['repo', 'ref', 'event', 'run-id', 'commit-url', 'repo-url'] as const satisfies readonly FlagName[];

/** The commit a local history write is about: HEAD of --repo, read with git. */
export function headContext(v: Values): RecordContext {
  let commit: RecordContext['commit'];
  try {
    commit = headCommit(resolve(v.repo));
  } catch {
    throw new UsageError(`--repo ${v.repo}: not a git checkout with a commit (history records name the commit they measured)`);
  }
  if (v['commit-url'] !== undefined && v['repo-url'] !== undefined) throw new UsageError('give --commit-url or --repo-url, not both');
  let url: string | undefined;
  try {
    url = commitUrl(commit.sha, { commitUrl: v['commit-url'], repoUrl: v['repo-url'] });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    commit: url ? { ...commit, url } : commit,
    branch: v.ref ?? execFileSync('git', ['-C', resolve(v.repo), 'rev-parse', '--abbrev-ref', 'HEAD'], { encoding: 'utf8', env: childEnv() }).trim(),
    event: v.event,
    run: { id: v['run-id'] ?? `local-${Date.now()}` },
  };
}

export function historyTarget(v: Values) {
  if (!v.remote)
    throw new UsageError('history needs --remote URL|PATH (the repository holding the history branch; a local one: `git init --bare ../bench-history`)');
  const problem = remoteProblem(v.remote, undefined, true);
  if (problem) throw new UsageError(problem);
  const maxRuns =
    v['max-runs'] === undefined ? undefined : num(v['max-runs'], 'max-runs', 0, (n) => Number.isInteger(n) && n > 0, 'a whole number of points per series');
  // A token for an https remote comes from the environment (git gets it as a header, never argv);
  // children drop inherited GIT_CONFIG_* entries, so that route no longer reaches git.
  const token = process.env.BEE_BENCH_HISTORY_TOKEN || undefined;
  registerSecret(token);
  return {
    remote: v.remote,
    ...(token ? { token } : {}),
    workdir: resolve(v.workdir ?? join('.bee-bench', 'history')),
    branch: v['history-branch'],
    folder: v.folder,
    maxRuns,
    ...(v['default-branch'] ? { defaultBranch: v['default-branch'] } : {}),
    spec: loadSpec(resolve(v.spec ?? defaultSpecPath())).spec,
    log,
  };
}
