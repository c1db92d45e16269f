// The sticky comment against the local API server (every request checked against GitHub's OpenAPI
// description): found by its marker across pages, created once, edited in place, never duplicated.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findMarked, upsertSticky, withMarker } from '../../src/github/comment.js';
import { makeOctokit } from '../../src/github/octokit.js';
import { fitSummary } from '../../src/github/summary.js';
import { markerComment } from '../../src/report/render/ab-comment.js';
import { GitHubApiServer } from './api-server.js';

const repo = { owner: 'ethersphere', repo: 'bee-js' };
let server: GitHubApiServer;
let base: string;

beforeAll(async () => {
  server = new GitHubApiServer({
    ...repo,
    tokens: { write: ['ghs_write', 'ghp_maintainer'], readOnly: ['ghs_read'] },
    users: { ghp_maintainer: 'octo-maintainer' },
  });
  base = await server.start();
});
afterAll(() => server.close());
beforeEach(() => {
  server.comments.length = 0;
  server.requests.length = 0;
});

const MARKER = 'bee-bench:bench:js';
const gh = () => makeOctokit('ghs_write', base);
const req = (body: string, extra: Partial<Parameters<typeof upsertSticky>[1]> = {}) => ({
  ...repo,
  issue: 12,
  marker: MARKER,
  body: withMarker(body, MARKER),
  policy: 'always' as const,
  changed: true,
  ...extra,
});

describe('sticky comment', () => {
  it('never edits a marker comment by another author: a seeded one is left as it is and ours is created', async () => {
    const seeded = server.seedComment(12, `${markerComment(MARKER)}\nmallory's comment, waiting for the report`, 'mallory');
    const res = await upsertSticky(gh(), req('the report'));
    expect(res.action).toBe('created');
    expect(res.id).not.toBe(seeded.id);
    expect(server.comments.find((c) => c.id === seeded.id)!.body).toBe(`${markerComment(MARKER)}\nmallory's comment, waiting for the report`);
    expect(server.comments.find((c) => c.id === res.id)!.user).toBe('github-actions[bot]');
    expect(server.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    // The next run edits its own comment, still not mallory's (which is older).
    const again = await upsertSticky(gh(), req('the report, run 2'));
    expect(again).toMatchObject({ action: 'updated', id: res.id });
    expect(server.violations).toEqual([]);
  });

  it("with a user's token, its own login decides: the bot's marker comment is someone else's", async () => {
    const bot = server.seedComment(12, `${markerComment(MARKER)}\nold`, 'github-actions[bot]');
    const mine = server.seedComment(12, `${markerComment(MARKER)}\nmine`, 'octo-maintainer');
    const res = await upsertSticky(makeOctokit('ghp_maintainer', base), req('new'));
    expect(res).toMatchObject({ action: 'updated', id: mine.id });
    expect(server.comments.find((c) => c.id === bot.id)!.body).toContain('old');
    expect(server.violations).toEqual([]);
  });

  it('an edit refused with 403 posts a new comment instead of failing', async () => {
    const own = server.seedComment(12, `${markerComment(MARKER)}\nlocked`, 'github-actions[bot]');
    server.forbidEdit.add(own.id);
    const lines: string[] = [];
    const res = await upsertSticky(gh(), req('after the lock'), (l) => lines.push(l));
    expect(res.action).toBe('created');
    expect(res.id).not.toBe(own.id);
    expect(lines.join('\n')).toMatch(/refused \(403\)/);
    expect(server.requests.filter((r) => r.method === 'PATCH').map((r) => r.status)).toEqual([403]);
    expect(server.violations).toEqual([]);
  });

  it('creates one comment, then edits it in place on every later run', async () => {
    const first = await upsertSticky(gh(), req('run 1'));
    expect(first.action).toBe('created');
    const second = await upsertSticky(gh(), req('run 2'));
    const third = await upsertSticky(gh(), req('run 3'));
    expect([second.action, third.action]).toEqual(['updated', 'updated']);
    expect(third.id).toBe(first.id);
    const mine = server.commentsOn(12).filter((c) => c.body.includes(markerComment(MARKER)));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.body).toContain('run 3');
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(server.violations).toEqual([]);
  });

  it('finds its comment on a later page and leaves other markers alone', async () => {
    for (let i = 0; i < 130; i++) server.seedComment(12, `chatter ${i}`);
    server.seedComment(12, `${markerComment('bee-bench:bench:rs')}\nthe rs client's comment`);
    const own = server.seedComment(12, `${markerComment(MARKER)}\nold table`, 'github-actions[bot]');
    for (let i = 0; i < 5; i++) server.seedComment(12, `more chatter ${i}`);
    const found = await findMarked(gh(), repo, 12, MARKER);
    expect(found.map((f) => f.id)).toEqual([own.id]);
    const res = await upsertSticky(gh(), req('new table'));
    expect(res).toMatchObject({ action: 'updated', id: own.id });
    expect(server.comments.find((c) => c.body.includes('bee-bench:bench:rs'))!.body).toContain("the rs client's comment");
    const pages = server.requests
      .filter((r) => r.method === 'GET' && r.template?.endsWith('/comments'))
      .map((r) => new URL(r.url, base).searchParams.get('page') ?? '1');
    // Each lookup (findMarked, then upsertSticky's own) read both pages of 100.
    expect(pages).toEqual(['1', '2', '1', '2']);
    expect(server.violations).toEqual([]);
  });

  it('on-change: posts nothing when nothing changed and there is no comment yet', async () => {
    const res = await upsertSticky(gh(), req('all unchanged', { policy: 'on-change', changed: false }));
    expect(res.action).toBe('skipped');
    expect(server.writes()).toEqual([]);
  });

  it('on-change: still updates an existing comment when nothing changed (it would be stale)', async () => {
    await upsertSticky(gh(), req('a regression', { policy: 'on-change', changed: true }));
    const res = await upsertSticky(gh(), req('all unchanged now', { policy: 'on-change', changed: false }));
    expect(res.action).toBe('updated');
    expect(server.commentsOn(12)).toHaveLength(1);
  });

  it('never: makes no request at all', async () => {
    expect((await upsertSticky(gh(), req('x', { policy: 'never' }))).action).toBe('skipped');
    expect(server.requests).toEqual([]);
  });

  it('an identical body is not edited again', async () => {
    await upsertSticky(gh(), req('same'));
    expect((await upsertSticky(gh(), req('same'))).action).toBe('unchanged');
    expect(server.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
  });

  it('a read-only token (a fork PR) is refused with 403', async () => {
    await expect(upsertSticky(makeOctokit('ghs_read', base), req('x'))).rejects.toMatchObject({ status: 403 });
  });

  it('the checker catches a request GitHub would reject', async () => {
    const res = await fetch(`${base}/repos/${repo.owner}/${repo.repo}/issues/12/comments`, {
      method: 'POST',
      headers: { authorization: 'token ghs_write', 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'body is called body' }),
    });
    expect(res.status).toBe(422);
    expect(server.violations).toHaveLength(1);
    expect(server.violations[0]).toMatch(/required property 'body'/);
    server.violations.length = 0;
  });
});

describe('withMarker and the job summary', () => {
  it('puts the marker first, exactly once', () => {
    const body = withMarker(`${markerComment(MARKER)}\n## table`, MARKER);
    expect(body.startsWith(markerComment(MARKER))).toBe(true);
    expect(body.split(markerComment(MARKER))).toHaveLength(2);
  });

  it("cuts a summary to GitHub's 1 MiB limit with a note", () => {
    const long = 'x'.repeat(2 * 1024 * 1024);
    const cut = fitSummary(long);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(1024 * 1024);
    expect(cut).toMatch(/1 MiB/);
    expect(fitSummary('short')).toBe('short');
  });
});
