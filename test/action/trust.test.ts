// No untrusted commit in a job that can write: a local origin has main, a tag and a pull request's
// head that is on no branch (refs/pull/7/head, as GitHub keeps a fork's PR). Offered through every
// ref input (head-ref, base-ref, bisect's good and bad) and as the checkout itself, the PR commit is
// refused, by input and sha, before anything is built, whenever the job holds a write token; the
// repository's own commits are accepted. A checkout whose git config keeps a token is refused too.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refuseUntrustedRefs, untrustedReason } from '../../src/action/trust.js';
import { gitCredentials } from '../../src/action/git-credentials.js';
import { git, shallowCheckout } from './client-repo.js';
import { pullRequestEvent, pushEvent, workflowDispatchEvent } from './events.js';
import { runAction, tmp } from './harness.js';

const REPO = 'ethersphere/bee-js';
const dir = tmp('trust');
let origin: string;
let main: string;
let tagged: string;
let older: string;
let prHead: string;
const noop = () => {};

beforeAll(() => {
  const author = join(dir, 'author');
  mkdirSync(author, { recursive: true });
  git(author, 'init', '-q');
  writeFileSync(join(author, 'a.txt'), '1\n');
  git(author, 'add', '-A');
  git(author, 'commit', '-q', '-m', 'one');
  older = git(author, 'rev-parse', 'HEAD');
  writeFileSync(join(author, 'a.txt'), '2\n');
  git(author, 'commit', '-q', '-am', 'two');
  tagged = git(author, 'rev-parse', 'HEAD');
  git(author, 'tag', 'v1.0.0');
  writeFileSync(join(author, 'a.txt'), '3\n');
  git(author, 'commit', '-q', '-am', 'three');
  main = git(author, 'rev-parse', 'HEAD');
  // The fork's commit: pushed only as refs/pull/7/head, then its branch deleted.
  git(author, 'checkout', '-q', '-b', 'fork-patch', older);
  writeFileSync(join(author, 'build.sh'), 'echo pwned\n');
  git(author, 'add', '-A');
  git(author, 'commit', '-q', '-m', 'fork: hostile build');
  prHead = git(author, 'rev-parse', 'HEAD');
  git(author, 'checkout', '-q', 'main');
  const bare = join(dir, 'origin.git');
  git(dir, 'clone', '-q', '--bare', author, bare);
  git(bare, 'update-ref', 'refs/pull/7/head', prHead);
  git(bare, 'branch', '-D', 'fork-patch');
  origin = `file://${bare}`;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const checkoutOf = (sha: string) => shallowCheckout(origin, sha, join(dir, `ws-${++n}`));

describe('commits a privileged job may build', () => {
  it("accepts branch tips, tags and commits in a branch's history, from a shallow checkout", async () => {
    const ws = checkoutOf(main);
    expect(await untrustedReason(ws, main, noop)).toBeUndefined();
    expect(await untrustedReason(ws, tagged, noop)).toBeUndefined();
    expect(await untrustedReason(ws, older, noop)).toBeUndefined();
  });

  it('refuses the pull request commit through every ref input, naming the input and the sha', async () => {
    const ws = checkoutOf(main);
    for (const ref of [prHead, 'refs/pull/7/head', prHead.slice(0, 12)]) {
      for (const input of ['headRef', 'baseRef'] as const) {
        const inputs = { path: ws, [input]: ref };
        const err = await refuseUntrustedRefs(inputs, noop).then(
          () => undefined,
          (e: Error) => e,
        );
        if (ref === prHead.slice(0, 12)) {
          // A short sha of a commit not fetched yet cannot even be resolved: refused all the same.
          expect(err).toBeInstanceOf(Error);
          continue;
        }
        expect(err?.message).toContain(input === 'headRef' ? 'input "head-ref"' : 'input "base-ref"');
        expect(err?.message).toContain(prHead.slice(0, 12));
        expect(err?.message).toMatch(/on no branch or tag of origin/);
        expect(err?.message).toMatch(/mode: publish/);
      }
    }
  });

  it('refuses a checkout of the pull request commit', async () => {
    const ws = checkoutOf(prHead);
    await expect(refuseUntrustedRefs({ path: ws }, noop)).rejects.toThrow(/the checkout at .* \(.{12}\): .* on no branch or tag of origin/);
  });

  it('judges a checkout without origin by its own branches and tags', async () => {
    const local = join(dir, 'author');
    expect(await untrustedReason(local, main, noop)).toBeUndefined();
    git(local, 'checkout', '-q', '--detach', main);
    writeFileSync(join(local, 'b.txt'), 'x\n');
    git(local, 'add', '-A');
    git(local, 'commit', '-q', '-m', 'dangling');
    const dangling = git(local, 'rev-parse', 'HEAD');
    git(local, 'checkout', '-q', 'main');
    expect(await untrustedReason(local, dangling, noop)).toMatch(/on no branch or tag of this repository/);
  });
});

describe('the bundled action refuses before building', () => {
  const pwned = () => join(dir, 'pwned');
  const build = () => `touch ${pwned()}`;
  async function act(eventName: string, payload: unknown, ws: string, inputs: Record<string, string>) {
    rmSync(pwned(), { force: true });
    return runAction({
      eventName,
      payload,
      workspace: ws,
      temp: join(dir, 'runner-temp'),
      repository: REPO,
      sha: main,
      inputs: { client: 'js', cases: 'cpu.harness.noop', 'build-command': build(), ...inputs },
    });
  }

  // Inputs as thunks: the table is built before beforeAll has made the commits.
  it.each([
    ['workflow_dispatch head-ref', 'workflow_dispatch', () => ({ 'head-ref': 'refs/pull/7/head' }), 'input "head-ref"'],
    ['workflow_dispatch base-ref', 'workflow_dispatch', () => ({ 'base-ref': 'refs/pull/7/head' }), 'input "base-ref"'],
    ['bisect bad (head-ref)', 'workflow_dispatch', () => ({ mode: 'bisect', 'base-ref': older, 'head-ref': 'refs/pull/7/head' }), 'input "head-ref"'],
    ['bisect good (base-ref)', 'workflow_dispatch', () => ({ mode: 'bisect', 'base-ref': prHead }), 'input "base-ref"'],
    ['push with head-ref', 'push', () => ({ 'head-ref': prHead }), 'input "head-ref"'],
  ])('%s with a write token: refused, nothing built', { timeout: 120_000 }, async (_name, event, inputsOf, names) => {
    const inputs = inputsOf() as Record<string, string>;
    const ws = checkoutOf(main);
    const payload = event === 'push' ? pushEvent(REPO, 'refs/heads/main', older, main) : workflowDispatchEvent(REPO, 'refs/heads/main', {});
    const r = await act(event, payload, ws, { 'github-token': 'ghs_write_token_123', ...inputs });
    expect(r.code, r.stdout.slice(-2000)).toBe(1);
    expect(r.stdout).toContain(`::error::refused to build ${names}`);
    expect(r.stdout).toContain(prHead.slice(0, 12));
    expect(existsSync(pwned())).toBe(false);
  });

  it('a same-repository pull_request with a write token whose checkout is the PR commit: refused', { timeout: 120_000 }, async () => {
    const ws = checkoutOf(prHead);
    const payload = pullRequestEvent({ repo: REPO, number: 7, base: { ref: 'main', sha: main }, head: { ref: 'fork-patch', sha: prHead } });
    const r = await act('pull_request', payload, ws, { 'github-token': 'ghs_write_token_123' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::refused to build the checkout at/);
    expect(existsSync(pwned())).toBe(false);
  });

  it('a job with a write token on its own branch builds, but restores no cache; without a token the cache is used', { timeout: 300_000 }, async () => {
    const ws = checkoutOf(main);
    const cacheEnv = {
      ACTIONS_CACHE_URL: 'http://127.0.0.1:9/',
      ACTIONS_RESULTS_URL: 'http://127.0.0.1:9/',
      ACTIONS_RUNTIME_TOKEN: 'runtime-token-abcdef0123',
    };
    // The same push job, once with a write token and once without.
    const withToken = (token: string) =>
      runAction({
        eventName: 'push',
        payload: pushEvent(REPO, 'refs/heads/main', older, main),
        workspace: ws,
        temp: join(dir, 'runner-temp'),
        repository: REPO,
        sha: main,
        env: cacheEnv,
        inputs: { client: 'js', cases: 'cpu.harness.noop', 'github-token': token, 'build-command': 'exit 3' },
      });
    const priv = await withToken('ghs_write_token_123');
    expect(priv.stdout).toMatch(/trust: the checkout at .* is on a branch or tag of the repository/);
    expect(priv.stdout).toMatch(/cache: not restored or saved: this job holds a write token/);
    const plain = await withToken('');
    expect(plain.stdout).not.toMatch(/cache: not restored or saved/);
    expect(plain.stdout).toMatch(/::group::cache: restore/);
  });

  it('a checkout that kept its credentials (persist-credentials unset) is refused, even without a token', { timeout: 120_000 }, async () => {
    const ws = checkoutOf(main);
    git(ws, 'config', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3h4eA==');
    expect((await gitCredentials(ws)).map((c) => c.key)).toEqual(['http.https://github.com/.extraheader']);
    const r = await act('push', pushEvent(REPO, 'refs/heads/main', older, main), ws, { 'github-token': '' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /::error::the checkout at .*: its git configuration holds credentials .*http\.https:\/\/github\.com\/\.extraheader .*persist-credentials: false/,
    );
    expect(r.stdout).not.toContain('eC1hY2Nlc3MtdG9rZW46Z2hzX3h4eA');
    expect(existsSync(pwned())).toBe(false);
  });
});
