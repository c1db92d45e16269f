// Default-branch alerts from instruction counts, against the local API server (every request
// checked against GitHub's OpenAPI description): where a push's run counted, each CPU row is judged
// on its count against the previous run's and the row's A/A spread, so a 1% step at one push opens
// one issue naming exactly that commit range, and 30 pushes of unchanged code whose wall times
// wander by ±15% open none (the same pushes judged on wall time alone do open some: the control).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readState } from '../../src/alert/body.js';
import { syncAlerts, type AlertOutcome } from '../../src/alert/issues.js';
import { judgeAgainstBranch } from '../../src/alert/judge.js';
import { makeOctokit } from '../../src/github/octokit.js';
import { toRecord } from '../../src/history/record.js';
import type { HistoryRecord } from '../../src/history/schema.js';
import { loadSpec } from '../../src/spec/load.js';
import type { Result } from '../../src/spec/schema.js';
import { GitHubApiServer } from '../github/api-server.js';
import { context, countedResult, countHistory } from '../history/helpers.js';

const { spec } = loadSpec('spec/bench-spec.json');
const repo = { owner: 'ethersphere', repo: 'bee-rs' };
const SIGN = 'cpu.ecdsa.sign';
let server: GitHubApiServer;
let base: string;

beforeAll(async () => {
  server = new GitHubApiServer({ ...repo, tokens: { write: ['ghs_write'] } });
  base = await server.start();
});
afterAll(() => server.close());
beforeEach(() => {
  server.issues.length = 0;
  server.comments.length = 0;
  server.requests.length = 0;
});

/** Push number i of bee-rs: wall times scaled by `wall`, the signing row's counts by `sign`. */
function push(i: number, wall: number, sign = 1, counted = true): Result {
  const res = countedResult('rs', i, wall);
  const cases = res.cases.map((c) => {
    if (!counted) {
      const { instructions: _, ...rest } = c;
      return rest;
    }
    return c.id === SIGN && c.instructions ? { ...c, instructions: c.instructions.map((n) => Math.round(n * sign)) } : c;
  });
  const { counter, ...rest } = res;
  return counted ? { ...rest, counter: counter!, cases } : { ...rest, cases };
}

/** Judges push i against the records, syncs the issues, and appends its record (as publish does). */
async function judgeAndSync(records: HistoryRecord[], result: Result, i: number): Promise<AlertOutcome> {
  const ctx = context(i);
  const judged = judgeAgainstBranch(result, records, spec, { branch: 'main', sha: ctx.commit.sha, lastRuns: 8, alpha: 0.05, threshold: 0.03 });
  const out = await syncAlerts(
    makeOctokit('ghs_write', base),
    {
      ...repo,
      client: 'rs',
      sha: ctx.commit.sha,
      ...(judged.previous ? { previousSha: judged.previous.sha } : {}),
      branch: 'main',
      repoUrl: 'https://github.com/ethersphere/bee-rs',
      historyRuns: judged.runs,
    },
    judged.rows,
  );
  records.push(toRecord(result, ctx));
  return out;
}

/** A deterministic wall factor within ±15%, different every push. */
const wallNoise = (i: number) => 1 + 0.15 * Math.sin(i * 2.39996);

describe('count alerts on the default branch', () => {
  it('a 1% count change at one push opens one issue naming that commit range; it holds while the count stays, and closes when it is back', async () => {
    const records = countHistory({ commits: 10, runners: ['rs'], noise: 0.15 });
    const before = context(9).commit.sha;
    const at = context(10).commit.sha;
    const opened = await judgeAndSync(records, push(10, wallNoise(10), 1.01), 10);
    expect(opened.opened).toHaveLength(1);
    expect(server.issues).toHaveLength(1);
    const issue = server.issues[0]!;
    expect(issue.title).toBe(`bee-bench: ${SIGN} [quick] got slower on main (rs)`);
    expect(issue.body).toContain(`/compare/${before}...${at}`);
    expect(issue.body).toMatch(/is 1\.0% more instructions on `main`/);
    expect(issue.body).toContain('judged on instruction counts per op against the last good run');
    expect(readState(issue.body)).toMatchObject({ since: before, first: at, latest: at, runs: 1 });
    // The next push keeps the extra instructions: against its own previous run nothing moved, but the issue holds.
    const held = await judgeAndSync(records, push(11, wallNoise(11), 1.01), 11);
    expect(held).toMatchObject({ opened: [], closed: [], updated: [issue.number] });
    expect(issue.state).toBe('open');
    expect(issue.body).toMatch(/is 1\.0% more instructions/);
    expect(readState(issue.body)).toMatchObject({ since: before, first: at, runs: 2 });
    // Back to the old count: recovered.
    const back = await judgeAndSync(records, push(12, wallNoise(12), 1), 12);
    expect(back.closed).toEqual([issue.number]);
    expect(issue).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(server.commentsOn(issue.number).at(-1)!.body).toContain('within the bar on instruction counts');
    expect(server.violations).toEqual([]);
  });

  it('30 pushes of unchanged code with wall noise of ±15% open no issue when counts are there (and some without them)', async () => {
    const run30 = async (counted: boolean) => {
      const records = countHistory({ commits: 5, runners: ['rs'], noise: 0.15 });
      let opened = 0;
      for (let i = 5; i < 35; i++) opened += (await judgeAndSync(records, push(i, wallNoise(i), 1, counted), i)).opened.length;
      return opened;
    };
    expect(await run30(true)).toBe(0);
    expect(server.issues).toEqual([]);
    // The control: the same pushes judged on wall time alone cry wolf.
    expect(await run30(false)).toBeGreaterThan(0);
    expect(server.violations).toEqual([]);
  });

  it('rows without counts keep the wall-time alert', async () => {
    const records = countHistory({ commits: 10, runners: ['rs'] });
    const res = push(10, 1);
    // The signing row was not counted this time, and got 20% slower.
    const slower: Result = {
      ...res,
      cases: res.cases.map((c) => {
        if (c.id !== SIGN) return c;
        const { instructions: _, ...rest } = c;
        return { ...rest, samples_ns: rest.samples_ns.map((v) => Math.round(v * 1.2)) };
      }),
    };
    const out = await judgeAndSync(records, slower, 10);
    expect(out.opened).toHaveLength(1);
    expect(server.issues[0]!.body).toMatch(/slower on `main`/);
    expect(server.issues[0]!.body).toContain('was judged against the last 8 run(s)');
  });
});
