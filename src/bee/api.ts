// The Bee API calls of a dev node's start-up: wait for /health, buy a postage batch, wait until it
// is usable. Built on the pre-flight check's bounded-timeout probe (preflight.ts), polled until a
// deadline; only the purchase, a POST, is a request of its own. Responses are checked with zod.
import { z } from 'zod';
import { PROBE_TIMEOUT_MS, beeMessage, preflight, probe } from './preflight.js';

const HealthSchema = z.object({ status: z.string(), version: z.string().optional() });
const CreatedBatchSchema = z.object({ batchID: z.string().regex(/^[0-9a-f]{64}$/i, 'expected 64 hex digits') });

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Called between attempts: a reason to give up early (the node's process exited), or undefined. */
  gone?: () => string | undefined;
}

/** Polls until fn returns a value; throws with the last failure when the deadline passes. */
async function poll<T>(what: string, o: WaitOptions, fn: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + o.timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    const gone = o.gone?.();
    if (gone) throw new Error(`${what}: ${gone}`);
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      last = describe(e);
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`${what}: no success within ${Math.round(o.timeoutMs / 1000)} s (last: ${last})`);
    await sleep(Math.min(o.intervalMs ?? 250, left));
  }
}

/** Waits until GET /health answers 200 with status "ok"; returns the node's version. */
export function waitForHealth(baseUrl: string, o: WaitOptions): Promise<string> {
  return poll(`Bee at ${baseUrl} not healthy`, o, async () => {
    const r = await probe(`${baseUrl}/health`, Math.min(PROBE_TIMEOUT_MS, o.timeoutMs));
    let h;
    try {
      h = HealthSchema.safeParse(JSON.parse(r.body));
    } catch {
      h = undefined;
    }
    if (r.status !== 200 || !h?.success) throw new Error(`GET /health: HTTP ${r.status} ${beeMessage(r.body)}`);
    if (h.data.status !== 'ok') throw new Error(`GET /health: status "${h.data.status}"`);
    return h.data.version ?? 'unknown version';
  });
}

export interface BatchOptions {
  /** PLUR per chunk per block; the dev node's mock chain accepts any positive amount. */
  amount: bigint;
  /** 2^depth chunks of capacity; 17 is Bee's minimum. */
  depth: number;
  timeoutMs: number;
}

/** Buys a postage batch (POST /stamps/{amount}/{depth}), then waits until the pre-flight check passes. */
export async function buyBatch(baseUrl: string, o: BatchOptions): Promise<string> {
  const path = `/stamps/${o.amount}/${o.depth}`;
  let status: number;
  let body: string;
  try {
    const res = await fetch(`${baseUrl}${path}`, { method: 'POST', signal: AbortSignal.timeout(Math.min(6 * PROBE_TIMEOUT_MS, o.timeoutMs)) });
    status = res.status;
    body = await res.text();
  } catch (e) {
    throw new Error(`buying a postage batch on ${baseUrl}: POST ${path}: ${describe(e)}`);
  }
  let parsed;
  try {
    parsed = CreatedBatchSchema.safeParse(JSON.parse(body));
  } catch {
    parsed = undefined;
  }
  if (status !== 201 || !parsed?.success) throw new Error(`buying a postage batch on ${baseUrl}: POST ${path} answered HTTP ${status} ${beeMessage(body)}`);
  const batchId = parsed.data.batchID.toLowerCase();
  await poll(`postage batch ${batchId} on ${baseUrl} not usable`, { timeoutMs: o.timeoutMs }, async () => {
    await preflight({ url: baseUrl, batchId });
    return true;
  });
  return batchId;
}
