// The few Bee API calls a dev node's lifecycle needs (wait for /health, buy a postage batch, wait
// until it is usable), each with a bounded timeout. Kept in one module so that the node pre-flight
// check and this lifecycle share one HTTP probe. Responses cross a process boundary: zod checks them.
import { z } from 'zod';

/** One request never waits longer than this (a node that accepts but never answers). */
export const REQUEST_TIMEOUT_MS = 5_000;

const HealthSchema = z.object({ status: z.string(), version: z.string().optional() });
const CreatedBatchSchema = z.object({ batchID: z.string().regex(/^[0-9a-f]{64}$/i, 'expected 64 hex digits') });
const StampSchema = z.object({ usable: z.boolean() });

async function request(method: 'GET' | 'POST', url: URL, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { method, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text itself is the best description of what came back
  }
  return { status: res.status, body };
}

const describe = (e: unknown) => (e instanceof Error ? (e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message) : String(e));
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
    const r = await request('GET', new URL('/health', baseUrl), Math.min(REQUEST_TIMEOUT_MS, o.timeoutMs));
    const h = HealthSchema.safeParse(r.body);
    if (r.status !== 200 || !h.success) throw new Error(`GET /health: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
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

/** Buys a postage batch (POST /stamps/{amount}/{depth}) and waits until the node calls it usable. */
export async function buyBatch(baseUrl: string, o: BatchOptions): Promise<string> {
  const created = await request('POST', new URL(`/stamps/${o.amount}/${o.depth}`, baseUrl), Math.min(REQUEST_TIMEOUT_MS * 6, o.timeoutMs)).catch((e: unknown) => {
    throw new Error(`buying a postage batch on ${baseUrl}: ${describe(e)}`);
  });
  const parsed = CreatedBatchSchema.safeParse(created.body);
  if (created.status !== 201 || !parsed.success) {
    throw new Error(`buying a postage batch on ${baseUrl}: POST /stamps/${o.amount}/${o.depth} answered HTTP ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
  }
  const batchId = parsed.data.batchID.toLowerCase();
  await poll(`postage batch ${batchId} on ${baseUrl} not usable`, { timeoutMs: o.timeoutMs }, async () => {
    const r = await request('GET', new URL(`/stamps/${batchId}`, baseUrl), REQUEST_TIMEOUT_MS);
    const s = StampSchema.safeParse(r.body);
    if (r.status !== 200 || !s.success) throw new Error(`GET /stamps/${batchId}: HTTP ${r.status}`);
    return s.data.usable ? true : undefined;
  });
  return batchId;
}
