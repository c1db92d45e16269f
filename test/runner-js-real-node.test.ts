// The bee-js runner against a real Bee v2.8.0 dev node (test/bee/real-node.ts): its `ops`
// subcommand (the release experiment's driver: JSON lines in and out) and the real-node params of
// its `run` cases (erasure level, strategy, fallback, upload mode), checked against what the node
// itself answers: references equal Bee's own for the same bytes at the same level, the level's
// chunk count in the upload's tag, downloads that hash to what was uploaded. Without ../shared/bee
// those suites skip, saying why; the ops timeout and line handling against a stalling loopback
// server run everywhere.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Plan } from '../src/spec/plan.js';
import { ResultSchema, type CaseResult } from '../src/spec/schema.js';
import { beeReference, fixtureData, noRealBee, realBeeSkipNote, realNodes, splitCounts, type RealNode } from './bee/real-node.js';
import { quickPlan } from './fixtures/spec.js';

const RUNNER = 'runners/js/bin/bee-bench-js.mjs';
const MiB = 1 << 20;
/** Chunks of a 1 MiB upload at levels 0-4 (../shared/bee/README.md; test/bee/real-node.test.ts checks them). */
const SPLIT_1MIB = [259, 288, 324, 361, 915];
const DEV_NODE_REFUSES_DIRECT = 'Bee answered 400 to POST /bytes: operation not supported in dev mode';

/** The ops answers of the contract, one schema per shape; anything else fails the parse. */
const Answer = z.union([
  z.strictObject({
    id: z.string(),
    ok: z.literal(true),
    ms: z.number().nonnegative(),
    reference: z.string().regex(/^[0-9a-f]{64}$/),
    tag: z.number().int().optional(),
  }),
  z.strictObject({ id: z.string(), ok: z.literal(true), ms: z.number().nonnegative(), bytes: z.number().int(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  z.strictObject({ id: z.string().nullable(), ok: z.literal(false), ms: z.number().nonnegative().optional(), error: z.string().min(1) }),
]);
type Answer = z.infer<typeof Answer>;
const Ready = z.strictObject({ ready: z.literal(true), runner: z.literal('js'), client: z.strictObject({ name: z.string(), version: z.string() }) });

/** The seed rule: the first `size` bytes of SHA-256(seed || u64be(0)) || SHA-256(seed || u64be(1)) || … */
function seedPayload(seed: string, size: number): Buffer {
  const blocks: Buffer[] = [];
  for (let i = 0; i * 32 < size; i++) {
    const index = Buffer.alloc(8);
    index.writeBigUInt64BE(BigInt(i));
    blocks.push(createHash('sha256').update(Buffer.from(seed, 'hex')).update(index).digest());
  }
  return Buffer.concat(blocks).subarray(0, size);
}
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const newSeed = () => randomBytes(32).toString('hex');

/** A running `ops` process: send lines, read answers in order (each read bounded), end it. */
function opsProcess(url: string, batchId: string) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [RUNNER, 'ops', '--bee-url', url, '--batch-id', batchId]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const read = async (timeoutMs = 60_000): Promise<unknown> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs)),
    );
    try {
      const next = await Promise.race([lines.next(), late]);
      if (next.done) throw new Error(`ops ended its output; stderr:\n${stderr}`);
      return JSON.parse(next.value);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    read,
    /** Sends one line (an object as JSON, a string as it is) and reads its answer. */
    async ask(line: object | string, timeoutMs?: number): Promise<Answer> {
      child.stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
      return Answer.parse(await read(timeoutMs));
    },
    /** Closes stdin; resolves with the exit code. */
    end: () => {
      child.stdin.end();
      return exited;
    },
    kill: () => child.kill('SIGKILL'),
    stderr: () => stderr,
  };
}
type Ops = ReturnType<typeof opsProcess>;

/** Runs a plan against the node; returns its cases by label. */
function runPlan(plan: Plan, node: { url: string; batchId: string }): Promise<Map<string, CaseResult>> {
  const dir = mkdtempSync(join(tmpdir(), 'bee-bench-js-real-'));
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  const out = join(dir, 'result.json');
  const child = spawn(process.execPath, [RUNNER, 'run', '--plan', join(dir, 'plan.json'), '--out', out, '--bee-url', node.url, '--batch-id', node.batchId]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`runner exited ${code}: ${stderr}`));
      const result = ResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
      resolve(new Map(result.cases.map((c) => [`${c.id} ${String(c.param.label)}`, c])));
    }),
  );
}

/**
 * Plan units made from a quick-profile unit of `from`, one per param edit: id, label and the
 * real-node params replaced (the realnode spec gives them; the runner reads only the plan).
 */
function unitsOf(from: string, edits: Array<{ id?: string; label: string; param: Record<string, string | number | boolean> }>, iters = 1): Plan {
  const plan = quickPlan('js', [from], { iters });
  const base = plan.units[0]!;
  return {
    ...plan,
    units: edits.map((e, unit) => {
      const param = { ...base.param, ...e.param, label: e.label };
      return { ...base, unit, id: e.id ?? base.id, param, digest: base.digest && { ...base.digest, param } };
    }),
  };
}

describe.skipIf(noRealBee)(`runner-js ops against a real Bee v2.8.0 dev node${realBeeSkipNote}`, () => {
  const nodes = realNodes();
  let node: RealNode;
  let ops: Ops;
  beforeAll(async () => {
    node = await nodes.start('2.8.0');
    ops = opsProcess(node.url, node.batchId);
  }, 120_000);
  afterAll(async () => {
    ops?.kill();
    await nodes.stopAll();
  });

  it('says it is ready first, naming bee-js and its version', async () => {
    const pkg = z.object({ version: z.string() }).parse(JSON.parse(readFileSync('runners/js/node_modules/@ethersphere/bee-js/package.json', 'utf8')));
    expect(Ready.parse(await ops.read())).toEqual({ ready: true, runner: 'js', client: { name: '@ethersphere/bee-js', version: pkg.version } });
  });

  it.each([0, 2])(
    'round-trips at level %i: Bee’s own reference and chunk count, and downloads that hash to the seed rule’s payload',
    async (level) => {
      const seed = newSeed();
      const payload = seedPayload(seed, MiB);
      const up = await ops.ask({ op: 'upload', id: `u${level}`, size: MiB, seed, level });
      expect(up).toMatchObject({ id: `u${level}`, ok: true, tag: expect.any(Number) });
      const reference = (up as { reference: string }).reference;
      expect(reference).toBe(await beeReference(node, payload, level));
      // The runner's upload and the reference upload: both at the level's chunk count.
      expect(await splitCounts(node, reference)).toEqual([SPLIT_1MIB[level], SPLIT_1MIB[level]]);

      const strategies = level === 0 ? [{}] : [{ strategy: 'DATA' }, { strategy: 'RACE', fallback: false }, { strategy: 'PROX', fallback: true }];
      for (const [k, s] of strategies.entries()) {
        const down = await ops.ask({ op: 'download', id: `d${level}.${k}`, reference, timeout_ms: 60_000, ...s });
        expect(down, JSON.stringify(s)).toEqual({ id: `d${level}.${k}`, ok: true, ms: expect.any(Number), bytes: MiB, sha256: sha256(payload) });
      }
    },
    120_000,
  );

  it('uploads to /bzz as payload.bin and downloads it back through /bzz', async () => {
    const seed = newSeed();
    const up = await ops.ask({ op: 'upload', id: 'z', size: 10_000, seed, level: 2, endpoint: 'bzz' });
    expect(up.ok, JSON.stringify(up)).toBe(true);
    const reference = (up as { reference: string }).reference;
    // A manifest: not the /bytes reference of the same bytes.
    expect(reference).not.toBe(await beeReference(node, seedPayload(seed, 10_000), 2));
    const res = await fetch(`${node.url}/bzz/${reference}`, { signal: AbortSignal.timeout(10_000) });
    expect(res.headers.get('content-disposition')).toContain('payload.bin');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    const down = await ops.ask({ op: 'download', id: 'zd', endpoint: 'bzz', reference, strategy: 'DATA' });
    expect(down).toMatchObject({ ok: true, bytes: 10_000, sha256: sha256(seedPayload(seed, 10_000)) });
  }, 60_000);

  it('answers an unknown reference with ok:false and the status, a direct upload with the node’s refusal', async () => {
    const missing = await ops.ask({ op: 'download', id: 'gone', reference: '1'.repeat(64), timeout_ms: 30_000 });
    expect(missing).toMatchObject({ id: 'gone', ok: false, ms: expect.any(Number), error: `Bee answered 404 to GET /bytes/${'1'.repeat(64)}: Not Found` });
    const direct = await ops.ask({ op: 'upload', id: 'direct', size: 1000, seed: newSeed(), deferred: false });
    expect(direct).toMatchObject({ id: 'direct', ok: false, error: DEV_NODE_REFUSES_DIRECT });
  }, 60_000);

  it('answers strategy NONE "unsupported", naming bee-js and the option it drops, without a request', async () => {
    const none = await ops.ask({ op: 'download', id: 'none', reference: '1'.repeat(64), strategy: 'NONE' });
    expect(none).toEqual({
      id: 'none',
      ok: false,
      error: expect.stringMatching(/^unsupported: @ethersphere\/bee-js \S+ has no redundancyStrategy NONE \(0\): .*without a Swarm-Redundancy-Strategy header/),
    });
  });

  it('answers bad lines with "bad op" and the id when there is one, and goes on; exits 0 at the end of input', async () => {
    expect(await ops.ask('not json')).toMatchObject({ id: null, ok: false, error: expect.stringMatching(/^bad op: not JSON/) });
    expect(await ops.ask({ op: 'delete', id: 'x' })).toEqual({ id: 'x', ok: false, error: 'bad op: unknown op "delete" (upload or download)' });
    expect(await ops.ask({ op: 'upload', id: 'l', size: 10, seed: newSeed(), level: 5 })).toMatchObject({
      id: 'l',
      ok: false,
      error: expect.stringMatching(/^bad op: level: must be 0 or 1 or 2 or 3 or 4, got 5/),
    });
    expect(await ops.ask({ op: 'download', id: 'r', reference: 'abc' })).toMatchObject({ ok: false, error: expect.stringMatching(/^bad op: reference: /) });
    // Still serving.
    expect(await ops.ask({ op: 'upload', id: 'after', size: 32, seed: newSeed() })).toMatchObject({ id: 'after', ok: true });
    expect(await ops.end()).toBe(0);
  }, 60_000);
});

describe.skipIf(noRealBee)(`runner-js run against a real Bee v2.8.0 dev node${realBeeSkipNote}`, () => {
  const nodes = realNodes();
  let node: RealNode;
  beforeAll(async () => {
    node = await nodes.start('2.8.0');
  }, 120_000);
  afterAll(nodes.stopAll);

  it('runs net.stamps.list and net.stamps.concurrent (bee-js batch objects never leave the case)', async () => {
    const cases = await runPlan(quickPlan('js', ['net.stamps.*'], { iters: 2 }), node);
    for (const c of cases.values()) expect([c.id, c.status, c.error]).toEqual([c.id, 'ok', undefined]);
    expect(cases.size).toBe(2);
  }, 120_000);

  it("net.bytes.upload at each level 0-4: its digest is Bee's own reference of the fixture at that level, with that level's chunk count", async () => {
    const levels = [0, 1, 2, 3, 4];
    const cases = await runPlan(
      unitsOf(
        'net.bytes.upload',
        levels.map((l) => ({ label: `1 MiB L${l}`, param: { bytes: MiB, redundancy_level: l } })),
      ),
      node,
    );
    const data = fixtureData(MiB);
    for (const l of levels) {
      const c = cases.get(`net.bytes.upload 1 MiB L${l}`)!;
      expect([c.status, c.error]).toEqual(['ok', undefined]);
      expect(c.digest, `level ${l}`).toBe(await beeReference(node, data, l));
      // Every upload of the fixture at this level (the runner's digest upload, the reference upload).
      const splits = await splitCounts(node, c.digest!);
      expect(splits.length).toBeGreaterThanOrEqual(2);
      expect(new Set(splits), `level ${l}`).toEqual(new Set([SPLIT_1MIB[l]]));
    }
  }, 180_000);

  it('downloads at a level with a strategy, skips strategy NONE naming bee-js, skips a direct upload quoting the node', async () => {
    const cases = await runPlan(
      {
        ...unitsOf('net.bzz.download', [
          { id: 'net.bytes.download', label: 'L2 DATA', param: { redundancy_level: 2, strategy: 'DATA' } },
          { id: 'net.bytes.download', label: 'L4 RACE strict', param: { redundancy_level: 4, strategy: 'RACE', fallback: false } },
          { id: 'net.bzz.download', label: 'L3 PROX', param: { redundancy_level: 3, strategy: 'PROX' } },
          { id: 'net.bytes.download', label: 'L0 NONE', param: { redundancy_level: 0, strategy: 'NONE' } },
          { id: 'net.bytes.download', label: 'bad', param: { strategy: 'FAST' } },
        ]),
      },
      node,
    );
    for (const label of ['net.bytes.download L2 DATA', 'net.bytes.download L4 RACE strict', 'net.bzz.download L3 PROX'])
      expect([label, cases.get(label)!.status, cases.get(label)!.error]).toEqual([label, 'ok', undefined]);
    expect(cases.get('net.bytes.download L0 NONE')).toMatchObject({
      status: 'skipped',
      skip_reason: expect.stringMatching(/^@ethersphere\/bee-js \S+ has no redundancyStrategy NONE \(0\)/),
    });
    expect(cases.get('net.bytes.download bad')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^BadParam: param\.strategy: must be NONE, DATA, PROX, RACE, got "FAST"/),
    });

    const direct = await runPlan(unitsOf('net.bytes.upload', [{ label: 'direct', param: { deferred: false, redundancy_level: 1 } }]), node);
    expect(direct.get('net.bytes.upload direct')).toMatchObject({
      status: 'skipped',
      skip_reason: `the node refuses direct uploads: ${DEV_NODE_REFUSES_DIRECT}`,
    });
  }, 180_000);
});

describe('runner-js ops against a loopback server that stalls', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Headers and half a body, then nothing: a download that never finishes.
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '2048' });
      res.write(Buffer.alloc(1024));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('aborts a download still streaming after timeout_ms and answers "timeout after N ms", then serves the next line', async () => {
    const ops = opsProcess(url, 'ab'.repeat(32));
    try {
      Ready.parse(await ops.read());
      const answer = await ops.ask({ op: 'download', id: 'slow', reference: 'cd'.repeat(32), timeout_ms: 300 }, 20_000);
      expect(answer).toEqual({ id: 'slow', ok: false, ms: expect.any(Number), error: 'timeout after 300 ms' });
      expect(await ops.ask('{}')).toEqual({ id: null, ok: false, error: 'bad op: no "op" (upload or download)' });
      expect(await ops.end()).toBe(0);
    } finally {
      ops.kill();
    }
  }, 30_000);

  it('refuses to start without --bee-url and --batch-id (exit 2, naming them)', async () => {
    const child = spawn(process.execPath, [RUNNER, 'ops', '--bee-url', url]);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--bee-url needs --batch-id');
  });
});
