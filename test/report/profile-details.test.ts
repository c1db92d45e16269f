// "Where it moved" in the PR comment: the flagged rows' function lists, collapsed, escaped, and the
// whole comment under GitHub's limit however many rows are flagged (least changed rows trimmed
// first, and the comment says so). The bundle's schema refuses names past their cap.
import { describe, expect, it } from 'vitest';
import { renderAbComment, GITHUB_COMMENT_LIMIT } from '../../src/report/render/ab-comment.js';
import { renderProfileSection, PROFILE_NOTE } from '../../src/report/render/profile-details.js';
import { ProfileDiffSchema, ProfileDiffsSchema, type ProfileDiff } from '../../src/profile/schema.js';
import type { AbRow } from '../../src/verdict/index.js';
import { judgedRow } from '../verdict/ab-rows.js';
import { abInput, HOSTILE } from './fixtures.js';

const counts = (ratio: number) => ({ base: 1e9, head: 1e9 * ratio, ratio, spread: 0.0001, threshold: 0.01, bar: 0.01, verdict: 'regression' as const });
const row = (caseId: string, ratio: number): AbRow =>
  judgedRow(
    caseId,
    {
      wall: { judged: { baseMedianNs: 1e6, headMedianNs: 1e6 * ratio, ratio, ci: [ratio - 0.01, ratio + 0.01], p: 0.001, q: 0.001, verdict: 'regression' } },
      instructions: { judged: counts(ratio) },
    },
    { group: 'g', work: {}, rounds: 12 },
  );

/** A difference shaped as diffProfiles gives it, with names as long as the cap allows. */
function diff(
  caseId: string,
  ratio: number,
  nameOf = (i: number) => `github.com/ethswarm-tools/bee-go/pkg/swarm.${'(*VeryLongTypeName)'.repeat(7)}.Method${i}`.slice(0, 200),
): ProfileDiff {
  const base = 1e9;
  const lines = Array.from({ length: 20 }, (_, i) => ({ name: nameOf(i), base: 1e6 * (20 - i), head: 1e6 * (20 - i) * ratio }));
  return ProfileDiffSchema.parse({
    caseId,
    label: 'quick',
    runner: 'go',
    total: { base, head: base * ratio },
    iterations: { base: 3, head: 3 },
    self: lines,
    own: lines.map((l) => ({ ...l, inclusiveBase: l.base * 2, inclusiveHead: l.head * 2, via: ['runtime.mallocgc', 'runtime.memmove'] })),
    allocations: lines.map((l) => ({ name: l.name, base: 1000, head: 1000 + l.base / 1e5 })),
  });
}

describe('Where it moved', () => {
  it('puts each flagged row’s top five of every list in a collapsed section under the table', () => {
    const md = renderAbComment(abInput([row('cpu.bmt.file-root', 1.037)], { runner: 'go', profiles: [diff('cpu.bmt.file-root', 1.037)] }));
    expect(md.indexOf('### Where it moved')).toBeGreaterThan(md.indexOf('| case |'));
    expect(md).toContain(PROFILE_NOTE);
    const section = md.slice(md.indexOf('### Where it moved'));
    expect(section.match(/<details><summary>Where it moved: <code>cpu.bmt.file-root<\/code> quick \(\+3.7% instructions/g)).toHaveLength(1);
    // Three tables of five lines each.
    expect(section.match(/Method\d+/g)?.length).toBe(15);
    expect(section).toContain('`runtime.mallocgc`, `runtime.memmove`');
  });

  it('says which part of a client function’s change is a proportional estimate', () => {
    const d = diff('cpu.bmt.file-root', 1.037);
    d.own[0] = { ...d.own[0]!, estimatedBase: 0, estimatedHead: 0 };
    d.own[1] = { ...d.own[1]!, estimatedBase: 1e5, estimatedHead: 1e5 + (d.own[1]!.head - d.own[1]!.base) / 4 };
    const md = renderProfileSection([d], 65_536)!;
    const ownTable = md.slice(md.indexOf('| client function (outside callees folded in) |'));
    const ownRows = ownTable.split('\n').filter((l) => /Method\d/.test(l));
    expect(ownRows[0]).toContain('| exact |');
    expect(ownRows[1]).toContain('| 25.0% estimated |');
    // Lists made before caller context was recorded (a history's compact profiles) do not say.
    expect(ownRows[2]).toContain('| — |');
  });

  it('escapes hostile function names', () => {
    const md = renderProfileSection([diff('cpu.x', 1.05, (i) => HOSTILE[i % HOSTILE.length]!.slice(0, 200) || 'x')], 65536)!;
    expect(md).not.toMatch(/<img|<script|\]\(javascript/);
    expect(md).toContain('`@org/team please look`'); // a code span: GitHub links no mention inside
  });

  it('keeps a comment with 30 flagged rows under 65,536 characters, trimming the least changed rows’ lists first', () => {
    const ratios = Array.from({ length: 30 }, (_, i) => 1.02 + i * 0.01);
    const rows = ratios.map((r, i) => row(`cpu.case-${i}`, r));
    const md = renderAbComment(abInput(rows, { runner: 'go', profiles: ratios.map((r, i) => diff(`cpu.case-${i}`, r)) }));
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md).toMatch(/rows’ lists trimmed or left out to fit GitHub's comment size limit/);
    // The largest change keeps its full lists; the smallest is trimmed to one line or left out.
    expect(md).toMatch(/<details><summary>Where it moved: <code>cpu.case-29<\/code>/);
    expect(md).not.toMatch(/<details><summary>Where it moved: <code>cpu.case-0<\/code>/);
    // Every row is still in the table.
    for (let i = 0; i < 30; i++) expect(md).toContain(`| \`cpu.case-${i}\` |`);
  });

  it('refuses a bundle whose names or lists pass their caps', () => {
    const d = diff('cpu.x', 1.1);
    expect(() => ProfileDiffSchema.parse({ ...d, self: [{ name: 'x'.repeat(401), base: 1, head: 2 }] })).toThrow();
    expect(() => ProfileDiffSchema.parse({ ...d, self: [...d.self, ...d.self] })).toThrow();
    expect(() => ProfileDiffSchema.parse({ ...d, total: { base: Infinity, head: 1 } })).toThrow();
    expect(() => ProfileDiffsSchema.parse(Array.from({ length: 101 }, () => d))).toThrow();
  });
});
