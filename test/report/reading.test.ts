// What a reader asks first: which clients ran (a skipped bee-go named with its reason and fix),
// which figure to compare (cells lead with it, the best never the larger time per unit), whether a
// digest disagreement is a known finding (linked) or new, and how loaded the machine was.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { aggregate } from '../../src/report/model/aggregate.js';
import { renderHtml } from '../../src/report/render/html.js';
import { renderMarkdown } from '../../src/report/render/report-md.js';
import { caseResult, realSpec, result, syntheticResult } from './fixtures.js';

const { spec, hash } = realSpec();
const GO_SKIP = {
  runner: 'go' as const,
  status: 'skipped' as const,
  reason: 'the Go module proxy does not serve bee-go: 403 Forbidden',
  fix: 'give a bee-go checkout with --go-client PATH or BEE_GO_PATH',
};

describe('runners the run was asked for', () => {
  const results = (['js', 'rs'] as const).map((r) => syntheticResult(r, spec, hash));
  const model = aggregate(results, spec, { specHash: hash, notRun: [GO_SKIP, { runner: 'js', status: 'failed', reason: 'ignored: js ran' }] });

  it('names a skipped client in the Runners table and under the scoreboard of report.md, with reason and fix', () => {
    const md = renderMarkdown(model);
    const runners = md.slice(md.indexOf('## Runners'), md.indexOf('## Scoreboard'));
    expect(runners).toContain(
      '| bee-go | **skipped**: the Go module proxy does not serve bee-go: 403 Forbidden (fix: give a bee-go checkout with --go-client PATH or `BEE_GO_PATH`) |',
    );
    expect(runners.match(/\| ran \|/g)).toHaveLength(2);
    const board = md.slice(md.indexOf('## Scoreboard'), md.indexOf('## Harness'));
    expect(board).toContain('Not ranked: bee-go skipped: the Go module proxy does not serve bee-go');
    // A runner with results is not "not run", whatever the job said.
    expect(model.notRun).toEqual([GO_SKIP]);
  });

  it('names it in report.html too', () => {
    const html = renderHtml(model, { chartJs: null });
    expect(html).toContain(
      '<td>bee-go</td><td><span class="skip"><strong>skipped</strong>: the Go module proxy does not serve bee-go: 403 Forbidden (fix: give a bee-go checkout',
    );
    expect(html).toContain('Not ranked: bee-go skipped');
  });
});

describe('cells lead with the comparable figure', () => {
  // bee-js signs 5 in 66.7 ms, bee-rs 2000 in 193 ms: the larger time is the faster client.
  const sign = (runner: 'js' | 'rs', count: number, ns: number) =>
    result(runner, [caseResult({ id: 'cpu.ecdsa.sign', param: { label: 'quick', count }, work: { ops: count }, samples_ns: [ns, ns, ns] })]);
  const md = renderMarkdown(aggregate([sign('js', 5, 66_700_000), sign('rs', 2000, 193_000_000)], spec));
  const line = md.split('\n').find((l) => l.startsWith('| quick'))!;

  it('best is the smaller time per op, shown first; the raw median and the work follow', () => {
    const [param, js, rs] = line.split(' | ');
    expect(rs).toMatch(/^\*\*96\.5 µs\/op\*\* \(best\)<br>median 193 ms for 2,000 ops/);
    expect(js).toMatch(/^13\.3 ms\/op \(138x slower\)<br>median 66\.7 ms for 5 ops/);
    // 5 ops in each of 3 iterations: a ratio on 15 ops in all, marked low-precision (src/verdict/precision.ts).
    expect(param).toBe('| quick<br>bee-js 5 ops · bee-rs 2,000 ops<br>≈ low precision for A/B claims');
  });

  it('no best cell anywhere leads with a larger time per unit than another cell of its row', () => {
    const m = aggregate(
      (['js', 'go', 'rs'] as const).map((r) => syntheticResult(r, spec, hash)),
      spec,
    );
    for (const row of m.groups.flatMap((g) => g.cases.flatMap((c) => c.rows))) {
      const ok = Object.values(row.cells).filter((c) => c.unitCostNs !== undefined && c.ratio !== undefined);
      for (const best of ok.filter((c) => c.fastest)) for (const other of ok) expect(best.unitCostNs!).toBeLessThanOrEqual(other.unitCostNs!);
    }
  });
});

describe('digest disagreements', () => {
  const manifest = (digests: Partial<Record<'js' | 'go' | 'rs', string>>) =>
    (['js', 'go', 'rs'] as const).map((r) =>
      syntheticResult(r, spec, hash, { digest: (c, rr) => (c.id === 'cpu.manifest.hash' ? digests[rr] : c.digest ? 'ab'.repeat(32) : undefined) }),
    );

  it("shows the spec's known one (B1: bee-rs differs) as known, with the FINDINGS link, and no ⚠", () => {
    const model = aggregate(manifest({ js: 'a9'.repeat(32), go: 'a9'.repeat(32), rs: '0b'.repeat(32) }), spec);
    const md = renderMarkdown(model);
    const at = md.indexOf('Known digest disagreement');
    expect(at).toBeGreaterThan(0);
    expect(md.slice(at, md.indexOf('\n', at))).toContain('bee-rs differs, as [FINDINGS B1](https://github.com/bee-bench/bee-bench/blob/main/FINDINGS.md#b1-');
    expect(md).not.toContain('**Digest disagreement**');
    expect(renderHtml(model, { chartJs: null })).toMatch(
      /class="known">ℹ Known digest disagreement, <code>cpu\.manifest\.hash<\/code>.*<a href="https:\/\/github\.com\/bee-bench\/bee-bench\/blob\/main\/FINDINGS\.md#b1-/,
    );
  });

  it('still flags a disagreement the entry does not cover (bee-js differs) as new', () => {
    const md = renderMarkdown(aggregate(manifest({ js: 'cd'.repeat(32), go: 'a9'.repeat(32), rs: 'a9'.repeat(32) }), spec));
    expect(md).toContain('⚠ **Digest disagreement** (quick): the clients computed different outputs for the same input. Not a known finding: new.');
    expect(md).not.toContain('Known digest disagreement');
  });

  it('every known entry of the spec points at a FINDINGS.md heading that exists, by its id', () => {
    const findings = readFileSync(join(import.meta.dirname, '..', '..', 'FINDINGS.md'), 'utf8');
    const slugger = new GithubSlugger();
    const headings = findings
      .split('\n')
      .filter((l) => /^#{2,3} /.test(l))
      .map((l) => l.replace(/^#+ /, ''));
    const anchors = new Map(headings.map((h) => [slugger.slug(h), h]));
    const entries = spec.cases.flatMap((c) => c.known ?? []);
    expect(entries.length).toBeGreaterThan(0);
    for (const k of entries) {
      const anchor = k.url.split('#')[1]!;
      expect(anchors.has(anchor), k.url).toBe(true);
      expect(anchors.get(anchor)!.startsWith(`${k.finding}. `)).toBe(true);
    }
  });
});

describe('the environment', () => {
  const results = (['js', 'rs'] as const).map((r) => syntheticResult(r, spec, hash));
  it('states the load average, and that a loaded machine reads high', () => {
    const quiet = renderMarkdown(aggregate(results, spec, { environment: { loadAverage: [0.5, 0.4, 0.3], cpus: 2 } }));
    expect(quiet).toContain('Environment: load average 0.50 / 0.40 / 0.30 (1 / 5 / 15 min, at the end of the run) on 2 CPUs.');
    expect(quiet).not.toContain('The machine was loaded');
    const busy = renderMarkdown(aggregate(results, spec, { environment: { loadAverage: [9.1, 7.2, 6], cpus: 2 } }));
    expect(busy).toContain('⚠ Environment: load average 9.10 / 7.20 / 6.00');
    expect(busy).toContain('The machine was loaded');
  });
});
