// "Where it moved" in the PR comment: the flagged rows' function lists, collapsed, escaped, and the
// whole comment under GitHub's limit however many rows are flagged (least changed rows trimmed
// first, and the comment says so). The bundle's schema refuses names past their cap.
import { describe, expect, it } from 'vitest';
import { renderAbComment, GITHUB_COMMENT_LIMIT } from '../../src/report/render/ab-comment.js';
import { NO_JS_LINES, renderProfileSection, PROFILE_NOTE } from '../../src/report/render/profile-details.js';
import { renderProfileHtml } from '../../src/report/render/profile-html.js';
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

describe('moved source lines', () => {
  const moved = [
    { file: 'pkg/swarm/bmt.go', line: 107, function: 'segmentCopy', only: 'head' as const, base: 0, head: 71_586_728 },
    { file: 'pkg/swarm/bmt.go', line: 80, function: 'calculateBMTRoot', only: 'head' as const, base: 0, head: 7_878_000 },
    { file: 'pkg/swarm/bmt.go', line: 80, function: 'calculateBMTRoot', only: 'base' as const, base: 5_592_000, head: 0 },
    { file: 'pkg/swarm/bmt.go', line: 93, function: 'calculateBMTRoot', baseLine: 92, base: 39_382_311, head: 39_895_964 },
  ];
  const withLines = () => {
    const d = diff('cpu.keccak.chunk-hash', 1.05);
    d.own[0] = { ...d.own[0]!, name: 'swarm.calculateBMTRoot', lines: moved };
    return ProfileDiffSchema.parse(d);
  };

  it('shows the top three under each client function in the comment, an inlined helper named by its own function', () => {
    const md = renderProfileSection([withLines()], 65_536)!;
    const row = md.split('\n').find((l) => l.includes('`swarm.calculateBMTRoot`'))!;
    expect(row).toContain('`pkg/swarm/bmt.go:107` in `segmentCopy` (new in head) +');
    // The listed function's own lines are not named again; an edit's replaced line is base's.
    expect(row).toContain('`pkg/swarm/bmt.go:80` (new in head) +');
    expect(row).toContain('`pkg/swarm/bmt.go:80` (base’s, gone in head) −');
    expect(row).not.toContain(':93');
    expect(row.indexOf(':107')).toBeLessThan(row.indexOf(':80'));
  });

  it('bee-js lines from V8 code log: its own lines unnamed, library code inlined into it named by its function', () => {
    const d = diff('cpu.keccak.chunk-hash', 1.05);
    const bmt = '@ethersphere/bee-js/dist/mjs/chunk/bmt.js';
    d.own[0] = {
      ...d.own[0]!,
      name: `calculateBmtRootHash ${bmt}`,
      lines: [
        { file: bmt, line: 33, function: 'calculateBmtRootHash', only: 'head' as const, base: 0, head: 124_197_489 },
        { file: 'cafe-utility/index.js', line: 2037, function: 'concatBytes', base: 1_000_000, head: 3_000_000 },
      ],
    };
    const md = renderProfileSection([{ ...ProfileDiffSchema.parse(d), runner: 'js' }], 65_536)!;
    const row = md.split('\n').find((l) => l.includes(`\`calculateBmtRootHash ${bmt}\``))!;
    expect(row).toContain(`\`${bmt}:33\` (new in head) +`);
    expect(row).toContain('`cafe-utility/index.js:2037` in `concatBytes` +');
  });

  it('the HTML view lists every kept line; bee-js rows say V8 gives no line positions', () => {
    const html = renderProfileHtml(withLines(), { name: 'all', base: 1e9, head: 1.05e9, children: [] }, { base: 'a', head: 'b' });
    expect(html).toContain('<code>pkg/swarm/bmt.go:93</code> (base :92) +');
    const js = ProfileDiffSchema.parse({ ...diff('cpu.keccak.chunk-hash', 1.05), runner: 'js' });
    js.own[0] = { ...js.own[0]!, start: { file: 'cafe-utility/index.js', line: 412 } };
    const md = renderProfileSection([js], 65_536)!;
    const ownRows = md.slice(md.indexOf('| client function (outside callees folded in) |')).split('\n');
    // Where V8 gave the function's start it is shown, and the row says there is nothing finer.
    expect(ownRows.find((l) => l.includes('Method0'))).toContain(`starts at \`cafe-utility/index.js:412\`; ${NO_JS_LINES}`);
    expect(ownRows.find((l) => l.includes('Method1'))).toContain(`| ${NO_JS_LINES} |`);
    const jsHtml = renderProfileHtml(js, { name: 'all', base: 1e9, head: 1.05e9, children: [] }, { base: 'a', head: 'b' });
    expect(jsHtml).toContain('starts at <code>cafe-utility/index.js:412</code>');
    expect(jsHtml).toContain(NO_JS_LINES);
  });

  it('escapes hostile paths and keeps the comment under the limit with every function’s lines at their caps', () => {
    const d = withLines();
    d.own[1] = {
      ...d.own[1]!,
      lines: [{ file: '<img src=x onerror=alert(1)>`](javascript:x)', line: 1, function: '<script>', only: 'head', base: 0, head: 5e6 }],
    };
    const md = renderProfileSection([ProfileDiffSchema.parse(d)], 65_536)!;
    expect(md).not.toMatch(/<img|<script|\]\(javascript/);
    const full = (i: number) =>
      ProfileDiffSchema.parse({
        ...d,
        caseId: `cpu.case-${i}`,
        own: d.own.map((o) => ({
          ...o,
          lines: Array.from({ length: 5 }, (_, k) => ({ file: 'p'.repeat(160), line: 100000 + k, function: 'f'.repeat(200), base: 0, head: 1e6 })),
        })),
      });
    const many = Array.from({ length: 100 }, (_, i) => full(i));
    expect(ProfileDiffsSchema.parse(many)).toHaveLength(100);
    expect(renderProfileSection(many, GITHUB_COMMENT_LIMIT - 1000)!.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT - 1000);
  });
});
