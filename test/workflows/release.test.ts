// release.yml, run as GitHub would run its scripts: the gate against a fake `gh` answering with
// ci.yml runs of several kinds (only a successful `push` run on the default branch of this
// repository passes), the writing job's hash check against a tampered download, and the jobs'
// shape: the install and build happen in a read-only job, the writing job installs nothing.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions: Record<string, string>;
  steps: Step[];
}
const wf = parse(readFileSync(join(process.cwd(), '.github', 'workflows', 'release.yml'), 'utf8')) as { jobs: Record<string, Job> };
const SHA = 'a'.repeat(40);
const REPO = 'bee-bench/bee-bench';

/** Runs a step's script with bash, its env: given literally, and `gh` answering from `runs` (jq applies --jq, as gh does). */
function runStep(step: Step, env: Record<string, string>, runs: unknown[] = [], cwd = mkdtempSync(join(tmpdir(), 'bee-bench-release-'))) {
  const bin = join(cwd, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(cwd, 'runs.json'), JSON.stringify({ total_count: runs.length, workflow_runs: runs }));
  writeFileSync(
    join(bin, 'gh'),
    `#!/usr/bin/env bash
echo "$*" >> "${cwd}/gh.log"
[ "$1" = release ] && exit 0
jqexpr=""; url=""
while [ $# -gt 0 ]; do case "$1" in --jq) jqexpr="$2"; shift 2;; -H|-X|-f|-F) shift 2;; api|--silent) shift;; *) url="$1"; shift;; esac; done
case "$url" in
  */commits/*) echo '{"sha":"${SHA}"}' | jq -r "$jqexpr";;
  */actions/workflows/ci.yml/runs*) jq -r "$jqexpr" "${cwd}/runs.json";;
  */contents/dist/*) f="\${url##*/dist/}"; cat "${cwd}/committed-at-sha/\${f%%\\?*}";;
  */git/ref/tags/*|*/git/refs*) exit 0;;
  *) exit 1;;
esac
`,
  );
  chmodSync(join(bin, 'gh'), 0o755);
  writeFileSync(join(cwd, 'output'), '');
  const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', step.run!], {
    cwd,
    encoding: 'utf8',
    env: { PATH: `${bin}:${process.env.PATH}`, GITHUB_REPOSITORY: REPO, GITHUB_OUTPUT: join(cwd, 'output'), ...env },
  });
  return { status: r.status, stdout: r.stdout, output: readFileSync(join(cwd, 'output'), 'utf8'), cwd };
}

const ciRun = (o: Partial<{ event: string; branch: string; repo: string; conclusion: string; sha: string }>) => ({
  head_sha: o.sha ?? SHA,
  event: o.event ?? 'push',
  head_branch: o.branch ?? 'main',
  conclusion: o.conclusion ?? 'success',
  head_repository: { full_name: o.repo ?? REPO },
});

describe('release.yml', () => {
  const gate = wf.jobs.gate!.steps.find((s) => s.id === 'ci')!;
  const env = { TAG: 'v1.2.3', DEFAULT_BRANCH: 'main', GH_TOKEN: 'x' };

  it("the CI gate accepts only a successful push run of ci.yml on the default branch, of this repository, for the tag's commit", () => {
    expect(gate.run).toMatch(/event=push&branch=\$\{DEFAULT_BRANCH\}&status=success/);
    for (const runs of [
      [],
      [ciRun({ event: 'pull_request', branch: 'patch' })],
      [ciRun({ event: 'pull_request', repo: 'mallory/bee-bench' })],
      [ciRun({ branch: 'feature' })],
      [ciRun({ repo: 'mallory/bee-bench' })],
      [ciRun({ conclusion: 'failure' })],
      [ciRun({ sha: 'b'.repeat(40) })],
    ]) {
      const r = runStep(gate, env, runs);
      expect(r.status, JSON.stringify(runs)).not.toBe(0);
      expect(r.stdout).toMatch(/::error::no successful push run of ci.yml on main for a{40}/);
    }
    const ok = runStep(gate, env, [ciRun({ event: 'pull_request' }), ciRun({})]);
    expect(ok.status, ok.stdout).toBe(0);
    expect(ok.output).toBe(`sha=${SHA}\n`);
  });

  it('installs and builds in a read-only job; the writing job checks out nothing, installs nothing, and checks the downloaded files by hash', () => {
    expect(wf.jobs.build!.permissions).toEqual({ contents: 'read' });
    expect(wf.jobs.build!.steps.map((s) => s.run ?? '').join('\n')).toMatch(/npm ci[\s\S]*npm run build[\s\S]*git diff --exit-code/);
    const release = wf.jobs.release!;
    expect(Object.keys(release.permissions).sort()).toEqual(['attestations', 'contents', 'id-token']);
    expect(release.steps.filter((s) => s.uses?.startsWith('actions/checkout@') || s.uses?.startsWith('actions/setup-node@'))).toEqual([]);
    for (const s of release.steps) expect(s.run ?? '').not.toMatch(/\bnpm\b|\bnode\b|\bnpx\b/);
    const order = release.steps.map((s) => s.uses?.split('@')[0] ?? s.run?.split('\n')[0]);
    expect(order.indexOf('actions/download-artifact')).toBe(0);
    expect(order.indexOf('actions/attest-build-provenance')).toBe(2);
  });

  it("the writing job's hash check passes the built files and stops on a tampered one", () => {
    const sums = wf.jobs.build!.steps.find((s) => s.id === 'sums')!;
    const check = wf.jobs.release!.steps.find((s) => s.run?.includes('sha256sum --check'))!;
    const cwd = mkdtempSync(join(tmpdir(), 'bee-bench-release-'));
    mkdirSync(join(cwd, 'dist'));
    for (const f of ['index.js', 'post.js', 'cli.js']) writeFileSync(join(cwd, 'dist', f), `// ${f}\n`);
    const built = runStep(sums, {}, [], cwd);
    expect(built.status).toBe(0);
    const SUMS = built.output.replace(/^sums=/, '').trim();
    mkdirSync(join(cwd, 'committed-at-sha'));
    for (const f of ['index.js', 'post.js', 'cli.js']) writeFileSync(join(cwd, 'committed-at-sha', f), `// ${f}\n`);
    const env = { SUMS, SHA, GH_TOKEN: 'x' };
    expect(runStep(check, env, [], cwd).status).toBe(0);
    expect(readFileSync(join(cwd, 'gh.log'), 'utf8')).toContain(`repos/${REPO}/contents/dist/cli.js?ref=${SHA}`);
    writeFileSync(join(cwd, 'dist', 'post.js'), '// planted\n');
    const tampered = runStep(check, env, [], cwd);
    expect(tampered.status).not.toBe(0);
    expect(tampered.stdout).toMatch(/post\.js: FAILED/);
  });

  it('the writing job refuses built files that differ from dist/ committed at the gated commit, even when the build job vouched for them', () => {
    const sums = wf.jobs.build!.steps.find((s) => s.id === 'sums')!;
    const check = wf.jobs.release!.steps.find((s) => s.run?.includes('sha256sum --check'))!;
    const cwd = mkdtempSync(join(tmpdir(), 'bee-bench-release-'));
    mkdirSync(join(cwd, 'dist'));
    mkdirSync(join(cwd, 'committed-at-sha'));
    // An install script rewrote dist/ (and the index, so git diff saw nothing): the build job's sums are of the rewritten files.
    for (const f of ['index.js', 'post.js', 'cli.js']) {
      writeFileSync(join(cwd, 'dist', f), f === 'index.js' ? '// rewritten by an install script\n' : `// ${f}\n`);
      writeFileSync(join(cwd, 'committed-at-sha', f), `// ${f}\n`);
    }
    const SUMS = runStep(sums, {}, [], cwd)
      .output.replace(/^sums=/, '')
      .trim();
    const r = runStep(check, { SUMS, SHA, GH_TOKEN: 'x' }, [], cwd);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toContain(`::error::dist/index.js as built is not dist/index.js committed at ${SHA}`);
  });

  it('only a vX.Y.Z release moves the major tag: not a pre-release, not v1.2.3-rc.1, v1.2.3.4 or v1x', () => {
    const move = wf.jobs.release!.steps.find((s) => s.run?.includes('gh release upload'))!;
    const moved = (TAG: string, PRERELEASE = 'false') => {
      const r = runStep(move, { TAG, PRERELEASE, SHA, GH_TOKEN: 'x' });
      expect(r.status, r.stdout).toBe(0);
      return readFileSync(join(r.cwd, 'gh.log'), 'utf8').includes('git/ref');
    };
    expect(moved('v1.2.3')).toBe(true);
    for (const tag of ['v1.2.3-rc.1', 'v1.2.3.4', 'v1x.2.3', 'v1.2', 'release-1.2.3']) expect(moved(tag), tag).toBe(false);
    expect(moved('v1.2.3', 'true')).toBe(false);
  });
});
