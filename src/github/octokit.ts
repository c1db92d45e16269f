// The one place the action makes a REST client. @actions/github reads GITHUB_API_URL (GitHub
// Enterprise, or a local server in tests) when it is loaded; an explicit baseUrl overrides it.
import { getOctokit } from '@actions/github';

export type Octokit = ReturnType<typeof getOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

export function makeOctokit(token: string, baseUrl?: string): Octokit {
  return getOctokit(token, baseUrl ? { baseUrl } : {});
}

/** `owner/name` (GITHUB_REPOSITORY) as a RepoRef; throws on anything else. */
export function parseRepo(full: string): RepoRef {
  const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(full.trim());
  if (!m) throw new Error(`"${full}" is not an owner/name repository`);
  return { owner: m[1]!, repo: m[2]! };
}

/** The status of an octokit RequestError, or undefined for anything else. */
export function httpStatus(e: unknown): number | undefined {
  const s = (e as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}
