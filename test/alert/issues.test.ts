// Default-branch alerts against the local API server (every request checked against GitHub's
// OpenAPI description): a run judged against the branch's history opens one labelled issue per
// regressed (client, case, param), later runs update it while it holds, a recovered run closes it
// with a comment, reruns add nothing, and two jobs racing leave exactly one issue open.
import { describe, expect, it } from 'vitest';
import { parseHash } from '../../pages/src/permalink.js';
import { alertMarker, readState } from '../../src/alert/body.js';
import { ALERT_CAPS, ALERT_LABEL, newAlertBudget, syncAlerts, type AlertBudget, type AlertRun } from '../../src/alert/issues.js';
import type { AbRow } from '../../src/verdict/index.js';
import { judgeAgainstBranch } from '../../src/alert/judge.js';
import { branchHistory, run } from '../verdict/history-fixtures.js';
import { alertServer, judgeAndSyncPush, repo, SIGN, spec } from './setup.js';

const history = branchHistory({ [SIGN]: 1e6, 'cpu.identity.create': 2e6 });
const PREVIOUS = '7'.repeat(40);
const { server, gh } = alertServer();

/** One push run on main: judged against the history, then synced; `sign` is the signing median. */
function pushRun(sha: string, sign: number, day = 20) {
  const result = run({ [SIGN]: sign, 'cpu.identity.create': 2e6 }, day, `2026-11-${day}T10:00:00Z`);
  return judgeAndSyncPush(gh(), result, history, sha, {
    runUrl: `https://github.com/ethersphere/bee-rs/actions/runs/${day}`,
    trendUrl: 'https://ethersphere.github.io/bee-rs/bench/',
  });
}

const openWithMarker = () => server.issues.filter((i) => i.state === 'open' && i.body.includes(alertMarker({ client: 'rs', caseId: SIGN, label: 'quick' })));

describe('default-branch alert issues', () => {
  it('opens one labelled issue with the table, the commit range and the trend link; updates it; closes it on recovery', async () => {
    const a = 'a'.repeat(40);
    const opened = await pushRun(a, 1.15e6);
    expect(opened.opened).toHaveLength(1);
    expect(server.issues).toHaveLength(1);
    const issue = server.issues[0]!;
    expect(issue.labels).toEqual([ALERT_LABEL, 'bee-bench:rs']);
    expect(issue.title).toBe(`bee-bench: ${SIGN} [quick] got slower on main (rs)`);
    expect(issue.body).toMatch(/\| case \| param \| history \| head \| change \| 95% interval \| q \| verdict \|/);
    expect(issue.body).toMatch(/🔴 regression/);
    expect(issue.body).toContain(`https://github.com/ethersphere/bee-rs/compare/${PREVIOUS}...${a}`);
    const trend = /\[case chart\]\(([^)]+)\)/.exec(issue.body)![1]!;
    expect(trend.startsWith('https://ethersphere.github.io/bee-rs/bench/#')).toBe(true);
    expect(parseHash(new URL(trend).hash)).toEqual({ view: 'case', case: SIGN, branch: 'main', log: false });
    expect(readState(issue.body)).toEqual({ since: PREVIOUS, first: a, latest: a, runs: 1 });
    // The unchanged row opened nothing.
    expect(server.issues.some((i) => i.body.includes('cpu.identity.create'))).toBe(false);

    const b = 'b'.repeat(40);
    const held = await pushRun(b, 1.2e6, 21);
    expect(held).toMatchObject({ opened: [], updated: [issue.number], closed: [] });
    expect(server.issues).toHaveLength(1);
    expect(readState(issue.body)).toEqual({ since: PREVIOUS, first: a, latest: b, runs: 2 });
    expect(issue.body).toContain(`/compare/${PREVIOUS}...${b}`);

    // A rerun of the same commit with the same figures: nothing to write.
    const writes = server.writes().length;
    const rerun = await pushRun(b, 1.2e6, 21);
    expect(rerun).toEqual({ opened: [], updated: [], closed: [], duplicates: [], announcedByOthers: [], heldBack: [] });
    expect(server.writes()).toHaveLength(writes);

    const c = 'c'.repeat(40);
    const recovered = await pushRun(c, 1e6, 22);
    expect(recovered.closed).toEqual([issue.number]);
    expect(issue).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(server.commentsOn(issue.number).at(-1)!.body).toMatch(/^<!-- bee-bench-alert-recovered -->\n✅ Recovered: the run of `ccccccc`/);
    expect(server.violations).toEqual([]);
  });

  it("leaves other clients', other rows' and people's labelled issues alone", async () => {
    const goIssue = server.seedIssue({ title: 'go', body: `${alertMarker({ client: 'go', caseId: SIGN, label: 'quick' })}\nbee-go`, labels: [ALERT_LABEL] });
    const human = server.seedIssue({ title: 'by hand', body: 'signing feels slow', labels: [ALERT_LABEL] });
    await pushRun('d'.repeat(40), 1.15e6);
    await pushRun('e'.repeat(40), 1e6, 21);
    expect([goIssue.state, human.state]).toEqual(['open', 'open']);
    expect(server.commentsOn(goIssue.number)).toEqual([]);
    expect(server.violations).toEqual([]);
  });

  it('two jobs racing on the same regression leave exactly one issue open', async () => {
    const sha = 'f'.repeat(40);
    const [one, two] = await Promise.all([pushRun(sha, 1.15e6), pushRun(sha, 1.15e6)]);
    // Both listed before either created: the race really happened.
    expect(server.requests.filter((r) => r.method === 'POST' && r.template === '/repos/{owner}/{repo}/issues')).toHaveLength(2);
    expect(openWithMarker()).toHaveLength(1);
    const kept = openWithMarker()[0]!;
    expect([...one.opened, ...two.opened]).toEqual([kept.number]);
    const dup = server.issues.find((i) => i.number !== kept.number)!;
    expect(dup).toMatchObject({ state: 'closed', state_reason: 'duplicate' });
    expect(server.commentsOn(dup.number)[0]!.body).toBe(`Duplicate of #${kept.number}: another bee-bench job opened it first for the same row.`);
    // The next run updates the survivor and opens nothing.
    const next = await pushRun('1'.repeat(39) + '2', 1.15e6, 21);
    expect(next).toMatchObject({ opened: [], updated: [kept.number], duplicates: [] });
    expect(openWithMarker()).toHaveLength(1);
    expect(server.violations).toEqual([]);
  });

  it('two jobs seeing the same recovery leave one "Recovered" comment and the issue closed', async () => {
    await pushRun('4'.repeat(40), 1.15e6);
    const issue = openWithMarker()[0]!;
    const sha = '5'.repeat(40);
    const [one, two] = await Promise.all([pushRun(sha, 1e6, 21), pushRun(sha, 1e6, 21)]);
    // Both found the issue open and both posted: the race really happened.
    expect(server.requests.filter((r) => r.method === 'POST' && r.template === '/repos/{owner}/{repo}/issues/{issue_number}/comments')).toHaveLength(2);
    expect(server.commentsOn(issue.number).filter((c) => c.body.includes('✅ Recovered'))).toHaveLength(1);
    expect([...one.closed, ...two.closed]).toEqual([issue.number]);
    expect([...one.announcedByOthers, ...two.announcedByOthers]).toEqual([issue.number]);
    expect(issue).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(server.violations).toEqual([]);
  });

  it('an open duplicate left by an older version is closed in favour of the oldest', async () => {
    const marker = alertMarker({ client: 'rs', caseId: SIGN, label: 'quick' });
    const older = server.seedIssue({ title: 'old', body: `${marker}\nold`, labels: [ALERT_LABEL] });
    const newer = server.seedIssue({ title: 'old too', body: `${marker}\nold too`, labels: [ALERT_LABEL] });
    const out = await pushRun('9'.repeat(39) + 'a', 1.15e6);
    expect(out).toMatchObject({ opened: [], updated: [older.number], duplicates: [newer.number] });
    expect(newer.state_reason).toBe('duplicate');
    expect(readState(older.body)).toMatchObject({ since: PREVIOUS, runs: 1 });
  });
});

describe('judgeAgainstBranch', () => {
  it("never judges a rerun against its own record, and names the branch's previous run", () => {
    const sha = '7'.repeat(40);
    const result = run({ [SIGN]: 1e6 }, 3, '2026-11-20T10:00:00Z');
    const j = judgeAgainstBranch(result, history, spec, { branch: 'main', sha, lastRuns: 8, alpha: 0.05, threshold: 0.03 });
    expect(j.runs).toBe(7);
    expect(j.previous).toEqual({ sha: '6'.repeat(40), url: 'https://github.com/o/r/actions/runs/6' });
    expect(judgeAgainstBranch(result, [], spec, { branch: 'main', sha, lastRuns: 8, alpha: 0.05, threshold: 0.03 }).previous).toBeUndefined();
  });
});

describe('the alert cap of one publish', () => {
  const row = (caseId: string, verdict: 'regression' | '~'): AbRow => ({
    caseId,
    label: 'quick',
    group: 'ecdsa',
    kind: 'cpu',
    status: 'ok',
    work: { ops: 1 },
    evidence: {
      wall: {
        judged: {
          baseMedianNs: 1000,
          headMedianNs: verdict === 'regression' ? 3000 : 1000,
          ratio: verdict === 'regression' ? 3 : 1,
          ci: verdict === 'regression' ? [2.9, 3.1] : [0.99, 1.01],
          p: 0.001,
          q: 0.001,
          verdict,
        },
      },
    },
    verdict,
    rounds: 7,
  });
  const ctx = (budget: AlertBudget): AlertRun => ({
    ...repo,
    client: 'rs',
    sha: 'c'.repeat(40),
    branch: 'main',
    repoUrl: 'https://github.com/ethersphere/bee-rs',
    historyRuns: 5,
    budget,
  });

  it('opens and closes no more issues than the budget across the syncs of one publish; the rest are held back by name', async () => {
    const budget: AlertBudget = { open: 2, close: 0 };
    const first = await syncAlerts(gh(), ctx(budget), [row('cpu.a', 'regression'), row('cpu.b', 'regression'), row('cpu.c', 'regression')]);
    expect(first.opened).toHaveLength(2);
    expect(first.heldBack).toEqual(['cpu.c [quick]']);
    // A recovery in the same publish, with nothing left to close: the issue stays open.
    const second = await syncAlerts(gh(), ctx(budget), [row('cpu.a', '~')]);
    expect(second).toMatchObject({ closed: [], heldBack: ['cpu.a [quick]'] });
    expect(server.issues.filter((i) => i.state === 'open')).toHaveLength(2);
    // A sync without a budget of its own gets a fresh ALERT_CAPS: the next publish closes it.
    expect((await syncAlerts(gh(), { ...ctx(budget), budget: newAlertBudget() }, [row('cpu.a', '~')])).closed).toHaveLength(1);
    expect(ALERT_CAPS).toEqual({ open: 5, close: 10 });
  });
});
