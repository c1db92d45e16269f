// The publish job's test bench: a local GitHub API server (checked against GitHub's OpenAPI
// description), artifacts zipped with the `zip` tool and served by it, and the bundled action run
// in mode: publish as a `needs:` job or a workflow_run job. Results and publish.json are built
// from the real spec, so only what a test forges differs from a genuine measure job's output.
import { execFileSync } from 'node:child_process';
import type { Element, Root } from 'hast';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLISH_SCHEMA } from '../../src/action/publish-bundle.js';
import { defaultSpecPath } from '../../src/build/paths.js';
import { loadSpec } from '../../src/spec/load.js';
import type { CaseResult, Result, Runner } from '../../src/spec/schema.js';
import { GitHubApiServer, type StoredArtifact } from '../github/api-server.js';
import { caseResult, result } from '../report/fixtures.js';
import { runAction, tmp } from './harness.js';
import { pushEvent } from './events.js';

export const SPEC = loadSpec(defaultSpecPath());
/** The time every test commit was made, as the API reports it; results start after it. */
export const COMMIT_TIME = '2026-11-20T00:00:00Z';

/** A quick-profile result of the first `n` spec cases, each run's samples around base × factor. */
export function specResult(runner: Runner, o: { n?: number; factor?: number; started?: string; seed?: number } = {}): Result {
  const factor = o.factor ?? 1;
  const seed = o.seed ?? 0;
  const cases: CaseResult[] = SPEC.spec.cases.slice(0, o.n ?? 3).map((c, i) =>
    caseResult({
      id: c.id,
      kind: c.kind,
      // The primitive params, as a runner echoes them (per-runner scalings are resolved before it runs).
      param: Object.fromEntries(
        Object.entries(c.params.quick[0]!).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)),
      ) as CaseResult['param'],
      samples_ns: Array.from({ length: 7 }, (_, k) => Math.round((100_000 + i * 1000) * factor * (1 + 0.01 * ((k * 3 + seed) % 5)))),
      work: { ops: 1 },
    }),
  );
  const started = o.started ?? '2026-11-20T01:00:00Z';
  return result(runner, cases, SPEC.hash, { started_at: started, finished_at: started });
}

/** publish.json as a measure job writes it (src/action/publish-bundle.ts), with any field forged. */
export function publishJson(sha: string, results: Result[], forged: { client?: Runner; timestamp?: string; commitSha?: string } = {}): string {
  const commitSha = forged.commitSha ?? sha;
  return JSON.stringify({
    schema: PUBLISH_SCHEMA,
    client: forged.client ?? results[0]!.runner,
    event: 'push',
    ref: 'main',
    head_sha: commitSha,
    commit: { sha: commitSha, message: 'Speed up keccak', author: 'Octo Cat', timestamp: forged.timestamp ?? COMMIT_TIME },
    results,
  });
}

/** comment.json as a pull_request measure job writes it (src/action/bundle.ts). */
export function commentBundle(pr: number, head: string, client: Runner = 'js') {
  return {
    schema: 'bee-bench/action-comment@3',
    client,
    pr,
    head_sha: head,
    base_sha: 'b'.repeat(40),
    workflow: 'bench',
    outcome: {
      kind: 'report',
      report: {
        title: `bee-bench: ${client}`,
        runner: client,
        baseLabel: 'main',
        headLabel: 'patch',
        rows: [],
        alpha: 0.02,
        threshold: 0.02,
        rounds: 12,
        profile: 'quick',
        env: { host: 'linux', clientBase: 'a', clientHead: 'b', specHash: 'ab'.repeat(32), wallTimeMs: 1 },
      },
    },
  };
}

export class PublishBench {
  readonly dir = tmp('publish');
  readonly server: GitHubApiServer;
  private api = '';
  private n = 0;

  constructor(readonly repository: string) {
    const [owner, repo] = repository.split('/') as [string, string];
    this.server = new GitHubApiServer({ owner, repo, tokens: { write: ['ghs_write'] } });
  }

  async start(): Promise<this> {
    this.api = await this.server.start();
    return this;
  }

  async close(): Promise<void> {
    await this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Zips files as upload-artifact would and serves them as artifact `name` of run `run`. */
  artifact(run: number, name: string, files: Record<string, string>, sha: string): StoredArtifact {
    const from = join(this.dir, `artifact-${++this.n}`);
    mkdirSync(from, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(from, file), text);
    const zipFile = join(this.dir, `artifact-${this.n}.zip`);
    execFileSync('zip', ['-q', '-r', zipFile, '.'], { cwd: from });
    return this.server.addArtifact(run, name, readFileSync(zipFile), sha);
  }

  /** The documented push set-up's publish job: a push to main, its records appended to the history at `remote`. */
  publishPush(remote: string, run: number, sha: string, inputs: Record<string, string> = {}) {
    return this.publish(
      'push',
      pushEvent(this.repository, 'refs/heads/main', '0'.repeat(40), sha),
      run,
      sha,
      { history: 'gh-pages', 'history-remote': remote, ...inputs },
      { GITHUB_REF_NAME: 'main' },
    );
  }

  /** The publish job: the bundled action in mode: publish, with the job token that may write. */
  publish(eventName: string, payload: unknown, run: number, sha: string, inputs: Record<string, string>, env: Record<string, string> = {}) {
    const ws = join(this.dir, `ws-${++this.n}`);
    mkdirSync(ws, { recursive: true });
    return runAction({
      eventName,
      payload,
      workspace: ws,
      temp: join(this.dir, 'runner-temp'),
      repository: this.repository,
      apiUrl: this.api,
      runId: run,
      sha,
      workflow: 'bench',
      inputs: { mode: 'publish', 'github-token': 'ghs_write', ...inputs },
      env,
    });
  }
}

/** The `::warning::` lines of a run's output, zero-width spaces (inert text's mention and reference breaks) left out. */
export const warnings = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('::warning::'))
    .map((l) => l.replace(/\u200b/g, ''));

/** Every line GitHub shows of a run's output as an annotation, as written. */
export const annotations = (stdout: string) => stdout.split('\n').filter((l) => /^::(warning|error|notice)::/.test(l));

/** The sanitised HTML tree GitHub shows for a markdown text: GFM, raw HTML parsed, GitHub's sanitiser schema. */
export function githubView(markdown: string): Root {
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype, { allowDangerousHtml: true }).use(rehypeRaw).use(rehypeSanitize);
  return processor.runSync(processor.parse(markdown)) as Root;
}

/** The text of a rendered tree outside code, pre and links: where GitHub looks for mentions and references. */
export function scannedText(node: Root | Element): string {
  return node.children
    .map((c) => (c.type === 'text' ? c.value : c.type === 'element' && !['code', 'pre', 'a'].includes(c.tagName) ? scannedText(c) : ' '))
    .join('');
}

/** What GitHub would turn into a notification or a link in plain text: @user, @org/team, #12, owner/repo#5; and bidi controls anywhere. */
export function liveText(text: string): string[] {
  const found = [
    ...text.matchAll(/(?<![\w`])@[A-Za-z0-9][\w-]*(?:\/[\w-]+)?/g),
    ...text.matchAll(/(?<![\w&])#\d+/g),
    ...text.matchAll(/[\w.-]+\/[\w.-]+#\d+/g),
    ...text.matchAll(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g),
  ];
  return found.map((m) => m[0]);
}
