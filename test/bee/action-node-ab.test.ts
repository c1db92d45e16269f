// End to end: the bundled action's node A/B (inputs base-bee, head-bee) on a bee-rs checkout, with
// real Bee releases from ../shared/bee (test/bee/real-node.ts) as the two sides and the local API
// server as GitHub. Bee v2.7.0 → v2.8.0 on a pull request: one comment (under a marker of its own)
// and ab.json name both nodes by their versions, and every row ran. Bee v2.8.0 → v2.8.0, an A/A on
// a push: nothing is flagged. Small on purpose: two cheap net cases, few rounds; kept out of
// test/action so that .ci/run's other Node versions do not run it again (nothing in it depends on Node's version).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerComment } from '../../src/report/render/ab-comment.js';
import type { AbRow } from '../../src/verdict/index.js';
import { GitHubApiServer } from '../github/api-server.js';
import { makeBeeRsRepo, shallowCheckout, type ClientRepo } from '../action/client-repo.js';
import { pullRequestEvent, pushEvent } from '../action/events.js';
import { ROOT, runAction, tmp, type ActionRun } from '../action/harness.js';
import { noRealBee, realBeeBinary, realBeeSkipNote } from './real-node.js';

const REPO = 'ethswarm-tools/bee-rs';
const CASES = 'net.stamps.list,net.bytes.upload';
/**
 * Enough paired rounds that one row alone can be flagged (9: the smallest exact p is 2/2^9, and
 * Benjamini–Hochberg over the 3 rows keeps it under alpha 0.02), so the A/A's "nothing flagged"
 * can fail; with 7 only a shift of every row could be.
 */
const ROUNDS = '9';
const MINUTES = 60_000;

const dir = tmp('node-ab');
let repo: ClientRepo;
let server: GitHubApiServer;
let api: string;
let bee27: string;
let bee28: string;

interface AbJson {
  rows: AbRow[];
  nodes: Record<'base' | 'head', { version: string; url: string; how: string }>;
}
const abJson = (r: ActionRun): AbJson => JSON.parse(readFileSync(join(r.outputs['results-path']!, 'ab.json'), 'utf8')) as AbJson;
const flagged = (rows: readonly AbRow[]) =>
  rows.filter((r) => r.verdict === 'regression' || r.verdict === 'improvement').map((r) => `${r.caseId} [${r.label}] ${r.verdict}`);

describe.skipIf(noRealBee)(`the bundled action with the Bee node as the A/B's variable${realBeeSkipNote}`, () => {
  beforeAll(async () => {
    repo = makeBeeRsRepo(dir);
    server = new GitHubApiServer({ owner: 'ethswarm-tools', repo: 'bee-rs', tokens: { write: ['ghs_write'] } });
    api = await server.start();
    bee27 = await realBeeBinary('2.7.0');
    bee28 = await realBeeBinary('2.8.0');
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (eventName: string, payload: unknown, ws: string, inputs: Record<string, string>) =>
    runAction({
      eventName,
      payload,
      workspace: ws,
      sha: repo.main,
      temp: join(dir, 'runner-temp'),
      repository: REPO,
      apiUrl: api,
      env: { BEE_BENCH_CACHE: join(ROOT, '.bee-bench', 'cache') },
      inputs: { cases: CASES, rounds: ROUNDS, 'github-token': 'ghs_write', ...inputs },
    });

  it(
    'v2.7.0 → v2.8.0 on a pull request: the comment and ab.json name both nodes, every row ran',
    async () => {
      const ws = shallowCheckout(repo.origin, repo.main, join(dir, 'ws-pr'));
      const r = await run(
        'pull_request',
        pullRequestEvent({ repo: REPO, number: 9, base: { ref: 'main', sha: repo.forkPoint }, head: { ref: 'main', sha: repo.main } }),
        ws,
        {
          'base-bee': bee27,
          'head-bee': bee28,
        },
      );
      console.log(`node A/B 2.7.0 → 2.8.0: exit ${r.code} in ${(r.ms / 1000).toFixed(1)} s`);
      expect(server.violations).toEqual([]);
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      const ab = abJson(r);
      expect(ab.nodes.base).toMatchObject({ version: expect.stringMatching(/^2\.7\.0-/), how: `dev node of ${bee27}` });
      expect(ab.nodes.head).toMatchObject({ version: expect.stringMatching(/^2\.8\.0-/), how: `dev node of ${bee28}` });
      // net.stamps.list, net.bytes.upload at 1 MiB and at level 4: all measured on both nodes.
      expect(ab.rows.map((x) => [x.caseId, x.label, x.status])).toEqual([
        ['net.stamps.list', '1 call', 'ok'],
        ['net.bytes.upload', '1 MiB', 'ok'],
        ['net.bytes.upload', '1 MiB, level 4 (PARANOID)', 'ok'],
      ]);
      const comments = server.commentsOn(9).filter((c) => c.body.includes(markerComment('bee-bench:bench:rs:node')));
      expect(comments).toHaveLength(1);
      const body = comments[0]!.body;
      expect(body).toMatch(/^## bee-bench: rs bee 2\.7\.0-[0-9a-f]+ → bee 2\.8\.0-[0-9a-f]+$/m);
      expect(body).toMatch(
        /The Bee node is the variable: base Bee 2\.7\.0-[0-9a-f]+ \(dev node of .*\) → head Bee 2\.8\.0-[0-9a-f]+ \(dev node of .*\), one bee-rs 1\.7\.0 \(path [0-9a-f]+\) build on both sides\./,
      );
      expect(body).toMatch(/\| Bee node \(base\) \| Bee 2\.7\.0-/);
      expect(r.summary).toContain('The Bee node is the variable');
    },
    20 * MINUTES,
  );

  it(
    'v2.8.0 → v2.8.0 on a push (an A/A of one release): nothing flagged',
    async () => {
      const ws = shallowCheckout(repo.origin, repo.main, join(dir, 'ws-push'));
      const aa = async () => {
        const r = await run('push', pushEvent(REPO, 'refs/heads/main', repo.forkPoint, repo.main), ws, { 'base-bee': bee28, 'head-bee': bee28 });
        console.log(`node A/A 2.8.0: exit ${r.code} in ${(r.ms / 1000).toFixed(1)} s`);
        expect(r.code, r.stdout.slice(-3000)).toBe(0);
        return r;
      };
      // A verdict is a statistical decision: an A/A flags a row in about alpha of the runs (BH
      // controls the false discovery rate). One false alarm earns a second run, which must be
      // clean; an A/A that flags systematically (two different kinds of node) fails both.
      let r = await aa();
      if (flagged(abJson(r).rows).length > 0) {
        console.warn(`node A/A: false alarm on ${flagged(abJson(r).rows).join(', ')}; the second run must be clean`);
        r = await aa();
      }
      const ab = abJson(r);
      expect(ab.nodes.base.version).toBe(ab.nodes.head.version);
      // Two nodes of one release: the base and head sides run against different processes.
      expect(ab.nodes.base.url).not.toBe(ab.nodes.head.url);
      expect(
        ab.rows.every((x) => x.status === 'ok' && x.rounds >= Number(ROUNDS)),
        JSON.stringify(ab.rows.map((x) => [x.caseId, x.status, x.note])),
      ).toBe(true);
      expect(flagged(ab.rows)).toEqual([]);
      expect([r.outputs.regressions, r.outputs.improvements, r.outputs.failed]).toEqual(['0', '0', '0']);
    },
    20 * MINUTES,
  );
});
