// "Where it moved" in the PR comment: under the verdict table, one collapsed section per flagged
// row with the top five of each of its profile lists (src/profile/diff.ts). The comment's size
// limit holds however many rows are flagged: the least important rows' lists go first (the
// smallest instruction change), down to one line naming the client function that moved most,
// then nothing, and the section says how many were trimmed.
import type { ProfileDiff } from '../../profile/schema.js';
import { htmlCode, mdCode, mdText } from '../escape.js';
import { mdDetails, mdTable } from './md-blocks.js';
import { formatChange, formatCount, formatPercent } from '../units.js';

/** Lines of each list a row shows in full. */
export const DETAIL_LINES = 5;
/** Moved source lines shown under each client function in the comment (diff.json keeps up to five). */
export const SOURCE_LINES_SHOWN = 3;

export const PROFILE_NOTE =
  'Figures are instructions per timed iteration under callgrind, not time; a row flagged by wall time alone (cache, I/O, contention) has no function list.';

const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${formatCount(Math.abs(n))}`;
const rowChange = (d: ProfileDiff) => d.total.head - d.total.base;
const fnName = (name: string, status?: 'new' | 'gone') => `${mdCode(name)}${status === 'new' ? ' 🆕' : status === 'gone' ? ' (gone)' : ''}`;
/** A function's change relative to the row's base total: the part of the row's change it makes. */
const ofRow = (d: ProfileDiff, change: number) => (d.total.base > 0 ? formatChange(1 + change / d.total.base) : '—');

function selfTable(d: ProfileDiff): string {
  const whole = rowChange(d);
  return mdTable(
    ['function', 'base', 'head', 'change', 'share of the row’s change'],
    d.self.slice(0, DETAIL_LINES).map((l) => {
      const c = l.head - l.base;
      return [fnName(l.name, l.status), formatCount(l.base), formatCount(l.head), signed(c), whole !== 0 ? formatPercent(c / whole) : '—'];
    }),
    ['left', 'right', 'right', 'right', 'right'],
  );
}

/**
 * How much of a client function's change is a proportional estimate (src/profile/fold.ts): the
 * part under callees whose recorded callers reach no client function. "exact" when none is;
 * "—" for lists made before caller context was recorded.
 */
export function estimatedShare(l: ProfileDiff['own'][number]): string {
  if (l.estimatedBase === undefined || l.estimatedHead === undefined) return '—';
  const change = l.head - l.base;
  const est = l.estimatedHead - l.estimatedBase;
  if (Math.abs(est) < 0.5 || change === 0) return 'exact';
  return `${formatPercent(Math.min(1, Math.abs(est / change)))} estimated`;
}

type OwnLine = ProfileDiff['own'][number];

/**
 * What a bee-js client function without lines says: V8's code log gives positions per instruction
 * of optimized code only (src/profile/v8-log.ts), none for interpreted or baseline code or builtins.
 */
export const NO_JS_LINES = 'no line positions within it (V8 gives them for optimized code only; this ran interpreted or baseline)';

/**
 * The last part of a function's name (`swarm.calculateBMTRoot` -> `calculateBMTRoot`,
 * `bee::swarm::bmt::bmt_root` -> `bmt_root`; bee-js's `calculateBmtRootHash @ethersphere/…` ->
 * `calculateBmtRootHash`).
 */
const fnTail = (name: string) =>
  name
    .replace(/ (?:@ethersphere\/bee-js|cafe-utility)\/.*$/, '')
    .replace(/<.*>|\(.*\)/g, '')
    .split(/::|\./)
    .at(-1) ?? name;

/**
 * A client function's moved source lines as text pieces (`src/swarm/bmt.rs:81 +1,234`, a line base
 * numbered otherwise with base's number, an edited line marked new in head and the line it replaced
 * base's), or the reason there are none:
 * bee-js's interpreted and baseline code has no line positions (NO_JS_LINES).
 */
export function sourceLineTexts(runner: ProfileDiff['runner'], l: OwnLine, n: number, code: (s: string) => string): string[] | string {
  if (l.lines === undefined) {
    if (runner !== 'js') return '—';
    // No instruction of it ran in optimized code: V8's perf map gives its start only.
    return l.start ? [`starts at ${code(`${l.start.file}:${l.start.line}`)}; ${NO_JS_LINES}`] : NO_JS_LINES;
  }
  if (l.lines.length === 0) return 'no single line moved past the floor';
  return l.lines.slice(0, n).map((s) => {
    const note =
      s.only === 'head' ? ' (new in head)' : s.only === 'base' ? ' (base’s, gone in head)' : s.baseLine !== undefined ? ` (base :${s.baseLine})` : '';
    // A line in another function's source is code inlined into this one: named by its own function.
    const inlined = s.function && fnTail(l.name) !== s.function ? ` in ${code(s.function)}` : '';
    return `${code(`${s.file}:${s.line}`)}${inlined}${note} ${signed(s.head - s.base)}`;
  });
}

function ownTable(d: ProfileDiff): string {
  const lines = (l: OwnLine) => {
    const t = sourceLineTexts(d.runner, l, SOURCE_LINES_SHOWN, mdCode);
    return typeof t === 'string' ? mdText(t) : t.join('<br>');
  };
  return mdTable(
    ['client function (outside callees folded in)', 'change', 'of the row', 'by proportion', 'via', 'moved source lines'],
    d.own
      .slice(0, DETAIL_LINES)
      .map((l) => [
        fnName(l.name, l.status),
        signed(l.head - l.base),
        ofRow(d, l.head - l.base),
        estimatedShare(l),
        l.via.length > 0 ? l.via.map((v) => mdCode(v)).join(', ') : '—',
        lines(l),
      ]),
    ['left', 'right', 'right', 'right', 'left', 'left'],
  );
}

function allocationTable(d: ProfileDiff): string {
  if (d.allocations === null)
    return '*Allocation sites: V8 allocates inline in JIT-compiled code, so callgrind sees no allocator calls to attribute (see docs/profiles.md).*';
  if (d.allocations.length === 0) return '*Allocation sites: no change in calls into the allocator.*';
  return mdTable(
    ['allocation site', 'calls/iteration base', 'head', 'change'],
    d.allocations.slice(0, DETAIL_LINES).map((l) => [mdCode(l.name), formatCount(l.base), formatCount(l.head), signed(l.head - l.base)]),
    ['left', 'right', 'right', 'right'],
  );
}

// The summary sits inside <details>, an HTML block, where backticks make no code span: <code> instead.
const summaryOf = (d: ProfileDiff) =>
  `Where it moved: ${htmlCode(d.caseId)} ${mdText(d.label)} (${d.total.base > 0 ? formatChange(d.total.head / d.total.base) : '—'} instructions, ${signed(rowChange(d))} per iteration)`;

/** One row at a level of detail: 2 every list, 1 one line, 0 nothing. */
function renderRow(d: ProfileDiff, level: 0 | 1 | 2): string | null {
  if (level === 0) return null;
  if (level === 1) {
    const first = d.own[0] ?? d.self[0];
    return `${summaryOf(d)}: ${first ? `${mdCode(first.name)} ${signed(first.head - first.base)}` : 'no function changed'} (lists trimmed to fit)`;
  }
  const body = [
    d.self.length > 0 ? selfTable(d) : '*No function changed its own instructions.*',
    d.own.length > 0 ? ownTable(d) : '*No client function changed.*',
    allocationTable(d),
  ].join('\n\n');
  return mdDetails(summaryOf(d), body);
}

/**
 * The section for the rows shown, in their order, in at most `budget` characters (UTF-16 units),
 * or null when nothing fits or no row has a difference. `files` says where the full profiles are
 * (trusted text: written by bee-bench, never from a result).
 */
export function renderProfileSection(
  diffs: readonly ProfileDiff[],
  budget: number,
  files = "Full profiles (callgrind, pprof, folded stacks, an HTML view) are in the run's `profiles` artifact.",
): string | null {
  if (diffs.length === 0) return null;
  const head = `### Where it moved\n\n<sub>${PROFILE_NOTE}${files ? ` ${files}` : ''}</sub>`;
  const levels = diffs.map((): 0 | 1 | 2 => 2);
  // Least important first: the smallest instruction change relative to the row.
  const weakest = diffs.map((d, i) => ({ i, w: d.total.base > 0 ? Math.abs(rowChange(d)) / d.total.base : 0 })).sort((a, b) => a.w - b.w);
  const render = () => {
    const trimmed = levels.filter((l) => l < 2).length;
    const parts = diffs.map((d, i) => renderRow(d, levels[i]!)).filter((s): s is string => s !== null);
    if (parts.length === 0) return null;
    const note =
      trimmed > 0
        ? `\n\n<sub>${trimmed} row${trimmed === 1 ? '’s' : 's’'} lists trimmed or left out to fit GitHub's comment size limit (least changed rows first); the artifact has them all.</sub>`
        : '';
    return `${head}\n\n${parts.join('\n\n')}${note}`;
  };
  for (const target of [1, 0] as const) {
    for (const { i } of weakest) {
      const out = render();
      if (out === null || out.length <= budget) return out;
      levels[i] = target;
    }
  }
  const out = render();
  return out !== null && out.length <= budget ? out : null;
}
