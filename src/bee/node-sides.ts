// The Bee node as the variable of an A/B (`ab --base-bee … --head-bee …`, the action's base-bee and
// head-bee inputs): each side is a Bee executable started as a dev node for the job, or a running
// node given by URL and batch id. The two nodes are up, checked and named by their version (GET
// /health) before any runner starts, and the started ones are stopped on every path.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { BeeArgumentError, parseBeeTarget, preflight, type BeeTarget } from './preflight.js';
import { withDevNodes } from './session.js';
import type { DevNodeOptions } from './dev-node.js';

export type NodeSideName = 'base' | 'head';

/** What a side names: a Bee executable to start as a dev node, or a running node and its batch. */
export type NodeSpec = { kind: 'binary'; path: string } | { kind: 'url'; target: BeeTarget };

/** A side's node once it answers: where it is, what it runs, how it came to be. */
export interface NodeSide {
  url: string;
  batchId: string;
  /** The node's version from GET /health, e.g. 2.8.0-41d6efc6. */
  version: string;
  /** "dev node of /path/to/bee" or "node at URL". */
  how: string;
}

/**
 * Parses one side's value (`--base-bee`, input base-bee): an http(s) URL needs its batch id; anything
 * else is the path of a Bee executable (resolved against `cwd`), which must exist and takes no batch id.
 * Throws BeeArgumentError naming `flag` and the fix.
 */
export function parseNodeSpec(value: string, batchId: string | undefined, flag: string, batchFlag: string, cwd = process.cwd()): NodeSpec {
  const v = value.trim();
  if (/^https?:\/\//i.test(v)) {
    if (!batchId) throw new BeeArgumentError(`${flag} ${v}: a running node needs its postage batch: give ${batchFlag} (64 hex digits)`);
    try {
      return { kind: 'url', target: parseBeeTarget(v, batchId) };
    } catch (e) {
      throw new BeeArgumentError(`${flag}: ${(e as Error).message.replace(/^--bee-url |^--batch-id /, '')}`);
    }
  }
  const path = resolve(cwd, v);
  if (!existsSync(path) || !statSync(path).isFile())
    throw new BeeArgumentError(
      `${flag} ${v}: no such file (${path}); give a Bee executable that has \`bee dev\` (Bee ≤ 2.8.0) or an http(s) URL of a running node`,
    );
  if (batchId) throw new BeeArgumentError(`${batchFlag}: ${flag} starts a dev node that buys its own batch; drop ${batchFlag}`);
  return { kind: 'binary', path };
}

/**
 * Runs `work` with both sides' nodes up: the executables started as dev nodes (together, under one
 * clean-up), the URLs checked (health, batch usable). Each side is named by its /health version.
 */
export async function withNodeSides<T>(
  specs: Record<NodeSideName, NodeSpec>,
  o: Pick<DevNodeOptions, 'log'>,
  work: (nodes: Record<NodeSideName, NodeSide>) => Promise<T>,
): Promise<T> {
  const sides = ['base', 'head'] as const;
  const started = sides.filter((s) => specs[s].kind === 'binary');
  const devOptions = started.map((s): DevNodeOptions => ({ how: { kind: 'binary', path: (specs[s] as { path: string }).path }, log: o.log }));
  return withDevNodes(devOptions, async (devNodes) => {
    const out = {} as Record<NodeSideName, NodeSide>;
    for (const s of sides) {
      const spec = specs[s];
      if (spec.kind === 'binary') {
        const n = devNodes[started.indexOf(s)]!;
        out[s] = { url: n.url, batchId: n.batchId, version: n.version, how: `dev node of ${spec.path}` };
      } else {
        const { version } = await preflight(spec.target);
        out[s] = { ...spec.target, version, how: `node at ${spec.target.url}` };
      }
      o.log(`${s} node: Bee ${out[s].version} (${out[s].how})`);
    }
    return work(out);
  });
}
