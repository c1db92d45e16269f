// The request checker itself: it must accept what GitHub's description accepts for the routes the
// action uses and reject what it rejects, or the API-server tests prove nothing.
import { describe, expect, it } from 'vitest';
import { checker } from './api-server.js';

const c = checker();
const json = 'application/json; charset=utf-8';

describe('OpenAPI request checker (api.github.com description from @octokit/openapi)', () => {
  it('loads the published description', () => {
    expect(c.doc.openapi).toMatch(/^3\./);
    expect(Object.keys(c.doc.paths).length).toBeGreaterThan(500);
  });

  it('matches path templates, preferring literal segments', () => {
    expect(c.match('PATCH', '/repos/o/r/issues/comments/12')?.template).toBe('/repos/{owner}/{repo}/issues/comments/{comment_id}');
    expect(c.match('GET', '/repos/o/r/issues/7/comments')?.template).toBe('/repos/{owner}/{repo}/issues/{issue_number}/comments');
    expect(c.match('GET', '/repos/o/r/actions/artifacts/5/zip')?.pathParams).toMatchObject({ artifact_id: '5', archive_format: 'zip' });
  });

  it('accepts the requests of the routes the action uses', () => {
    expect(c.checkRequest({ method: 'GET', url: '/repos/o/r/issues/7/comments?per_page=100&page=2' })).toEqual([]);
    expect(c.checkRequest({ method: 'POST', url: '/repos/o/r/issues/7/comments', contentType: json, body: '{"body":"hello"}' })).toEqual([]);
    expect(c.checkRequest({ method: 'PATCH', url: '/repos/o/r/issues/comments/12', contentType: json, body: '{"body":"hello"}' })).toEqual([]);
    expect(c.checkRequest({ method: 'GET', url: '/repos/o/r/pulls/3' })).toEqual([]);
    expect(c.checkRequest({ method: 'GET', url: '/repos/o/r/actions/runs/9/artifacts?name=bee-bench-rs' })).toEqual([]);
    expect(c.checkRequest({ method: 'GET', url: '/repos/o/r/actions/artifacts/5/zip' })).toEqual([]);
  });

  it.each([
    ['an unknown route', { method: 'GET', url: '/repos/o/r/benchmarks' }, /no route/],
    ['a method the route lacks', { method: 'DELETE', url: '/repos/o/r/issues/7/comments' }, /not an operation/],
    ['a non-integer query value', { method: 'GET', url: '/repos/o/r/issues/7/comments?per_page=lots' }, /per_page.*integer/],
    ['an undeclared query parameter', { method: 'GET', url: '/repos/o/r/issues/7/comments?marker=x' }, /marker is not declared/],
    [
      'a non-integer path parameter',
      { method: 'PATCH', url: '/repos/o/r/issues/comments/abc', contentType: json, body: '{"body":"x"}' },
      /comment_id.*integer/,
    ],
    [
      'a body without its required field',
      { method: 'POST', url: '/repos/o/r/issues/7/comments', contentType: json, body: '{"text":"x"}' },
      /required property 'body'/,
    ],
    ['a body field of the wrong type', { method: 'PATCH', url: '/repos/o/r/issues/comments/3', contentType: json, body: '{"body":42}' }, /body must be string/],
    ['a missing required body', { method: 'POST', url: '/repos/o/r/issues/7/comments' }, /requires a request body/],
    ['a body where none is taken', { method: 'GET', url: '/repos/o/r/pulls/3', contentType: json, body: '{"x":1}' }, /takes no request body/],
    [
      'a non-JSON content type',
      { method: 'POST', url: '/repos/o/r/issues/7/comments', contentType: 'text/plain', body: '{"body":"x"}' },
      /not application\/json/,
    ],
  ])('rejects %s', (_what, req, problem) => {
    const problems = c.checkRequest(req);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(problem);
  });

  it('checks responses against the response schemas (the published pull-request example needs a fix)', () => {
    const m = c.match('GET', '/repos/o/r/pulls/3')!;
    const example = c.example('get', '/repos/{owner}/{repo}/pulls/{pull_number}', 200) as Record<string, unknown>;
    expect(c.checkResponse(m, 200, example).join()).toMatch(/requested_teams/);
    expect(c.checkResponse(m, 200, { ...example, requested_teams: [] })).toEqual([]);
    expect(c.checkResponse(m, 200, { ...example, requested_teams: [], number: 'seven' }).join()).toMatch(/number must be integer/);
  });
});
