// Downloading another job's artifact into a job that can write, with limits enforced while the bytes
// arrive: the artifact was written by a job that ran client code, so its size is whatever that code
// wanted. The zip is fetched from the REST API's redirect (no auth header goes to blob storage),
// counted chunk by chunk and cut off at `maxZipBytes`; only the named entries are then read out of
// it, each inflated under its own limit (zip.ts). Nothing is written to disk.
import { readZipEntries, type ZipLimits } from './zip.js';
import type { RepoRef } from './octokit.js';

export const ARTIFACT_LIMITS = {
  /** The zip as downloaded: results and reports of a big run are a few MiB. */
  maxZipBytes: 64 << 20,
  maxEntryBytes: 16 << 20,
  maxTotalBytes: 64 << 20,
  maxEntries: 10_000,
} as const;

export type ArtifactLimits = ZipLimits & { maxZipBytes: number };

export class ArtifactTooLargeError extends Error {
  override name = 'ArtifactTooLargeError';
}

/** GETs url and returns the body, aborting once more than `limit` bytes have arrived. */
export async function fetchCapped(
  url: string,
  init: RequestInit,
  limit: number,
  what: string,
): Promise<{ status: number; headers: Headers; body: Buffer; received: number }> {
  const controller = new AbortController();
  const res = await fetch(url, { ...init, signal: controller.signal });
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    controller.abort();
    throw new ArtifactTooLargeError(`${what}: ${declared} bytes announced, more than the ${limit} accepted; not downloaded`);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.length;
      if (received > limit) {
        controller.abort();
        await reader.cancel().catch(() => undefined);
        throw new ArtifactTooLargeError(`${what}: more than the ${limit} bytes accepted arrived (${received}); download stopped`);
      }
      chunks.push(Buffer.from(value));
    }
  }
  return { status: res.status, headers: res.headers, body: Buffer.concat(chunks), received };
}

export interface ArtifactRef extends RepoRef {
  artifactId: number;
  token: string;
  /** GITHUB_API_URL. */
  apiUrl: string;
}

/**
 * The zip of an artifact, by the REST API: GET .../actions/artifacts/<id>/zip answers 302 to a
 * signed blob URL, which is fetched without the token.
 */
export async function downloadArtifactZip(a: ArtifactRef, maxZipBytes: number): Promise<Buffer> {
  const url = `${a.apiUrl.replace(/\/+$/, '')}/repos/${a.owner}/${a.repo}/actions/artifacts/${a.artifactId}/zip`;
  const what = `artifact ${a.artifactId}`;
  const first = await fetchCapped(
    url,
    {
      redirect: 'manual',
      headers: { authorization: `Bearer ${a.token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'bee-bench' },
    },
    64 << 10,
    what,
  );
  if (first.status === 200) throw new Error(`${what}: the API answered with the zip itself; expected a redirect to storage`);
  const location = first.headers.get('location');
  if (first.status !== 302 || !location) throw new Error(`${what}: download answered ${first.status}: ${first.body.toString('utf8').slice(0, 300)}`);
  const target = new URL(location, url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error(`${what}: redirect to a ${target.protocol} URL refused`);
  const zip = await fetchCapped(target.href, { redirect: 'follow' }, maxZipBytes, what);
  if (zip.status !== 200) throw new Error(`${what}: storage answered ${zip.status}`);
  return zip.body;
}

/** Downloads an artifact and reads the wanted entries out of it, every limit enforced on the way. */
export async function readArtifactEntries(
  a: ArtifactRef,
  want: (name: string) => boolean,
  limits: ArtifactLimits = ARTIFACT_LIMITS,
): Promise<Map<string, Buffer>> {
  const zip = await downloadArtifactZip(a, limits.maxZipBytes);
  return readZipEntries(zip, want, limits);
}
