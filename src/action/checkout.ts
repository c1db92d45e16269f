// The git the event flows need: make sure commits are present in a (possibly shallow) checkout,
// find a merge base by deepening the fetch step by step, and check a commit out in a worktree.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { childEnv } from '../child/env.js';

const exec = promisify(execFile);

export class GitError extends Error {
  override name = 'GitError';
}

export async function git(cwd: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await exec('git', ['-C', cwd, ...args], { maxBuffer: 64 << 20, env: childEnv({ GIT_TERMINAL_PROMPT: '0' }) });
    return stdout.trim();
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new GitError(`git ${args.join(' ')} (in ${cwd}) failed: ${(err.stderr ?? err.message).trim()}`);
  }
}

async function ok(cwd: string, args: readonly string[]): Promise<boolean> {
  try {
    await git(cwd, args);
    return true;
  } catch {
    return false;
  }
}

export const hasCommit = (cwd: string, sha: string) => ok(cwd, ['cat-file', '-e', `${sha}^{commit}`]);
export const isShallow = async (cwd: string) => (await git(cwd, ['rev-parse', '--is-shallow-repository'])) === 'true';
export const headSha = (cwd: string) => git(cwd, ['rev-parse', 'HEAD']);

/** Fetches the commits that are missing (by sha, as GitHub serves any reachable commit). */
export async function ensureCommits(cwd: string, shas: readonly string[], log: (l: string) => void, depth = 1): Promise<void> {
  const missing: string[] = [];
  for (const s of shas) if (!(await hasCommit(cwd, s))) missing.push(s);
  if (missing.length === 0) return;
  log(`git: fetching ${missing.map((s) => s.slice(0, 12)).join(', ')} from origin (depth ${depth})`);
  await git(cwd, ['fetch', '--no-tags', `--depth=${depth}`, 'origin', ...missing]);
}

/** Depths tried in turn before fetching the whole history. */
export const DEEPEN_STEPS = [16, 64, 256, 1024, 4096];

/**
 * The merge base of two commits, fetching what a shallow checkout lacks: both tips first, then
 * deeper history in steps until the histories meet, and at last everything.
 */
export async function mergeBase(cwd: string, base: string, head: string, log: (l: string) => void): Promise<string> {
  await ensureCommits(cwd, [base, head], log);
  const attempt = async () => {
    try {
      return await git(cwd, ['merge-base', base, head]);
    } catch {
      return undefined;
    }
  };
  let found = await attempt();
  for (const depth of DEEPEN_STEPS) {
    if (found || !(await isShallow(cwd))) break;
    log(`git: no merge base yet; fetching ${depth} commits of history behind both tips`);
    await git(cwd, ['fetch', '--no-tags', `--depth=${depth}`, 'origin', base, head]);
    found = await attempt();
  }
  if (!found && (await isShallow(cwd))) {
    log('git: no merge base in the deepened history; fetching all of it');
    await git(cwd, ['fetch', '--no-tags', '--unshallow', 'origin', base, head]);
    found = await attempt();
  }
  if (!found) throw new GitError(`${base.slice(0, 12)} and ${head.slice(0, 12)} have no common history`);
  return found;
}

/**
 * A ref or sha as a commit sha: resolved locally, or fetched from origin (a branch, a tag or a sha
 * the shallow checkout does not have).
 */
export async function resolveRef(cwd: string, ref: string, log: (l: string) => void): Promise<string> {
  for (const candidate of [ref, `origin/${ref}`]) {
    try {
      return await git(cwd, ['rev-parse', '--verify', '--end-of-options', `${candidate}^{commit}`]);
    } catch {
      // try the next form, then origin
    }
  }
  log(`git: fetching ${ref} from origin`);
  await git(cwd, ['fetch', '--no-tags', '--depth=1', 'origin', ref]);
  return git(cwd, ['rev-parse', '--verify', 'FETCH_HEAD^{commit}']);
}

/**
 * A clean, detached worktree of `sha` at `dir` (reused when it is already there at that commit and
 * clean, so a build cached against that folder stays valid).
 */
export async function worktree(repo: string, sha: string, dir: string, log: (l: string) => void): Promise<string> {
  if (existsSync(dir)) {
    const reusable =
      (await ok(dir, ['rev-parse', '--git-dir'])) &&
      (await headSha(dir).catch(() => '')) === sha &&
      (await git(dir, ['status', '--porcelain', '--untracked-files=no']).catch(() => 'x')) === '';
    if (reusable) {
      log(`git: reusing worktree ${dir} at ${sha.slice(0, 12)}`);
      return dir;
    }
    await git(repo, ['worktree', 'remove', '--force', dir]).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  await git(repo, ['worktree', 'prune']);
  mkdirSync(dirname(dir), { recursive: true });
  await git(repo, ['worktree', 'add', '--detach', dir, sha]);
  log(`git: worktree ${dir} at ${sha.slice(0, 12)}`);
  return dir;
}

export const worktreeDir = (temp: string, sha: string) => join(temp, 'bee-bench', 'worktrees', sha.slice(0, 16));
