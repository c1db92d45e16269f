// The alert tests' shared set-up: bee-rs's repository on the local API server (every request
// checked against GitHub's OpenAPI description), emptied before each test, and one push judged
// against the branch's history and synced as the publish job does.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { syncAlerts, type AlertOutcome, type AlertRun } from '../../src/alert/issues.js';
import { judgeAgainstBranch } from '../../src/alert/judge.js';
import { makeOctokit } from '../../src/github/octokit.js';
import type { HistoryRecord } from '../../src/history/schema.js';
import { loadSpec } from '../../src/spec/load.js';
import type { Result } from '../../src/spec/schema.js';
import { GitHubApiServer } from '../github/api-server.js';

export const { spec } = loadSpec('spec/bench-spec.json');
export const repo = { owner: 'ethersphere', repo: 'bee-rs' };
export const SIGN = 'cpu.ecdsa.sign';

/** The file's API server: started once, emptied before each test; gh() is a client with a write token. */
export function alertServer(): { server: GitHubApiServer; gh: () => ReturnType<typeof makeOctokit> } {
  const server = new GitHubApiServer({ ...repo, tokens: { write: ['ghs_write'] } });
  let base = '';
  beforeAll(async () => {
    base = await server.start();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.issues.length = 0;
    server.comments.length = 0;
    server.requests.length = 0;
  });
  return { server, gh: () => makeOctokit('ghs_write', base) };
}

/** Judges bee-rs's push `sha` against the branch's history (last 8 runs) and syncs the alert issues. */
export function judgeAndSyncPush(
  gh: ReturnType<typeof makeOctokit>,
  result: Result,
  history: readonly HistoryRecord[],
  sha: string,
  extra: Partial<AlertRun> = {},
): Promise<AlertOutcome> {
  const judged = judgeAgainstBranch(result, history, spec, { branch: 'main', sha, lastRuns: 8, alpha: 0.05, threshold: 0.03 });
  const run: AlertRun = {
    ...repo,
    client: 'rs',
    sha,
    ...(judged.previous ? { previousSha: judged.previous.sha } : {}),
    branch: 'main',
    repoUrl: 'https://github.com/ethersphere/bee-rs',
    historyRuns: judged.runs,
    ...extra,
  };
  return syncAlerts(gh, run, judged.rows);
}
