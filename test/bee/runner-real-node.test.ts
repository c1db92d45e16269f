// Every net case of every runner this machine can build, against a real Bee v2.8.0 dev node (from
// ../shared/bee, test/bee/real-node.ts): the quick profile's net cases, plus the full profile's 1 MiB
// erasure-level, direct-upload, strategy and fallback variants. Each case runs or is skipped for a
// reason a dev node gives (SOC and feed writes 501, direct uploads 400) or a client lacks; the
// upload digests agree across clients and with Bee's own reference of the same bytes; for every
// erasure level 0-4 the references and the upload tags' chunk counts prove the level reached Bee (a
// client that ignored it would get the level-0 reference and 259 chunks). Faults a real node will
// not produce (a node that never answers, altered bytes) stay in runner-net.test.ts's fake nodes.
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunner, parseSource, type BuiltRunner } from '../../src/build/index.js';
import { invokeRunner } from '../../src/run/invoke.js';
import { loadSpec } from '../../src/spec/load.js';
import { PlanSchema, resolvePlan, type Plan } from '../../src/spec/plan.js';
import type { CaseResult, Runner } from '../../src/spec/schema.js';
import { testClients } from '../clients.js';
import { beeReference, fixtureData, noRealBee, realBeeSkipNote, realNodes, splitCounts, type RealNode } from './real-node.js';

const { spec, hash } = loadSpec(join(process.cwd(), 'spec', 'bench-spec.json'));
const wanted = testClients().tested;
const LABEL = { js: 'bee-js', go: 'bee-go', rs: 'bee-rs' } as const;
const MiB = 1024 * 1024;
/** Chunks of a 1 MiB /bytes upload at levels 0-4 on Bee 2.8.0 (../shared/bee/README.md; test/bee/real-node.test.ts checks them with Bee's own uploads). */
const SPLIT_1MIB = [259, 288, 324, 361, 915];
const VARIANT_CASES = ['net.bytes.upload', 'net.bzz.upload', 'net.bytes.download', 'net.bzz.download'];

/** The quick profile's net cases, then the full profile's 1 MiB variants of the upload and download cases (level, mode, strategy, fallback). */
function realNodePlan(runner: Runner): Plan {
  const quick = resolvePlan({ spec, specHash: hash, runner, profile: 'quick', cases: ['net.*'] });
  const full = resolvePlan({ spec, specHash: hash, runner, profile: 'full', cases: VARIANT_CASES });
  const inQuick = new Set(quick.units.map((u) => `${u.id}\u0000${u.param.label}`));
  const extra = full.units.filter((u) => u.param.bytes === MiB && u.param.label !== '1 MiB' && !inQuick.has(`${u.id}\u0000${u.param.label}`));
  const units = [...quick.units, ...extra].map((u, i) => ({ ...u, unit: i }));
  return PlanSchema.parse({ ...quick, units });
}

/**
 * Skips a dev node or a client explains, per case (and param label where it matters), per runner:
 * anything else skipped, and anything failed, fails the test.
 */
function expectedSkip(runner: Runner, c: CaseResult): RegExp | undefined {
  const dev501 =
    /^the Bee node answers 501 Not Implemented to (feed|SOC) writes \(POST \/soc\): a dev node \(bee dev\) has no single-owner-chunk \(SOC\) or feed writes$/;
  if (c.id === 'net.soc.upload' || c.id.startsWith('net.feed.')) return dev501;
  if (c.param.deferred === false) return /^the node refuses direct uploads: .*operation not supported in dev mode/;
  if (runner === 'rs' && c.id === 'net.bzz.upload-from-disk') return /no streaming upload body/;
  // bee-js 12.1.0 sends no Swarm-Redundancy-Strategy for NONE (its default): the runner names it rather than pretend.
  if (runner === 'js' && c.param.strategy === 'NONE') return /^@ethersphere\/bee-js 12\.1\.0 has no .*NONE/;
  return undefined;
}

const key = (c: Pick<CaseResult, 'id' | 'param'>) => `${c.id} [${String(c.param.label)}]`;

describe.skipIf(noRealBee)(`every net case of every runner against a real Bee v2.8.0 dev node${realBeeSkipNote}`, () => {
  const nodes = realNodes();
  let node: RealNode;
  const results = new Map<Runner, Map<string, CaseResult>>();
  const problems = new Map<Runner, string | undefined>();

  beforeAll(async () => {
    node = await nodes.start('2.8.0');
    for (const w of wanted) {
      const built: BuiltRunner = await buildRunner({ runner: w.runner, source: parseSource(w.source), log: () => {} });
      const inv = await invokeRunner(built.command, {
        plan: realNodePlan(w.runner),
        out: join(mkdtempSync(join(tmpdir(), 'bee-bench-real-')), `${w.runner}.json`),
        timeoutMs: 600_000,
        bee: { url: node.url, batchId: node.batchId },
        env: { BEE_BENCH_ITERS: '1' },
      });
      problems.set(w.runner, inv.problem);
      results.set(w.runner, new Map((inv.result?.cases ?? []).map((c) => [key(c), c])));
      const skipped = (inv.result?.cases ?? []).filter((c) => c.status === 'skipped');
      const ran = (inv.result?.cases.length ?? 0) - skipped.length;
      console.log(`${LABEL[w.runner]}: ${ran} ran, ${skipped.length} skipped (${skipped.map((c) => `${key(c)}: ${c.skip_reason}`).join('; ')})`);
    }
  }, 1_800_000);
  afterAll(nodes.stopAll);

  it.each(wanted.map((w) => w.runner))('%s: every case runs, or is skipped for what a dev node or the client cannot do', (runner) => {
    const got = results.get(runner)!;
    expect(got.size, problems.get(runner)).toBe(realNodePlan(runner).units.length);
    const wrong: string[] = [];
    for (const [k, c] of got) {
      const skip = expectedSkip(runner, c);
      if (c.status === 'failed') wrong.push(`${k}: failed: ${c.error}`);
      else if (c.status === 'skipped' && !(skip && skip.test(c.skip_reason!))) wrong.push(`${k}: skipped: ${c.skip_reason}`);
      else if (c.status === 'ok' && skip && !(runner === 'js' && c.param.strategy === 'NONE'))
        wrong.push(`${k}: ran, but a dev node should refuse it (${skip})`);
    }
    expect(wrong, `${LABEL[runner]}`).toEqual([]);
    // The stamp cases, whose results once failed to clone in bee-js, run everywhere.
    for (const id of ['net.stamps.list', 'net.stamps.concurrent'])
      expect(got.get(`${id} [${spec.cases.find((c) => c.id === id)!.params.quick[0]!.label}]`)?.status).toBe('ok');
  });

  /** Every runner's digest of one row, and the runners that gave none. */
  const digestsOf = (k: string) =>
    wanted.map(({ runner }) => {
      const c = results.get(runner)!.get(k);
      return { runner, digest: c?.digest, status: c?.status, why: c?.error ?? c?.skip_reason };
    });

  it("uploads: every client's digest is Bee's own reference of the same unsalted bytes", async () => {
    const bytes1m = fixtureData(MiB);
    const wantBytes = await beeReference(node, bytes1m);
    const wantBzz = await bzzReference(node, bytes1m);
    const wantBzzDisk = await bzzReference(node, fixtureData(10 * MiB));
    const wantChunks = await chunksDigest(node, 10);
    const rows: Array<[string, string]> = [
      ['net.bytes.upload [1 MiB]', wantBytes],
      ['net.tags.upload-with-tag [1 MiB]', wantBytes],
      ['net.bzz.upload [1 MiB]', wantBzz],
      ['net.chunks.upload [10 chunks]', wantChunks],
    ];
    for (const [k, want] of rows) for (const d of digestsOf(k)) expect(d, k).toMatchObject({ status: 'ok', digest: want });
    for (const d of digestsOf('net.bzz.upload-from-disk [10 MiB]')) if (d.runner !== 'rs') expect(d).toMatchObject({ status: 'ok', digest: wantBzzDisk });
    // The streamed directory: bee-js and bee-go build the same manifest; bee-rs 1.7.0 another (FINDINGS.md B4a).
    const stream = digestsOf(`net.stream-dir.upload [${spec.cases.find((c) => c.id === 'net.stream-dir.upload')!.params.quick[0]!.label}]`);
    const agreeing = stream.filter((d) => d.runner !== 'rs');
    for (const d of stream) expect(d.status, `${d.runner}: ${d.why}`).toBe('ok');
    if (agreeing.length === 2) expect(agreeing[0]!.digest).toBe(agreeing[1]!.digest);
  });

  it.each([0, 1, 2, 3, 4])("level %i: /bytes and /bzz references agree with Bee, and the tags count the level's chunks", async (level) => {
    const data = fixtureData(MiB);
    const name = ['NONE', 'MEDIUM', 'STRONG', 'INSANE', 'PARANOID'][level];
    const label = `1 MiB, level ${level} (${name})`;
    const wantBytes = await beeReference(node, data, level);
    for (const d of digestsOf(`net.bytes.upload [${label}]`)) expect(d, `${d.runner}: ${d.why}`).toMatchObject({ status: 'ok', digest: wantBytes });
    // Every upload of that tree (each client's digest upload, Bee's own) has a tag with the level's chunk count.
    const splits = await splitCounts(node, wantBytes);
    expect(splits.length).toBeGreaterThanOrEqual(wanted.length + 1);
    expect(new Set(splits)).toEqual(new Set([SPLIT_1MIB[level]]));

    const wantBzz = await bzzReference(node, data, level);
    for (const d of digestsOf(`net.bzz.upload [${label}]`)) expect(d, `${d.runner}: ${d.why}`).toMatchObject({ status: 'ok', digest: wantBzz });
    const bzzSplits = await splitCounts(node, wantBzz);
    expect(new Set(bzzSplits).size, `bzz level ${level}: ${bzzSplits.join(', ')}`).toBe(1);
    // The manifest adds a few chunks on top of the file's: at least the file's own count.
    expect(bzzSplits[0]).toBeGreaterThanOrEqual(SPLIT_1MIB[level]!);
  });
});

/** Bee's own reference for `data` as the single file bench.bin (application/octet-stream), as the bzz upload digests define it. */
async function bzzReference(node: RealNode, data: Buffer, level?: number): Promise<string> {
  const headers: Record<string, string> = { 'swarm-postage-batch-id': node.batchId, 'content-type': 'application/octet-stream' };
  if (level !== undefined) headers['swarm-redundancy-level'] = String(level);
  const res = await fetch(`${node.url}/bzz?name=bench.bin`, { method: 'POST', body: new Uint8Array(data), headers, signal: AbortSignal.timeout(60_000) });
  const body = (await res.json()) as { reference?: string };
  if (res.status !== 201 || !body.reference) throw new Error(`POST /bzz answered ${res.status}: ${JSON.stringify(body)}`);
  return body.reference;
}

/** sha256 of the addresses Bee returns for the spec's `count` unsalted chunks (u64le(4096) || payload j), as net.chunks.upload's digest is defined. */
async function chunksDigest(node: RealNode, count: number): Promise<string> {
  const tag = (await (await fetch(`${node.url}/tags`, { method: 'POST' })).json()) as { uid: number };
  const data = fixtureData(count * 4096);
  const span = Buffer.alloc(8);
  span.writeBigUInt64LE(4096n);
  const h = createHash('sha256');
  for (let j = 0; j < count; j++) {
    const res = await fetch(`${node.url}/chunks`, {
      method: 'POST',
      body: new Uint8Array(Buffer.concat([span, data.subarray(4096 * j, 4096 * (j + 1))])),
      headers: { 'swarm-postage-batch-id': node.batchId, 'swarm-tag': String(tag.uid), 'content-type': 'application/octet-stream' },
    });
    const body = (await res.json()) as { reference?: string };
    if (res.status !== 201 || !body.reference) throw new Error(`POST /chunks answered ${res.status}: ${JSON.stringify(body)}`);
    h.update(Buffer.from(body.reference, 'hex'));
  }
  return h.digest('hex');
}
