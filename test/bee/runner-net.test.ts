// Every runner this machine can build, with real processes against loopback stand-ins for a Bee
// node: a node that accepts and never answers must cost each case at most its budget, leave a
// result file and fail every case with "no answer in N s"; a node that serves altered bytes must
// fail the download cases with a content mismatch, and serve the same bytes back must pass them;
// the upload cases record, as their digest, what the node returned for the unsalted fixture.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunner, parseSource, type BuiltRunner } from '../../src/build/index.js';
import { invokeRunner } from '../../src/run/invoke.js';
import { loadSpec } from '../../src/spec/load.js';
import { resolvePlan } from '../../src/spec/plan.js';
import type { Runner } from '../../src/spec/schema.js';
import { BATCH, nodeTracker, referenceOf, silentNode, storingNode } from './fake-node.js';
import { fixtureData } from './real-node.js';
import { testClients } from '../clients.js';

const { spec, hash } = loadSpec(join(process.cwd(), 'spec', 'bench-spec.json'));
const CASE_TIMEOUT_S = 6;
const wanted = testClients().tested;
const built = new Map<Runner, BuiltRunner>();
const { start, closeAll } = nodeTracker();

beforeAll(async () => {
  for (const w of wanted) built.set(w.runner, await buildRunner({ runner: w.runner, source: parseSource(w.source), log: () => {} }));
}, 900_000);
afterAll(closeAll);

async function run(runner: Runner, url: string, cases: string[]) {
  const started = Date.now();
  const inv = await invokeRunner(built.get(runner)!.command, {
    plan: resolvePlan({ spec, specHash: hash, runner, profile: 'quick', cases }),
    out: join(mkdtempSync(join(tmpdir(), 'bee-bench-net-')), `${runner}.json`),
    timeoutMs: 120_000,
    bee: { url, batchId: BATCH },
    env: { BEE_BENCH_ITERS: '1', BEE_BENCH_CASE_TIMEOUT_S: String(CASE_TIMEOUT_S) },
  });
  return { inv, seconds: (Date.now() - started) / 1000 };
}

describe.each(wanted.map((w) => w.runner))('runner %s against a misbehaving node', (runner) => {
  it('fails every case with "no answer" within its budget when the node never answers', async () => {
    const node = await start(silentNode());
    const cases = ['net.stamps.list', 'net.bytes.upload', 'net.bzz.download'];
    const { inv, seconds } = await run(runner, node.url, cases);
    expect(inv.result, inv.problem).not.toBeNull();
    // Every case, each with all its quick params (the upload and download cases carry an erasure variant too).
    expect([...new Set(inv.result!.cases.map((c) => c.id))].sort()).toEqual([...cases].sort());
    for (const c of inv.result!.cases) {
      expect(c.status, c.id).toBe('failed');
      expect(c.error, c.id).toMatch(new RegExp(`no answer in ${CASE_TIMEOUT_S / 2} s to /`));
    }
    // Each case within its budget, plus start-up and the bounded version check.
    expect(seconds).toBeLessThan(inv.result!.cases.length * CASE_TIMEOUT_S + 15);
  }, 120_000);

  it('fails the download cases with a content mismatch when the node serves other bytes', async () => {
    const node = await start(storingNode({ corrupt: true }));
    const { inv } = await run(runner, node.url, ['net.bzz.download', 'net.bytes.download.range']);
    expect(inv.result, inv.problem).not.toBeNull();
    for (const c of inv.result!.cases) {
      expect(c.status, c.id).toBe('failed');
      expect(c.error, c.id).toMatch(/content mismatch on (GET \/bzz|ranged GET \/bytes): got \d+ bytes \(sha256 [0-9a-f]{16}\), the upload was \d+ bytes/);
    }
  }, 120_000);

  it('passes the download cases when the node serves the uploaded bytes back', async () => {
    const node = await start(storingNode());
    const { inv } = await run(runner, node.url, ['net.bzz.download', 'net.bytes.download.range']);
    expect(inv.result!.cases.map((c) => [c.id, c.status, c.error])).toEqual([
      ['net.bzz.download', 'ok', undefined],
      ['net.bzz.download', 'ok', undefined], // of a level-2 upload, with RACE
      ['net.bytes.download.range', 'ok', undefined],
    ]);
  }, 120_000);

  it("carries Bee's own message when the node refuses an upload", async () => {
    const node = await start(storingNode({ batch: 'missing' }));
    const { inv } = await run(runner, node.url, ['net.bytes.upload']);
    expect(inv.result!.cases[0]!.error).toMatch(/Bee answered 404 to POST \/bytes: batch with id not found/);
  }, 120_000);

  it('skips SOC and feed writes a dev node refuses with the same reason as the other runners', async () => {
    const node = await start(storingNode());
    const { inv } = await run(runner, node.url, ['net.feed.write-read.fresh', 'net.soc.upload']);
    const reason = (what: string) =>
      `the Bee node answers 501 Not Implemented to ${what} (POST /soc): a dev node (bee dev) has no single-owner-chunk (SOC) or feed writes`;
    expect(inv.result!.cases.map((c) => [c.id, c.status, c.skip_reason ?? c.error])).toEqual([
      ['net.feed.write-read.fresh', 'skipped', reason('feed writes')],
      ['net.soc.upload', 'skipped', reason('SOC writes')],
    ]);
  }, 120_000);
});

describe('upload digests: what the node returned for one unsalted upload, in every runner', () => {
  const digests = new Map<Runner, Map<string, { status: string; digest?: string; skip_reason?: string; error?: string }>>();
  const streamAgain = new Map<Runner, string | undefined>();
  beforeAll(async () => {
    const node = await start(storingNode());
    for (const { runner } of wanted) {
      const { inv } = await run(runner, node.url, ['net.chunks.upload', 'net.bzz.upload-from-disk', 'net.stream-dir.upload']);
      expect(inv.result, inv.problem).not.toBeNull();
      digests.set(runner, new Map(inv.result!.cases.map((c) => [c.id, c])));
      // A second run (another salt sequence) must record the same manifest: the digest upload is unsalted.
      const again = await run(runner, node.url, ['net.stream-dir.upload']);
      streamAgain.set(runner, again.inv.result?.cases[0]?.digest);
    }
  }, 300_000);

  it('net.chunks.upload: sha256 of the addresses the node returned for the unsalted chunks', () => {
    // The fake node's reference of a body is its sha256; chunk j = u64le(4096) || payload j.
    const data = fixtureData(10 * 4096);
    const span = Buffer.alloc(8);
    span.writeBigUInt64LE(4096n);
    const addresses = Array.from({ length: 10 }, (_, j) => Buffer.from(referenceOf(Buffer.concat([span, data.subarray(4096 * j, 4096 * (j + 1))])), 'hex'));
    const want = referenceOf(Buffer.concat(addresses));
    for (const [runner, cases] of digests) {
      const c = cases.get('net.chunks.upload');
      expect(c, `${runner}: ${c?.error}`).toMatchObject({ status: 'ok', digest: want });
    }
  });

  it('net.bzz.upload-from-disk: the reference of data[0, bytes) streamed unsalted (bee-rs skips: no streaming body)', () => {
    const want = referenceOf(fixtureData(10 * 1024 * 1024));
    for (const [runner, cases] of digests) {
      const c = cases.get('net.bzz.upload-from-disk');
      if (runner === 'rs') expect(c, runner).toMatchObject({ status: 'skipped', skip_reason: expect.stringMatching(/no streaming upload body/) });
      else expect(c, `${runner}: ${c?.error}`).toMatchObject({ status: 'ok', digest: want });
    }
  });

  // The client builds this manifest from the references the node returns, and this node's are
  // sha256 rather than BMT addresses, so the clients' values are only comparable against a real
  // Bee (FINDINGS.md B4a); here each must be the manifest of the unsalted files, run after run.
  it('net.stream-dir.upload: the manifest reference of the unsalted files, the same in a second run', () => {
    for (const [runner, cases] of digests) {
      const c = cases.get('net.stream-dir.upload');
      expect(c, `${runner}: ${c?.error}`).toMatchObject({ status: 'ok', digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(streamAgain.get(runner), runner).toBe(c!.digest);
    }
  });
});
