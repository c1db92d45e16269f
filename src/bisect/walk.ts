// The commits bisect walks: the first-parent history from the good ref (excluded) to the bad ref
// (included), oldest first, read with real git. First-parent because on a default branch each
// first-parent commit is one landed change (a merge of a PR counts once, as it landed). Git runs
// through the history store's runner (src/history/git.ts): no prompts, hooks or machine config,
// and the scrubbed child environment.
import { gitIn, type Git } from '../history/git.js';

export interface Commit {
  sha: string;
  subject: string;
}

const commitOf = (line: string): Commit => {
  const [sha, ...subject] = line.split('\t');
  return { sha: sha!, subject: subject.join('\t') };
};

async function resolveCommit(git: Git, ref: string, flag: string): Promise<Commit> {
  const r = await git(['log', '-1', '--format=%H%x09%s', '--end-of-options', `${ref}^{commit}`], { allowFail: true });
  if (!r.ok) throw new Error(`${flag} ${ref}: not a commit in ${git.cwd} (${r.stderr.trim().split('\n').at(-1) ?? ''})`);
  return commitOf(r.stdout.trim());
}

export async function firstParentRange(repo: string, good: string, bad: string): Promise<{ good: Commit; bad: Commit; commits: Commit[] }> {
  const git = gitIn(repo);
  const g = await resolveCommit(git, good, '--good');
  const b = await resolveCommit(git, bad, '--bad');
  if (!(await git(['merge-base', '--is-ancestor', g.sha, b.sha], { allowFail: true })).ok) {
    throw new Error(`--good ${good} is not an ancestor of --bad ${bad}: bisect walks from an older good commit to a newer bad one`);
  }
  const out = await git(['log', '--first-parent', '--reverse', '--format=%H%x09%s', `${g.sha}..${b.sha}`]);
  return { good: g, bad: b, commits: out.split('\n').filter(Boolean).map(commitOf) };
}
