// The repository's own workflows: no `${{ }}` expansion inside run: scripts (event fields, inputs
// and outputs reach scripts through env:, so a crafted branch name or input cannot become shell
// code), no token on a command line, and the release job keeps no credentials in its checkout and
// releases only a commit whose CI passed. actionlint (+ shellcheck) runs in .ci/run as well.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const DIR = join(process.cwd(), '.github', 'workflows');
const OWN = ['ci.yml', 'action-selftest.yml', 'release.yml', 'nightly.yml'];

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Workflow {
  jobs: Record<string, { steps: Step[] }>;
}
const load = (f: string) => parse(readFileSync(join(DIR, f), 'utf8')) as Workflow;
const steps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps);

describe('workflows', () => {
  it('are all covered: the owned ones exist', () => {
    expect(readdirSync(DIR)).toEqual(expect.arrayContaining(OWN));
  });

  it.each(OWN)('%s: no ${{ }} inside run: scripts, no token in a script', (f) => {
    for (const s of steps(load(f))) {
      if (s.run === undefined) continue;
      expect(s.run, `${f}: ${s.run}`).not.toMatch(/\$\{\{/);
      expect(s.run, `${f}: ${s.run}`).not.toMatch(/x-access-token|GITHUB_TOKEN|GH_TOKEN/);
    }
  });

  it.each(OWN)('%s: checkouts keep no credentials', (f) => {
    for (const s of steps(load(f)).filter((x) => x.uses?.startsWith('actions/checkout@'))) expect(s.with?.['persist-credentials'], f).toBe(false);
  });

  it('release.yml moves a tag only after checking that ci passed on that commit', () => {
    const run = steps(load('release.yml')).map((s) => s.run ?? '');
    const ciCheck = run.findIndex((r) => /actions\/workflows\/ci\.yml\/runs\?head_sha=/.test(r) && /status=success/.test(r));
    const move = run.findIndex((r) => /git\/refs/.test(r));
    expect(ciCheck).toBeGreaterThanOrEqual(0);
    expect(move).toBeGreaterThan(ciCheck);
  });
});

describe('supply chain', () => {
  const pinned = /^[^@\s]+@[0-9a-f]{40} # v\d+(\.\d+){0,2}$/;
  const usesLines = (text: string) =>
    text
      .split('\n')
      .map((l) => /^\s*-?\s*uses:\s*(.+)$/.exec(l)?.[1]?.trim())
      .filter((u): u is string => u !== undefined);

  it.each(OWN)('%s: every third-party action is pinned by commit sha with its version in a comment', (f) => {
    const text = readFileSync(join(DIR, f), 'utf8');
    for (const u of usesLines(text)) {
      if (u.startsWith('./')) continue; // this repository's own action, at the workflow's commit
      expect(u, `${f}: ${u}`).toMatch(pinned);
    }
  });

  it('the docs examples pin every action but bee-bench/action itself, whose sha the docs cannot know (suppressed with its reason)', () => {
    const docs = readFileSync(join(process.cwd(), 'docs', 'action.md'), 'utf8');
    const uses = usesLines(docs).map((u) => u.replace(/\s+#\s*bee-(rs|go|js)$/, ''));
    expect(uses.length).toBeGreaterThan(10);
    for (const u of uses) {
      if (u.startsWith('bee-bench/action@')) expect(u).toMatch(/^bee-bench\/action@v1 # zizmor: ignore\[unpinned-uses\] -- .+/);
      else expect(u).toMatch(pinned);
    }
  });
});
