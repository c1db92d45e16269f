// The design's nodes made ready for a run: each answers /health (its version is journaled), says
// whether it is a dev node (GET /node beeMode), and has a postage batch: the design's, or one
// bought here when the node is a dev node and none was given (a real node's batch costs BZZ: it
// must be given). The bought batch ids go into the journaled design, so a later phase reuses them.
import { z } from 'zod';
import { buyBatch, waitForHealth } from '../bee/api.js';
import { DEV_NODE_DEFAULTS } from '../bee/dev-node.js';
import { preflight, probe } from '../bee/preflight.js';
import type { Design, DesignNode } from './schema.js';

export interface ReadyNode extends DesignNode {
  batch_id: string;
  version: string;
  dev: boolean;
}

const NodeInfo = z.object({ beeMode: z.string() });

/** Whether the node says it is a dev node (GET /node → beeMode "dev"); unknown answers count as not. */
export async function isDevNode(url: string): Promise<boolean> {
  try {
    const r = await probe(`${url}/node`);
    const p = NodeInfo.safeParse(JSON.parse(r.body));
    return r.status === 200 && p.success && p.data.beeMode === 'dev';
  } catch {
    return false;
  }
}

export async function readyNodes(d: Design, log: (line: string) => void, healthTimeoutMs = 30_000): Promise<ReadyNode[]> {
  const out: ReadyNode[] = [];
  for (const n of d.nodes) {
    const url = n.url.replace(/\/+$/, '');
    const version = await waitForHealth(url, { timeoutMs: healthTimeoutMs }).catch((e: unknown) => {
      throw new Error(`node ${n.label} (${url}): ${(e as Error).message}`);
    });
    const dev = await isDevNode(url);
    let batch = n.batch_id;
    if (batch) {
      await preflight({ url, batchId: batch }).catch((e: unknown) => {
        throw new Error(`node ${n.label} (${url}): batch ${batch}: ${(e as Error).message}`);
      });
    } else if (dev) {
      batch = await buyBatch(url, { amount: DEV_NODE_DEFAULTS.batchAmount, depth: DEV_NODE_DEFAULTS.batchDepth, timeoutMs: DEV_NODE_DEFAULTS.batchTimeoutMs });
      log(`experiment: node ${n.label}: bought postage batch ${batch} on the dev node`);
    } else {
      throw new Error(
        `node ${n.label} (${url}) is not a dev node and has no batch_id: buy a postage batch on it (POST /stamps) and give its id (LABEL=RELEASE@URL#BATCH_ID or batch_id in the design)`,
      );
    }
    out.push({ ...n, url, batch_id: batch, version, dev });
  }
  return out;
}
