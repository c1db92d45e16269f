// The engine's one check of a Bee node before any net case runs: is the URL well formed, does a
// node answer /health, does the postage batch exist and is it usable. Each problem is one message
// naming the URL or batch and the fix, so a run against a dead node fails in seconds instead of
// timing every net case out. `probe` is the bounded-timeout HTTP GET the check is built on.
import { z } from 'zod';

/** How long one probe waits for an answer by default. */
export const PROBE_TIMEOUT_MS = 5_000;

export interface BeeTarget {
  url: string;
  batchId: string;
}

/** A malformed --bee-url or --batch-id (exit 2). */
export class BeeArgumentError extends Error {
  override name = 'BeeArgumentError';
}

/** The node is unreachable, unhealthy, or the batch cannot be used (exit 1). */
export class BeeNodeError extends Error {
  override name = 'BeeNodeError';
}

/** Validates and normalises a node target: http(s) URL without trailing slash, 64 lower-case hex digits. */
export function parseBeeTarget(url: string, batchId: string): BeeTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BeeArgumentError(`--bee-url ${url}: not a URL; give the Bee API URL, e.g. http://localhost:1633`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BeeArgumentError(`--bee-url ${url}: must be http(s), e.g. http://localhost:1633`);
  }
  const id = batchId.trim().replace(/^0x/i, '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(id)) {
    throw new BeeArgumentError(`--batch-id ${batchId}: must be 64 hex digits (a postage batch id, see GET /stamps on the node)`);
  }
  return { url: url.replace(/\/+$/, ''), batchId: id };
}

export interface ProbeAnswer {
  status: number;
  body: string;
}

/**
 * GET `url` and read the body, all within `timeoutMs`. Throws BeeNodeError "no answer from URL
 * in N s" when the node accepts but never answers, or "cannot connect to URL (reason)".
 */
export async function probe(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
    return { status: res.status, body: await res.text() };
  } catch (e) {
    if (signal.aborted) throw new BeeNodeError(`no answer from ${url} in ${timeoutMs / 1000} s`);
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new BeeNodeError(`cannot connect to ${url} (${cause?.code ?? cause?.message ?? (e as Error).message})`);
  }
}

const Health = z.object({ status: z.string(), version: z.string().optional() });
const Batch = z.object({ usable: z.boolean(), exists: z.boolean().optional(), batchTTL: z.number().optional() });
const BeeMessage = z.object({ message: z.string() });

/** Bee's own error message from a JSON error body, else the body's first 200 characters. */
export function beeMessage(body: string): string {
  try {
    const parsed = BeeMessage.safeParse(JSON.parse(body));
    if (parsed.success) return parsed.data.message;
  } catch {
    // not JSON
  }
  return body.trim().slice(0, 200);
}

function json(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

export interface NodeReport {
  version: string;
}

/** Checks the node and its batch once; throws BeeNodeError with the fix, or returns the node version. */
export async function preflight(target: BeeTarget, timeoutMs = PROBE_TIMEOUT_MS): Promise<NodeReport> {
  const fix = 'start the node (or fix --bee-url) and try again';
  let health: ProbeAnswer;
  try {
    health = await probe(`${target.url}/health`, timeoutMs);
  } catch (e) {
    throw new BeeNodeError(`Bee node at ${target.url}: ${(e as Error).message}; ${fix}`);
  }
  const h = Health.safeParse(json(health.body));
  if (health.status !== 200 || !h.success) {
    throw new BeeNodeError(`Bee node at ${target.url}: GET /health answered ${health.status} ${beeMessage(health.body)}; is this a Bee API URL? ${fix}`);
  }
  const stamps = await probe(`${target.url}/stamps/${target.batchId}`, timeoutMs).catch((e: Error) => {
    throw new BeeNodeError(`Bee node at ${target.url}: ${e.message} (reading batch ${target.batchId}); ${fix}`);
  });
  const buy = `buy one (POST /stamps/{amount}/{depth}) or pick one from GET ${target.url}/stamps`;
  if (stamps.status === 404) {
    throw new BeeNodeError(`batch ${target.batchId} is not on the node at ${target.url} (${beeMessage(stamps.body)}); ${buy}`);
  }
  const b = Batch.safeParse(json(stamps.body));
  if (stamps.status !== 200 || !b.success) {
    throw new BeeNodeError(`batch ${target.batchId}: GET /stamps/{id} on ${target.url} answered ${stamps.status} ${beeMessage(stamps.body)}; ${buy}`);
  }
  if (!b.data.usable || b.data.exists === false) {
    throw new BeeNodeError(
      `batch ${target.batchId} on ${target.url} is not usable yet (usable: ${b.data.usable}${b.data.exists === false ? ', expired' : ''}); wait for it to be usable (about a minute after purchase) or ${buy}`,
    );
  }
  return { version: h.data.version ?? 'unknown' };
}
