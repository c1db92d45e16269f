// A local HTTP server on 127.0.0.1 that answers the REST routes the action uses, with state kept in
// memory, and checks every request against GitHub's OpenAPI description (openapi.ts). A request the
// description rejects is recorded in `violations` (and answered 422, as GitHub would); tests assert
// there are none. Responses start from the description's own examples, are given this server's
// state, and are checked against the response schemas too, so the action sees real shapes.
// Artifact downloads redirect to a second server that plays blob storage, as GitHub's does.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenApiChecker, type RouteMatch } from './openapi.js';

export interface RecordedRequest {
  method: string;
  url: string;
  template?: string;
  body?: unknown;
  status: number;
  token?: string;
}

export interface StoredComment {
  id: number;
  issue: number;
  body: string;
  user: string;
  created_at: string;
  updated_at: string;
}

export interface StoredPull {
  number: number;
  head: { sha: string; ref: string; repo: string };
  base: { sha: string; ref: string };
}

export interface StoredIssue {
  id: number;
  number: number;
  title: string;
  body: string;
  labels: string[];
  state: 'open' | 'closed';
  state_reason: 'completed' | 'not_planned' | 'duplicate' | 'reopened' | null;
  user: string;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

export interface StoredArtifact {
  id: number;
  runId: number;
  name: string;
  zip: Buffer;
  headSha: string;
  /** Serve this many bytes (zip repeated) as a chunked stream without a length, as a huge upload would be. */
  streamBytes?: number;
  /** Bytes the blob server managed to send of a streamed artifact before the client hung up. */
  sent?: number;
}

export interface StoredCommit {
  sha: string;
  message: string;
  author: string;
  /** The committer's date (ISO 8601). */
  date: string;
}

export interface ServerOptions {
  owner: string;
  repo: string;
  /** Tokens that may write (comment); `readOnly` tokens may only read, as a fork PR's token. */
  tokens: { write: string[]; readOnly?: string[] };
  /** Tokens of users (token -> login): GET /user answers, and their comments are theirs. Others are installation tokens (github-actions[bot]). */
  users?: Record<string, string>;
  checker?: OpenApiChecker;
}

type Json = unknown;
type Handler = (
  m: RouteMatch,
  q: URLSearchParams,
  body: Record<string, unknown> | undefined,
  token: string,
) => { status: number; body?: Json; headers?: Record<string, string> };

let sharedChecker: OpenApiChecker | undefined;
export const checker = () => (sharedChecker ??= new OpenApiChecker());

const iso = (d = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export class GitHubApiServer {
  readonly requests: RecordedRequest[] = [];
  readonly violations: string[] = [];
  readonly comments: StoredComment[] = [];
  readonly pulls = new Map<number, StoredPull>();
  readonly issues: StoredIssue[] = [];
  readonly artifacts: StoredArtifact[] = [];
  readonly commits = new Map<string, StoredCommit>();
  /** Comment ids whose edit answers 403 (locked, or not the caller's). */
  readonly forbidEdit = new Set<number>();
  readonly checker: OpenApiChecker;
  baseUrl = '';
  private blobUrl = '';
  private nextId = 1000;
  private nextNumber = 1;
  private readonly api: Server;
  private readonly blob: Server;
  private readonly handlers: Record<string, Handler>;

  constructor(readonly o: ServerOptions) {
    this.checker = o.checker ?? checker();
    // A handler that throws answers 500 and is recorded, so a test fails instead of hanging.
    this.api = createServer(
      (req, res) =>
        void this.serveApi(req, res).catch((e: unknown) => {
          this.violations.push(`server error on ${req.method} ${req.url}: ${e instanceof Error ? e.stack : String(e)}`);
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Server Error"}');
        }),
    );
    this.blob = createServer((req, res) => this.serveBlob(req, res));
    this.handlers = {
      'get /repos/{owner}/{repo}/issues/{issue_number}/comments': (m, q) => this.listComments(Number(m.pathParams.issue_number), q),
      'post /repos/{owner}/{repo}/issues/{issue_number}/comments': (m, _q, b, token) =>
        this.createComment(Number(m.pathParams.issue_number), String(b?.body), token),
      'patch /repos/{owner}/{repo}/issues/comments/{comment_id}': (m, _q, b) => this.updateComment(Number(m.pathParams.comment_id), String(b?.body)),
      'get /user': (_m, _q, _b, token) => this.authenticatedUser(token),
      'delete /repos/{owner}/{repo}/issues/comments/{comment_id}': (m) => this.deleteComment(Number(m.pathParams.comment_id)),
      'get /repos/{owner}/{repo}/pulls/{pull_number}': (m) => this.getPull(Number(m.pathParams.pull_number)),
      'get /repos/{owner}/{repo}/pulls': (_m, q) => this.listPulls(q),
      'get /repos/{owner}/{repo}/commits/{ref}': (m) => this.getCommit(m.pathParams.ref!),
      'get /repos/{owner}/{repo}/actions/artifacts/{artifact_id}': (m) => this.getArtifact(Number(m.pathParams.artifact_id)),
      'get /repos/{owner}/{repo}/issues': (_m, q) => this.listIssues(q),
      'post /repos/{owner}/{repo}/issues': (_m, _q, b) => this.createIssue(b ?? {}),
      'patch /repos/{owner}/{repo}/issues/{issue_number}': (m, _q, b) => this.updateIssue(Number(m.pathParams.issue_number), b ?? {}),
      'get /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts': (m, q) => this.listArtifacts(Number(m.pathParams.run_id), q),
      'get /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}': (m) =>
        this.downloadArtifact(Number(m.pathParams.artifact_id), m.pathParams.archive_format!),
    };
  }

  async start(): Promise<string> {
    const listen = (s: Server) => new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));
    this.baseUrl = `http://127.0.0.1:${await listen(this.api)}`;
    this.blobUrl = `http://127.0.0.1:${await listen(this.blob)}`;
    return this.baseUrl;
  }

  async close(): Promise<void> {
    await Promise.all([this.api, this.blob].map((s) => new Promise((r) => s.close(r))));
  }

  /** Comments on an issue, oldest first. */
  commentsOn(issue: number): StoredComment[] {
    return this.comments.filter((c) => c.issue === issue);
  }

  seedComment(issue: number, body: string, user = 'octocat'): StoredComment {
    const now = iso();
    const c: StoredComment = { id: this.nextId++, issue, body, user, created_at: now, updated_at: now };
    this.comments.push(c);
    return c;
  }

  /** An issue as a person (or an earlier run) opened it; numbers are shared with pull requests. */
  seedIssue(o: { title: string; body: string; labels?: string[]; state?: 'open' | 'closed'; user?: string }): StoredIssue {
    while (this.pulls.has(this.nextNumber)) this.nextNumber++;
    const now = iso();
    const issue: StoredIssue = {
      id: this.nextId++,
      number: this.nextNumber++,
      title: o.title,
      body: o.body,
      labels: o.labels ?? [],
      state: o.state ?? 'open',
      state_reason: null,
      user: o.user ?? 'octocat',
      created_at: now,
      updated_at: now,
      closed_at: o.state === 'closed' ? now : null,
    };
    this.issues.push(issue);
    return issue;
  }

  addArtifact(runId: number, name: string, zip: Buffer, headSha: string): StoredArtifact {
    const a: StoredArtifact = { id: this.nextId++, runId, name, zip, headSha };
    this.artifacts.push(a);
    return a;
  }

  addCommit(c: StoredCommit): StoredCommit {
    this.commits.set(c.sha, c);
    return c;
  }

  writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  // ---- responses, each from the description's example with this server's state

  private repoApi = () => `${this.baseUrl}/repos/${this.o.owner}/${this.o.repo}`;
  private repoHtml = () => `https://github.com/${this.o.owner}/${this.o.repo}`;

  private commentJson(c: StoredComment): Json {
    const ex = this.checker.example('post', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 201) as Record<string, unknown>;
    const user = ex.user as Record<string, unknown>;
    return {
      ...ex,
      id: c.id,
      node_id: Buffer.from(`IssueComment${c.id}`).toString('base64'),
      url: `${this.repoApi()}/issues/comments/${c.id}`,
      html_url: `${this.repoHtml()}/pull/${c.issue}#issuecomment-${c.id}`,
      issue_url: `${this.repoApi()}/issues/${c.issue}`,
      body: c.body,
      user: { ...user, login: c.user, type: c.user.endsWith('[bot]') ? 'Bot' : 'User' },
      created_at: c.created_at,
      updated_at: c.updated_at,
    };
  }

  private listComments(issue: number, q: URLSearchParams) {
    const { slice, headers } = this.paged(this.commentsOn(issue), q, `/issues/${issue}/comments`);
    return { status: 200, body: slice.map((c) => this.commentJson(c)), headers };
  }

  /** One page of a list (per_page, page) and GitHub's Link header to the others, the query kept. */
  private paged<T>(all: readonly T[], q: URLSearchParams, path: string): { slice: T[]; headers: Record<string, string> } {
    const perPage = Math.min(Number(q.get('per_page') ?? 30), 100);
    const page = Number(q.get('page') ?? 1);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const keep = new URLSearchParams([...q].filter(([k]) => k !== 'page' && k !== 'per_page'));
    const link = (p: number, rel: string) => {
      const query = new URLSearchParams(keep);
      query.set('per_page', String(perPage));
      query.set('page', String(p));
      return `<${this.repoApi()}${path}?${query}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(page - 1, 'prev'), link(1, 'first'));
    if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
    return { slice: all.slice((page - 1) * perPage, page * perPage), headers: links.length ? { link: links.join(', ') } : {} };
  }

  private createComment(issue: number, body: string, token: string) {
    const c = this.seedComment(issue, body, this.o.users?.[token] ?? 'github-actions[bot]');
    return { status: 201, body: this.commentJson(c), headers: { location: `${this.repoApi()}/issues/comments/${c.id}` } };
  }

  /** GET /user: a user's token answers with its login; an installation token may not read it. */
  private authenticatedUser(token: string) {
    const login = this.o.users?.[token];
    if (!login)
      return {
        status: 403,
        body: {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
          status: '403',
        },
      };
    const ex = this.checker.example('get', '/user', 200, 'response-with-public-profile-information') as Record<string, unknown>;
    return { status: 200, body: { ...ex, login, id: 4242, type: 'User' } };
  }

  private updateComment(id: number, body: string) {
    if (this.forbidEdit.has(id))
      return {
        status: 403,
        body: {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment',
          status: '403',
        },
      };
    const c = this.comments.find((x) => x.id === id);
    if (!c)
      return {
        status: 404,
        body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment', status: '404' },
      };
    c.body = body;
    c.updated_at = iso(new Date(Date.now() + 1000));
    return { status: 200, body: this.commentJson(c) };
  }

  private deleteComment(id: number) {
    const at = this.comments.findIndex((x) => x.id === id);
    if (at < 0)
      return {
        status: 404,
        body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/issues/comments#delete-an-issue-comment', status: '404' },
      };
    this.comments.splice(at, 1);
    return { status: 204 };
  }

  private issueJson(i: StoredIssue): Json {
    const ex = this.checker.example('post', '/repos/{owner}/{repo}/issues', 201) as Record<string, any>;
    const label = ex.labels[0] as Record<string, unknown>;
    const { pull_request: _notAPull, ...rest } = ex;
    return {
      ...rest,
      id: i.id,
      node_id: Buffer.from(`Issue${i.id}`).toString('base64'),
      number: i.number,
      url: `${this.repoApi()}/issues/${i.number}`,
      repository_url: this.repoApi(),
      labels_url: `${this.repoApi()}/issues/${i.number}/labels{/name}`,
      comments_url: `${this.repoApi()}/issues/${i.number}/comments`,
      events_url: `${this.repoApi()}/issues/${i.number}/events`,
      html_url: `${this.repoHtml()}/issues/${i.number}`,
      title: i.title,
      body: i.body,
      state: i.state,
      state_reason: i.state_reason,
      user: { ...ex.user, login: i.user, type: i.user.endsWith('[bot]') ? 'Bot' : 'User' },
      labels: i.labels.map((name, n) => ({
        ...label,
        id: 5000 + n,
        name,
        url: `${this.repoApi()}/labels/${encodeURIComponent(name)}`,
        default: false,
        description: null,
      })),
      assignee: null,
      assignees: [],
      milestone: null,
      comments: this.commentsOn(i.number).length,
      created_at: i.created_at,
      updated_at: i.updated_at,
      closed_at: i.closed_at,
      closed_by: null,
      locked: false,
    };
  }

  /** GET /issues: state and labels filters (every label must match), oldest first when asked, paged. */
  private listIssues(q: URLSearchParams) {
    const state = q.get('state') ?? 'open';
    const labels = (q.get('labels') ?? '')
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean);
    const asc = q.get('direction') === 'asc';
    const all = this.issues
      .filter((i) => (state === 'all' || i.state === state) && labels.every((l) => i.labels.includes(l)))
      .sort((a, b) => (asc ? a.number - b.number : b.number - a.number));
    const { slice, headers } = this.paged(all, q, '/issues');
    return { status: 200, body: slice.map((i) => this.issueJson(i)), headers };
  }

  private createIssue(b: Record<string, unknown>) {
    const labels = ((b.labels as unknown[] | undefined) ?? []).map((l) => (typeof l === 'string' ? l : String((l as { name?: unknown }).name)));
    const i = this.seedIssue({ title: String(b.title), body: String(b.body ?? ''), labels, user: 'github-actions[bot]' });
    return { status: 201, body: this.issueJson(i), headers: { location: `${this.repoApi()}/issues/${i.number}` } };
  }

  private updateIssue(n: number, b: Record<string, unknown>) {
    const i = this.issues.find((x) => x.number === n);
    if (!i)
      return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/issues/issues#update-an-issue', status: '404' } };
    const now = iso(new Date(Date.now() + 1000));
    if (typeof b.title === 'string') i.title = b.title;
    if (typeof b.body === 'string') i.body = b.body;
    if ((b.state === 'open' || b.state === 'closed') && b.state !== i.state) {
      i.state = b.state;
      i.closed_at = b.state === 'closed' ? now : null;
      i.state_reason = b.state === 'closed' ? ((b.state_reason as StoredIssue['state_reason']) ?? 'completed') : 'reopened';
    }
    i.updated_at = now;
    return { status: 200, body: this.issueJson(i) };
  }

  private getPull(n: number) {
    const p = this.pulls.get(n);
    if (!p)
      return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request', status: '404' } };
    const ex = this.checker.example('get', '/repos/{owner}/{repo}/pulls/{pull_number}', 200) as Record<string, any>;
    return {
      status: 200,
      body: {
        ...ex,
        number: n,
        url: `${this.repoApi()}/pulls/${n}`,
        html_url: `${this.repoHtml()}/pull/${n}`,
        // The published example's requested_teams entry lacks the schema's required `type`.
        requested_teams: [],
        head: {
          ...ex.head,
          sha: p.head.sha,
          ref: p.head.ref,
          label: `${p.head.repo.split('/')[0]}:${p.head.ref}`,
          repo: { ...ex.head.repo, full_name: p.head.repo },
        },
        base: { ...ex.base, sha: p.base.sha, ref: p.base.ref, repo: { ...ex.base.repo, full_name: `${this.o.owner}/${this.o.repo}` } },
      },
    };
  }

  /** GET /pulls: state (open by default) and head ("owner:branch") filters, as GitHub applies them. */
  private listPulls(q: URLSearchParams) {
    const state = q.get('state') ?? 'open';
    const head = q.get('head');
    // Every stored pull request is open: a closed-only listing is empty.
    const all = [...this.pulls.values()]
      .filter(() => state === 'all' || state === 'open')
      .filter((p) => head === null || head === `${p.head.repo.split('/')[0]}:${p.head.ref}`)
      .sort((a, b) => b.number - a.number);
    const { slice, headers } = this.paged(all, q, '/pulls');
    const ex = (this.checker.example('get', '/repos/{owner}/{repo}/pulls', 200) as Array<Record<string, any>>)[0]!;
    return {
      status: 200,
      headers,
      body: slice.map((p) => {
        const full = this.getPull(p.number).body as Record<string, any>;
        // The list's items are pull-request-simple: the full pull request's fields that schema has.
        return Object.fromEntries(Object.keys(ex).map((k) => [k, k in full ? full[k] : ex[k]]));
      }),
    };
  }

  private getCommit(ref: string) {
    const c = this.commits.get(ref);
    if (!c)
      return {
        status: 422,
        body: { message: `No commit found for SHA: ${ref}`, documentation_url: 'https://docs.github.com/rest/commits/commits#get-a-commit', status: '422' },
      };
    const ex = this.checker.example('get', '/repos/{owner}/{repo}/commits/{ref}', 200) as Record<string, any>;
    return {
      status: 200,
      body: {
        ...ex,
        sha: c.sha,
        node_id: Buffer.from(`Commit${c.sha}`).toString('base64'),
        url: `${this.repoApi()}/commits/${c.sha}`,
        html_url: `${this.repoHtml()}/commit/${c.sha}`,
        // The published example's file entries lack the schema's required sha and contents_url.
        files: [],
        commit: {
          ...ex.commit,
          message: c.message,
          author: { ...ex.commit.author, name: c.author, date: c.date },
          committer: { ...ex.commit.committer, date: c.date },
        },
      },
    };
  }

  private getArtifact(id: number) {
    const a = this.artifacts.find((x) => x.id === id);
    if (!a)
      return {
        status: 404,
        body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/actions/artifacts#get-an-artifact', status: '404' },
      };
    return { status: 200, body: this.artifactJson(a) };
  }

  private artifactJson(a: StoredArtifact): Json {
    const ex = (this.checker.example('get', '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts', 200) as { artifacts: Array<Record<string, any>> })
      .artifacts[0]!;
    return {
      ...ex,
      id: a.id,
      node_id: Buffer.from(`Artifact${a.id}`).toString('base64'),
      name: a.name,
      size_in_bytes: a.zip.length,
      url: `${this.repoApi()}/actions/artifacts/${a.id}`,
      archive_download_url: `${this.repoApi()}/actions/artifacts/${a.id}/zip`,
      digest: null,
      workflow_run: { ...ex.workflow_run, id: a.runId, head_sha: a.headSha },
    };
  }

  private listArtifacts(runId: number, q: URLSearchParams) {
    const name = q.get('name');
    const perPage = Math.min(Number(q.get('per_page') ?? 30), 100);
    const page = Number(q.get('page') ?? 1);
    const all = this.artifacts.filter((a) => a.runId === runId && (name === null || a.name === name));
    return { status: 200, body: { total_count: all.length, artifacts: all.slice((page - 1) * perPage, page * perPage).map((a) => this.artifactJson(a)) } };
  }

  private downloadArtifact(id: number, format: string) {
    const a = this.artifacts.find((x) => x.id === id);
    if (!a || format !== 'zip')
      return { status: 410, body: { message: 'Gone', documentation_url: 'https://docs.github.com/rest/actions/artifacts', status: '410' } };
    return { status: 302, headers: { location: `${this.blobUrl}/artifacts/${a.id}.zip?sig=${randomBytes(8).toString('hex')}` } };
  }

  // ---- plumbing

  private async serveApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const auth = /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const rec: RecordedRequest = { method, url, status: 0, ...(auth ? { token: auth } : {}) };
    this.requests.push(rec);
    const send = (status: number, body?: Json, headers: Record<string, string> = {}) => {
      rec.status = status;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-github-request-id': randomBytes(6).toString('hex'), ...headers });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    const problems = this.checker.checkRequest({
      method,
      url,
      body: raw,
      ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
    });
    if (raw) {
      try {
        rec.body = JSON.parse(raw);
      } catch {
        rec.body = raw;
      }
    }
    if (problems.length > 0) {
      this.violations.push(...problems);
      send(422, { message: 'Validation Failed', documentation_url: 'https://docs.github.com/rest', status: '422' });
      return;
    }
    const path = new URL(url, this.baseUrl).pathname;
    const m = this.checker.match(method, path)!;
    rec.template = m.template;
    const handler = this.handlers[`${m.method} ${m.template}`];
    const rp = /^\/repos\/([^/]+)\/([^/]+)/.exec(path);
    const outsideRepos = m.template === '/user';
    if (!handler || (!outsideRepos && (!rp || rp[1] !== this.o.owner || rp[2] !== this.o.repo))) {
      this.violations.push(`${method} ${m.template}: not a route the action is expected to use (or another repository)`);
      send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
      return;
    }
    if (!auth || ![...this.o.tokens.write, ...(this.o.tokens.readOnly ?? [])].includes(auth)) {
      send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
      return;
    }
    if (method !== 'GET' && !this.o.tokens.write.includes(auth)) {
      send(403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' });
      return;
    }
    const out = handler(m, new URL(url, this.baseUrl).searchParams, rec.body as Record<string, unknown> | undefined, auth);
    if (out.body !== undefined) {
      const bad =
        out.status < 400
          ? this.checker.checkResponse(m, out.status, out.body)
          : this.checker.validator({ $ref: '#/components/schemas/basic-error' })(out.body)
            ? []
            : [`error body of ${m.template} is not a basic-error`];
      this.violations.push(...bad.map((b) => `server response: ${b}`));
    }
    send(out.status, out.body, out.headers);
  }

  private serveBlob(req: IncomingMessage, res: ServerResponse): void {
    const id = Number(/^\/artifacts\/(\d+)\.zip/.exec(req.url ?? '')?.[1]);
    const a = this.artifacts.find((x) => x.id === id);
    if (!a) {
      res.writeHead(404).end();
      return;
    }
    if (a.streamBytes === undefined) {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(a.zip.length) });
      res.end(a.zip);
      return;
    }
    // Chunked, no length: the client learns the size only by counting.
    res.writeHead(200, { 'content-type': 'application/zip' });
    a.sent = 0;
    let closed = false;
    res.on('close', () => (closed = true));
    const pump = () => {
      while (!closed && a.sent! < a.streamBytes!) {
        const chunk = a.zip.subarray(0, Math.min(a.zip.length, a.streamBytes! - a.sent!));
        a.sent! += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!closed) res.end();
    };
    pump();
  }
}
