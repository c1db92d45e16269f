// The sticky PR comment (docs/design.md, "PR comment"): one comment per (workflow, client), found again by
// its hidden marker and edited in place. All of the issue's comments are searched (paginated), the
// oldest match written by the token's own identity is the sticky one, and a comment is created
// only when none exists. Anyone can post a comment carrying the marker: one by another author is
// never edited (the report would land in their comment, under their name), and an edit GitHub
// refuses (403: the comment is locked, or not ours after all) is replaced by a new comment.
import { markerComment } from '../report/render/ab-comment.js';
import { httpStatus, type Octokit, type RepoRef } from './octokit.js';

/** The login of comments posted with a workflow's GITHUB_TOKEN. */
export const GITHUB_ACTIONS_LOGIN = 'github-actions[bot]';

/**
 * The login the token posts as: GET /user for a user's token; an installation token (the job's
 * GITHUB_TOKEN) cannot read /user (403) and posts as github-actions[bot].
 */
export async function tokenLogin(gh: Octokit): Promise<string> {
  try {
    return (await gh.rest.users.getAuthenticated()).data.login;
  } catch (e) {
    if (httpStatus(e) === 403) return GITHUB_ACTIONS_LOGIN;
    throw e;
  }
}

export type CommentPolicy = 'always' | 'on-change' | 'never';

export interface StickyRequest extends RepoRef {
  issue: number;
  /** The marker text as given to the report (bee-bench:<workflow>:<client>); wrapped by markerComment. */
  marker: string;
  body: string;
  policy: CommentPolicy;
  /** Whether the report has anything to say: a regression, improvement, new or missing row. */
  changed: boolean;
}

export interface StickyOutcome {
  action: 'created' | 'updated' | 'unchanged' | 'skipped';
  /** Why nothing was posted, when skipped. */
  reason?: string;
  id?: number;
  url?: string;
}

export interface FoundComment {
  id: number;
  url: string;
  body: string;
  /** The author's login (undefined for a deleted account). */
  author?: string;
}

/** Every comment on the issue whose body carries the marker, oldest first; with `author`, only theirs. */
export async function findMarked(gh: Octokit, ref: RepoRef, issue: number, marker: string, author?: string): Promise<FoundComment[]> {
  const needle = markerComment(marker);
  const all = await gh.paginate(gh.rest.issues.listComments, { owner: ref.owner, repo: ref.repo, issue_number: issue, per_page: 100 });
  return all
    .filter((c) => typeof c.body === 'string' && c.body.includes(needle))
    .filter((c) => author === undefined || c.user?.login === author)
    .sort((a, b) => a.id - b.id)
    .map((c) => ({ id: c.id, url: c.html_url, body: c.body ?? '', ...(c.user?.login ? { author: c.user.login } : {}) }));
}

/** The body with its marker first, exactly once. */
export function withMarker(body: string, marker: string): string {
  const m = markerComment(marker);
  const rest = body.split(m).join('').replace(/^\s+/, '');
  return `${m}\n${rest}`;
}

export async function upsertSticky(gh: Octokit, req: StickyRequest, log: (line: string) => void = () => {}): Promise<StickyOutcome> {
  if (req.policy === 'never') return { action: 'skipped', reason: 'comment: never' };
  const body = withMarker(req.body, req.marker);
  const me = await tokenLogin(gh);
  const marked = await findMarked(gh, req, req.issue, req.marker);
  const found = marked.filter((c) => c.author === me);
  const foreign = marked.length - found.length;
  if (foreign > 0) log(`comment: ignoring ${foreign} comment(s) with the marker by another author than ${me}`);
  if (found.length > 1) log(`comment: ${found.length} comments of ${me} carry the marker; editing the oldest (${found[0]!.id})`);
  const sticky = found[0];
  if (sticky) {
    if (sticky.body === body) return { action: 'unchanged', id: sticky.id, url: sticky.url };
    try {
      const { data } = await gh.rest.issues.updateComment({ owner: req.owner, repo: req.repo, comment_id: sticky.id, body });
      return { action: 'updated', id: data.id, url: data.html_url };
    } catch (e) {
      if (httpStatus(e) !== 403) throw e;
      log(`comment: editing ${sticky.id} was refused (403); posting a new comment instead`);
    }
  }
  if (req.policy === 'on-change' && !req.changed) {
    return { action: 'skipped', reason: 'comment: on-change, nothing changed and no earlier comment to update' };
  }
  const { data } = await gh.rest.issues.createComment({ owner: req.owner, repo: req.repo, issue_number: req.issue, body });
  return { action: 'created', id: data.id, url: data.html_url };
}
