// Real Bee nodes for the tests: the releases in ../shared/bee (beside the clone, as on CI), each
// unpacked once per test run into a temporary folder outside the repository (test/bee/real-node-setup.ts
// makes and removes it) and checked against the sha256 in ../shared/bee/README.md's table, then
// started as dev nodes (`bee dev` on a free loopback port, /health awaited, a batch bought) through
// the engine's own launcher, and stopped by the test file's after-hook. Without ../shared/bee the
// tests that need a node skip, and the summary reporter says in one line what and why.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { z } from 'zod';
import { Cleanup, startDevNode, type DevNode } from '../../src/bee/dev-node.js';
import { SHARED_BEE, readmeDigests, realBeeAvailability, type BeeRelease } from './real-bee-archives.js';

export { BEE_RELEASES, type BeeRelease } from './real-bee-archives.js';

const availability = realBeeAvailability();
/** For describe.skipIf: true when the tests cannot have real nodes. */
export const noRealBee = !availability.ok;
/** The test name suffix that says why a real-node suite skipped (empty when it runs). */
export const realBeeSkipNote = availability.ok ? '' : ` (skipped: ${availability.reason})`;

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's folder for unpacked Bee binaries (test/bee/real-node-setup.ts). */
    realBeeDir: string;
  }
}

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * The path of release r's `bee` executable, unpacked on first use in this test run and checked
 * against the README's sha256 (a mismatch throws, naming both digests and the archive).
 */
export async function realBeeBinary(r: BeeRelease): Promise<string> {
  if (!availability.ok) throw new Error(`no real Bee: ${availability.reason}; ${availability.fix}`);
  const dir = join(inject('realBeeDir'), r);
  const bin = join(dir, 'bee');
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  const archive = join(SHARED_BEE, `bee-v${r}.xz`);
  const partial = `${bin}.partial`;
  const xz = spawnSync('sh', ['-c', 'xz -dc "$1" > "$2"', 'unpack', archive, partial], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (xz.status !== 0) throw new Error(`unpacking ${archive}: xz exited ${xz.status}: ${xz.stderr.trim()}`);
  const want = readmeDigests(readFileSync(join(SHARED_BEE, 'README.md'), 'utf8')).get(r)!;
  const got = await sha256File(partial);
  if (got !== want) {
    rmSync(partial, { force: true });
    throw new Error(`${archive} unpacks to sha256 ${got}, but ${join(SHARED_BEE, 'README.md')} says ${want}: the archive is damaged or not that release`);
  }
  chmodSync(partial, 0o755);
  renameSync(partial, bin);
  return bin;
}

export interface RealNode extends DevNode {
  release: BeeRelease;
}

/**
 * Started dev nodes of a test file, stopped together by its after-hook:
 * `const nodes = realNodes(); afterAll(nodes.stopAll); … await nodes.start('2.8.0')`.
 */
export function realNodes() {
  const cleanup = new Cleanup();
  return {
    async start(r: BeeRelease = '2.8.0'): Promise<RealNode> {
      const path = await realBeeBinary(r);
      const node = await startDevNode({ how: { kind: 'binary', path }, log: () => {}, healthTimeoutMs: 60_000, batchTimeoutMs: 60_000 }, cleanup);
      return { ...node, release: r };
    },
    stopAll: () => cleanup.run(),
  };
}

const TagsSchema = z.object({ tags: z.array(z.object({ uid: z.number(), address: z.string(), split: z.number() })) });

/**
 * The split (chunk) counts of the node's upload tags whose root address is `reference`: a deferred
 * upload without a Swarm-Tag header gets a tag of its own, so every upload of that content by any
 * client is one entry (GET /tags, which lists them with their addresses).
 */
export async function splitCounts(node: { url: string }, reference: string): Promise<number[]> {
  const res = await fetch(`${node.url}/tags?limit=1000`, { signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) throw new Error(`GET /tags answered ${res.status}: ${await res.text()}`);
  return TagsSchema.parse(await res.json())
    .tags.filter((t) => t.address === reference)
    .map((t) => t.split);
}

/** Bee's own reference for `data` uploaded with one direct POST /bytes (deferred, at `level` when given). */
export async function beeReference(node: DevNode, data: Uint8Array, level?: number): Promise<string> {
  const headers: Record<string, string> = { 'swarm-postage-batch-id': node.batchId, 'content-type': 'application/octet-stream' };
  if (level !== undefined) headers['swarm-redundancy-level'] = String(level);
  const res = await fetch(`${node.url}/bytes`, { method: 'POST', body: new Uint8Array(data), headers, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /bytes (level ${level ?? 'default'}) answered ${res.status}: ${text}`);
  return z.object({ reference: z.string().regex(/^[0-9a-f]{64}$/) }).parse(JSON.parse(text)).reference;
}

/** data[0, n): SHA-256(data_label || u64le(i)) blocks, as the spec's fixtures define it (what the runners upload unsalted). */
export function fixtureData(n: number): Buffer {
  const { data_label } = z
    .object({ fixtures: z.object({ data_label: z.string() }) })
    .parse(JSON.parse(readFileSync(join(process.cwd(), 'spec', 'bench-spec.json'), 'utf8'))).fixtures;
  const blocks: Buffer[] = [];
  for (let i = 0; i * 32 < n; i++) {
    const index = Buffer.alloc(8);
    index.writeBigUInt64LE(BigInt(i));
    blocks.push(createHash('sha256').update(data_label).update(index).digest());
  }
  return Buffer.concat(blocks).subarray(0, n);
}
