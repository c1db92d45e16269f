// Which commits a job holding a write-capable token may build. Client code runs with the job's
// privileges (a build script can read its parent's /proc/<pid>/environ and the runner's files), so
// such a job builds only commits reachable from the repository's own branches or tags: code that
// someone with push access put there. Everything else (a fork's PR head given as head-ref, a
// refs/pull/N/* commit, a bisect ref) belongs in the read-only measure job of the two-job setup.
import { git, headSha, isShallow, resolveRef } from './checkout.js';
import { isForkPr, PullRequestEventSchema, type RunContext } from './context.js';
import type { ActionInputs } from './inputs.js';

/** Where the fetched branch and tag tips are kept, apart from the checkout's own refs. */
const TRUSTED_NS = 'refs/bee-bench/trusted';

export const TWO_JOB_FIX =
  'measure in a job without a write token (permissions: contents: read, no github-token) and publish with mode: publish in a second job (docs/action.md, "Two jobs: measure, then publish")';

/**
 * Whether the job holds a token that can write: any github-token, except on a pull_request from a
 * fork, where GitHub hands out a read-only token and no secrets.
 */
export function holdsWriteToken(inputs: Pick<ActionInputs, 'token'>, ctx: Pick<RunContext, 'eventName' | 'payload'>): boolean {
  if (!inputs.token) return false;
  if (ctx.eventName === 'pull_request') {
    const ev = PullRequestEventSchema.safeParse(ctx.payload);
    if (ev.success && isForkPr(ev.data)) return false;
  }
  return true;
}

async function hasRemote(repo: string, name: string): Promise<boolean> {
  return (await git(repo, ['remote'])).split('\n').includes(name);
}

/**
 * Why `sha` is not trusted, or undefined when a branch or tag of the repository contains it. The
 * repository is `origin` (as actions/checkout sets it up); a checkout without one (a local run) is
 * judged by its own branches and tags.
 */
export async function untrustedReason(repo: string, sha: string, log: (l: string) => void): Promise<string | undefined> {
  let namespace = 'refs/heads/ refs/tags/';
  if (await hasRemote(repo, 'origin')) {
    // Fast path: the commit is a branch or tag tip of origin (a push, a dispatch of a branch).
    const tips = (await git(repo, ['ls-remote', '--heads', '--tags', 'origin'])).split('\n').map((l) => l.split('\t')[0]);
    if (tips.includes(sha)) return undefined;
    log(`trust: ${sha.slice(0, 12)} is no branch or tag tip of origin; fetching origin's branches and tags to look for it in their history`);
    const refspecs = [`+refs/heads/*:${TRUSTED_NS}/heads/*`, `+refs/tags/*:${TRUSTED_NS}/tags/*`];
    await git(repo, ['fetch', '--quiet', '--no-tags', ...((await isShallow(repo)) ? ['--unshallow'] : []), 'origin', ...refspecs]);
    namespace = `${TRUSTED_NS}/`;
  }
  const containing = await git(repo, ['for-each-ref', '--count=1', '--format=%(refname)', '--contains', sha, ...namespace.split(' ')]);
  if (containing) return undefined;
  return `${sha.slice(0, 12)} is on no branch or tag of ${namespace.startsWith(TRUSTED_NS) ? 'origin' : 'this repository'} (a pull request's or a fork's commit?)`;
}

export interface RefToCheck {
  /** The input (or "the checkout at <path>") the commit came from. */
  from: string;
  ref: string;
  sha: string;
}

/**
 * Every commit this run would build: the checkout, head-ref, base-ref (and bisect's good and bad,
 * which are the same inputs; the commits between them are ancestors of bad).
 */
export async function refsToBuild(inputs: Pick<ActionInputs, 'path' | 'headRef' | 'baseRef'>, log: (l: string) => void): Promise<RefToCheck[]> {
  const refs: RefToCheck[] = [];
  const checkout = await headSha(inputs.path);
  refs.push({ from: `the checkout at ${inputs.path}`, ref: 'HEAD', sha: checkout });
  if (inputs.headRef) refs.push({ from: 'input "head-ref"', ref: inputs.headRef, sha: await resolveRef(inputs.path, inputs.headRef, log) });
  if (inputs.baseRef) refs.push({ from: 'input "base-ref"', ref: inputs.baseRef, sha: await resolveRef(inputs.path, inputs.baseRef, log) });
  return refs;
}

/** Throws naming the first ref that is not the repository's own code, why, and the fix. */
export async function refuseUntrustedRefs(inputs: Pick<ActionInputs, 'path' | 'headRef' | 'baseRef'>, log: (l: string) => void): Promise<void> {
  for (const r of await refsToBuild(inputs, log)) {
    const why = await untrustedReason(inputs.path, r.sha, log);
    if (why) {
      throw new Error(
        `refused to build ${r.from} (${r.ref === 'HEAD' ? r.sha.slice(0, 12) : `"${r.ref}" = ${r.sha.slice(0, 12)}`}): ${why}, and this job holds a write-capable github-token that the built code could read. Fix: ${TWO_JOB_FIX}`,
      );
    }
    log(`trust: ${r.from} (${r.sha.slice(0, 12)}) is on a branch or tag of the repository`);
  }
}
