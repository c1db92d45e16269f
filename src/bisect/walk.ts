// The commits bisect walks: the first-parent history from the good ref (excluded) to the bad ref
// (included), oldest first, read with real git. First-parent because on a default branch each
// first-parent commit is one landed change (a merge of a PR counts once, as it landed).
import { git, GitError } from '../action/git.js';

export interface Commit {
  sha: string;
  subject: string;
}

export async function firstParentRange(repo: string, good: string, bad: string): Promise<{ good: Commit; bad: Commit; commits: Commit[] }> {
  const resolve = async (ref: string, flag: string): Promise<Commit> => {
    try {
      const [sha, ...subject] = (await git(repo, ['log', '-1', '--format=%H%x09%s', '--end-of-options', `${ref}^{commit}`])).split('\t');
      return { sha: sha!, subject: subject.join('\t') };
    } catch (e) {
      throw new GitError(`${flag} ${ref}: not a commit in ${repo} (${e instanceof Error ? e.message : String(e)})`);
    }
  };
  const g = await resolve(good, '--good');
  const b = await resolve(bad, '--bad');
  const ancestor = await git(repo, ['merge-base', '--is-ancestor', g.sha, b.sha]).then(() => true, () => false);
  if (!ancestor) throw new GitError(`--good ${good} is not an ancestor of --bad ${bad}: bisect walks from an older good commit to a newer bad one`);
  const out = await git(repo, ['log', '--first-parent', '--reverse', '--format=%H%x09%s', `${g.sha}..${b.sha}`]);
  const commits = out.split('\n').filter(Boolean).map((line) => {
    const [sha, ...subject] = line.split('\t');
    return { sha: sha!, subject: subject.join('\t') };
  });
  return { good: g, bad: b, commits };
}
