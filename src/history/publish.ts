// Appending runs to the history branch with the trend site beside them: what the action does on
// push and dispatch events, and what `bee-bench history publish` does by hand.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../build/paths.js';
import type { RunProfiles } from '../profile/index.js';
import type { Result, Spec } from '../spec/schema.js';
import { catalogFromSpec } from './derive.js';
import { toRecord, type RecordContext } from './record.js';
import type { HistoryRecord } from './schema.js';
import { writeFolder, writeHistory, type WriteReport } from './store.js';
import { childEnv } from '../child/env.js';

export interface PublishOptions {
  remote: string;
  /** Token for an HTTP(S) remote (see WriteOptions.token). */
  token?: string;
  workdir: string;
  branch?: string;
  folder?: string;
  /** Points kept per series in the derived files (records are all kept). */
  maxRuns?: number;
  /** The branch the derived files always keep; default: the branch with the most records. */
  defaultBranch?: string;
  spec: Spec;
  /** Compact function profiles per runner, kept beside the records (profiles.ts). */
  profiles?: readonly RunProfiles[];
  log?: (line: string) => void;
}

/** HEAD of a git checkout as a history record names it (throws when dir has no commit). */
export function headCommit(dir: string): RecordContext['commit'] {
  const out = execFileSync('git', ['-C', dir, 'log', '-1', '--format=%H%x00%an%x00%cI%x00%B'], {
    encoding: 'utf8',
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [sha, author, timestamp, message] = out.split('\0') as [string, string, string, string];
  return { sha, author, timestamp, message: message.trim() };
}

/**
 * The web page of a commit, for the site's links: commitUrl as given (http or https), else
 * <repoUrl>/commit/<sha> (GitHub's and GitLab's layout; a trailing .git or / is dropped), else none.
 */
export function commitUrl(sha: string, from: { commitUrl?: string; repoUrl?: string }): string | undefined {
  const given = from.commitUrl ?? from.repoUrl;
  if (given === undefined) return undefined;
  const flag = from.commitUrl !== undefined ? '--commit-url' : '--repo-url';
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new RangeError(`${flag} ${given}: not a URL; give the https address of the ${from.commitUrl !== undefined ? 'commit page' : 'repository'}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RangeError(`${flag} ${given}: only http(s) addresses are linked from the site`);
  if (from.commitUrl !== undefined) return url.href;
  return `${url.href.replace(/\.git\/?$/, '').replace(/\/+$/, '')}/commit/${sha}`;
}

/** The built trend site (pages/dist), copied next to index.json on every write. */
export function siteDir(): string | undefined {
  const dir = join(packageRoot(), 'pages', 'dist');
  return existsSync(join(dir, 'index.html')) ? dir : undefined;
}

export function publishRecords(records: HistoryRecord[], o: PublishOptions): Promise<WriteReport> {
  return writeHistory(records, {
    remote: o.remote,
    ...(o.token ? { token: o.token } : {}),
    workdir: o.workdir,
    branch: o.branch,
    folder: o.folder,
    siteDir: siteDir(),
    derive: {
      catalog: catalogFromSpec(o.spec),
      ...(o.maxRuns ? { maxRuns: o.maxRuns } : {}),
      ...(o.defaultBranch ? { branches: { default: o.defaultBranch } } : {}),
    },
    ...(o.profiles && o.profiles.length > 0 ? { profiles: o.profiles } : {}),
    log: o.log,
  });
}

export function publishResults(results: readonly Result[], ctx: RecordContext, o: PublishOptions): Promise<WriteReport> {
  return publishRecords(
    results.map((r) => toRecord(r, ctx)),
    o,
  );
}

/** The local history of `bee-bench run`, under its --out folder: each run a point; `bee-bench site` serves it. */
export const LOCAL_HISTORY = 'history';

/**
 * What a local run's records name: HEAD of the checkout `dir` runs in (its branch), or, outside a
 * git checkout, an all-zero commit dated now on branch "local" (the points still order by run time).
 */
export function localContext(dir: string, runId: string): RecordContext {
  const run = { id: runId };
  try {
    const commit = headCommit(dir);
    const branch = execFileSync('git', ['-C', dir, 'rev-parse', '--abbrev-ref', 'HEAD'], {
      encoding: 'utf8',
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return { commit, branch: branch === 'HEAD' || branch === '' ? 'local' : branch, event: 'local', run };
  } catch {
    const commit = { sha: '0'.repeat(40), author: 'local', timestamp: new Date().toISOString(), message: 'not a git checkout' };
    return { commit, branch: 'local', event: 'local', run };
  }
}

/** Adds a run's results to the local history folder and re-derives what the site reads. */
export function keepLocally(
  results: readonly Result[],
  ctx: RecordContext,
  o: { folder: string; spec: Spec; profiles?: readonly RunProfiles[]; log?: (line: string) => void },
): ReturnType<typeof writeFolder> {
  return writeFolder(
    results.map((r) => toRecord(r, ctx)),
    {
      folder: o.folder,
      derive: { catalog: catalogFromSpec(o.spec) },
      ...(o.profiles && o.profiles.length > 0 ? { profiles: o.profiles } : {}),
      ...(o.log ? { log: o.log } : {}),
    },
  );
}
