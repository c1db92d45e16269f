// The sticky PR comment (DESIGN.md section 6): one comment per (workflow, client), found again by
// its hidden marker and edited in place. All of the issue's comments are searched (paginated), the
// oldest match is the sticky one, and a comment is created only when none exists.
import { markerComment } from '../report/ab-comment.js';
import type { Octokit, RepoRef } from './octokit.js';

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
}

/** Every comment on the issue whose body carries the marker, oldest first. */
export async function findMarked(gh: Octokit, ref: RepoRef, issue: number, marker: string): Promise<FoundComment[]> {
  const needle = markerComment(marker);
  const all = await gh.paginate(gh.rest.issues.listComments, { owner: ref.owner, repo: ref.repo, issue_number: issue, per_page: 100 });
  return all
    .filter((c) => typeof c.body === 'string' && c.body.includes(needle))
    .sort((a, b) => a.id - b.id)
    .map((c) => ({ id: c.id, url: c.html_url, body: c.body ?? '' }));
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
  const found = await findMarked(gh, req, req.issue, req.marker);
  if (found.length > 1) log(`comment: ${found.length} comments carry the marker; editing the oldest (${found[0]!.id})`);
  const sticky = found[0];
  if (sticky) {
    if (sticky.body === body) return { action: 'unchanged', id: sticky.id, url: sticky.url };
    const { data } = await gh.rest.issues.updateComment({ owner: req.owner, repo: req.repo, comment_id: sticky.id, body });
    return { action: 'updated', id: data.id, url: data.html_url };
  }
  if (req.policy === 'on-change' && !req.changed) {
    return { action: 'skipped', reason: 'comment: on-change, nothing changed and no earlier comment to update' };
  }
  const { data } = await gh.rest.issues.createComment({ owner: req.owner, repo: req.repo, issue_number: req.issue, body });
  return { action: 'created', id: data.id, url: data.html_url };
}
