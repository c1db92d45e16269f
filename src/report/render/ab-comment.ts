// The A/B comment (docs/design.md, "PR comment"), posted on the PR and written as the job summary: hidden
// marker, headline counts, a table of rows judged upstream (src/verdict), collapsed context.
// GitHub caps a comment at 65536 characters, so unchanged rows are dropped first when the table
// is too long, with a note saying how many.
import { countRows, flaggedBy, LOAD_SPREAD, rowVerdict, type AbCounts, type AbRow, type LoadShift, type Verdict } from '../../verdict/index.js';
import type { Host, Profile, Runner } from '../../spec/schema.js';
import { DETERMINISTIC, MEASURE_NAMES, type DeterministicKind } from '../../spec/measure.js';
import { clip, mdCode, mdText, preText, safeUrl } from '../escape.js';
import { failureSummary } from './failure-summary.js';
import { mdBlocks, mdDetails, mdQuote, mdTable } from './md.js';
import { foldSkipped } from './skipped.js';
import { renderProfileSection } from './profile-details.js';
import type { ProfileDiff } from '../../profile/schema.js';
import { NET_SCOPE_CAVEAT, RUNNER_LABEL, allRows, rowKey, type AggregateModel, type Row } from '../model/types.js';
import { platformOf } from '../../spec/platform.js';
import {
  formatAmountChange,
  formatBytes,
  formatChange,
  formatDuration,
  formatNoise,
  formatP,
  formatPerOp,
  formatThroughput,
  formatTimeChange,
  formatTimeInterval,
} from '../units.js';

export interface AbReportInput {
  title: string;
  /** Hidden HTML comment identifying workflow + client; the sticky comment is found by it. */
  marker: string;
  runner: Runner;
  /** Refs or shas of the two sides. */
  baseLabel: string;
  headLabel: string;
  rows: AbRow[];
  alpha: number;
  threshold: number;
  rounds: number;
  profile: Profile;
  env: {
    host: Host | string;
    clientBase: string;
    clientHead: string;
    specHash: string;
    wallTimeMs: number;
    stoppedEarly?: boolean | string;
    /** Set when the machine's load moved during the rounds (src/verdict loadShift). */
    loadShift?: LoadShift;
    /** Set when instructions were asked for: the split of the run's time, the counter or why none. */
    measure?: { wallMs: number; countMs: number; counter: string | null; unavailable?: string; threshold: number };
    /** Set when allocations were measured: their threshold, how the runner counted, the time the runs took. */
    allocations?: { threshold: number; counter: string | null; ms: number };
    /** A node A/B: each side's Bee node ("Bee 2.8.0-41d6efc6 (dev node of …)"); one client build on both sides. */
    nodes?: { base: string; head: string };
  };
  /** Aggregate of the other runners (released versions) for context. */
  crossClient?: AggregateModel;
  trendUrl?: string;
  /** Set when base is the branch's history instead of a build of the base in this job. */
  baseline?: { kind: 'history'; branch: string; runs: number };
  /** Flagged rows' function profile differences (src/profile): "Where it moved" under the table. */
  profiles?: ProfileDiff[];
}

export interface AbRenderOptions {
  /** Default 65536 (GitHub's comment limit), counted in UTF-16 units, which never undercounts. */
  maxChars?: number;
}

export const GITHUB_COMMENT_LIMIT = 65536;

const GLYPH: Record<Verdict, string> = { regression: '🔴 regression', improvement: '🟢 improvement', '~': '⚪ ~' };

/** The marker as an HTML comment; a given comment is kept verbatim so the sticky lookup matches. */
export function markerComment(marker: string): string {
  const m = marker.trim();
  if (m.startsWith('<!--') && m.endsWith('-->')) {
    if (m.slice(4, -3).includes('--')) throw new Error(`marker ${JSON.stringify(marker)} must not contain "--" inside the comment`);
    return m;
  }
  return `<!-- ${m.replace(/-{2,}/g, '-').replace(/>/g, '')} -->`;
}

const isRegression = (r: AbRow) => r.status === 'ok' && rowVerdict(r) === 'regression';
const isImprovement = (r: AbRow) => r.status === 'ok' && rowVerdict(r) === 'improvement';
const isUnchanged = (r: AbRow) => r.status === 'ok' && !isRegression(r) && !isImprovement(r);

/** Regressions (largest first), improvements (largest first), then the rest in input order. */
export function orderRows(rows: readonly AbRow[]): AbRow[] {
  const regressions = rows.filter(isRegression).sort((a, b) => (b.ratio ?? 1) - (a.ratio ?? 1));
  const improvements = rows.filter(isImprovement).sort((a, b) => (a.ratio ?? 1) - (b.ratio ?? 1));
  const rest = rows.filter((r) => !isRegression(r) && !isImprovement(r));
  return [...regressions, ...improvements, ...rest];
}

/** A row's figure in the unit a person reads it in: MB/s with bytes, time per op with ops, else time. */
export function humanFigure(medianNs: number | undefined, work: AbRow['work']): string {
  if (medianNs === undefined || !(medianNs > 0)) return '—';
  if (work.bytes) return formatThroughput(work.bytes / medianNs);
  if (work.ops && work.ops > 1) return formatPerOp(medianNs / work.ops);
  return formatDuration(medianNs);
}

/** Notes are free text from runners (errors) as well as ours: one line each, clipped. */
const NOTE_CHARS = 300;

function verdictCell(r: AbRow): string {
  const text = r.note ? mdText(clip(r.note, NOTE_CHARS)) : '';
  const note = text ? `: ${text}` : '';
  switch (r.status) {
    case 'ok':
      // A row no data could flag has no verdict to show: say why instead of "~".
      if (r.note?.startsWith('too few')) return `⚠ ${text}`;
      return `${GLYPH[rowVerdict(r)]}${text ? ` (${text})` : ''}`;
    case 'skipped':
      return `⏭ skipped${note}`;
    case 'failed':
      return `❌ failed${note}`;
    case 'new':
      return `🆕 new${note}`;
    case 'missing':
      return `❓ missing in head${note}`;
  }
}

/** The instruction-count cell: head/base change and its verdict, or why the row has none. */
function instructionCell(r: AbRow): string {
  const v = r.instructions;
  if (!v) return r.kind === 'net' ? 'not counted (net)' : r.instructionsNote ? `— (${mdText(clip(r.instructionsNote, NOTE_CHARS))})` : '—';
  return `${formatAmountChange(v.ratio)} ${formatNoise(v.spread)} ${GLYPH[v.verdict].split(' ')[0]}`;
}

/** The allocation cell: head/base bytes per iteration (and allocations where counted) and the verdict. */
function allocationCell(r: AbRow): string {
  const v = r.allocations;
  if (!v) return r.kind === 'net' ? 'not measured (net)' : r.allocationsNote ? `— (${mdText(clip(r.allocationsNote, NOTE_CHARS))})` : '—';
  const allocs = v.allocs ? `, ${formatAmountChange(v.allocs.ratio, 'allocs')}` : '';
  return `${formatAmountChange(v.bytes.ratio, 'bytes')}${allocs} ${formatNoise(Math.max(v.bytes.spread, v.allocs?.spread ?? 0))} ${GLYPH[v.verdict].split(' ')[0]}`;
}

function evidenceCell(r: AbRow): string {
  const by = [...flaggedBy(r, 'regression'), ...flaggedBy(r, 'improvement')];
  return by.length > 0 ? [...new Set(by)].map((k) => MEASURE_NAMES[k].label).join(' + ') : '—';
}

/** The extra evidence columns a table shows. */
type Evidence = ReadonlySet<DeterministicKind>;

function tableRow(r: AbRow, e: Evidence): string[] {
  const ok = r.status === 'ok';
  return [
    mdCode(r.caseId),
    mdText(r.label),
    humanFigure(r.baseMedianNs, r.work),
    humanFigure(r.headMedianNs, r.work),
    ok && r.ratio !== undefined ? `${formatTimeChange(r.ratio)}${r.ciHalfWidth !== undefined ? ` ${formatNoise(r.ciHalfWidth)}` : ''}` : '—',
    ok && r.ci ? formatTimeInterval(r.ci) : '—',
    ok && r.q !== undefined ? formatP(r.q) : '—',
    ...(e.has('instructions') ? [instructionCell(r)] : []),
    ...(e.has('allocations') ? [allocationCell(r)] : []),
    ...(e.size > 0 ? [evidenceCell(r)] : []),
    verdictCell(r),
  ];
}

function headline(c: AbCounts): string {
  const parts = [
    `🔴 **${c.regressions}** regression${c.regressions === 1 ? '' : 's'}`,
    `🟢 **${c.improvements}** improvement${c.improvements === 1 ? '' : 's'}`,
    `⚪ **${c.unchanged}** unchanged`,
    `⏭ **${c.skipped}** skipped`,
    `🆕 **${c.new}** new`,
  ];
  if (c.failed > 0) parts.push(`❌ **${c.failed}** failed`);
  if (c.missing > 0) parts.push(`❓ **${c.missing}** missing`);
  return parts.join(' · ');
}

function hostText(h: Host | string): string {
  if (typeof h === 'string') return mdText(h);
  return mdText(`${platformOf(h)}, ${h.cpu_model}, ${h.cpus} CPUs, ${formatBytes(h.mem_mb * 2 ** 20)}, ${h.runtime}`);
}

function crossClientSection(input: AbReportInput, rows: readonly AbRow[]): string | null {
  const model = input.crossClient;
  if (!model) return null;
  const byKey = new Map<string, Row>(allRows(model).map((r) => [rowKey(r), r]));
  const others = model.runners.map((r) => r.runner).filter((r) => r !== input.runner);
  const lines = rows.flatMap((r) => {
    const other = byKey.get(rowKey(r));
    if (!other) return [];
    return [
      [
        mdCode(r.caseId),
        mdText(r.label),
        humanFigure(r.headMedianNs, r.work),
        ...others.map((o) => {
          const c = other.cells[o];
          if (!c) return '—';
          if (c.status !== 'ok') return `*${c.status}*`;
          return humanFigure(c.medianNs, c.work);
        }),
      ],
    ];
  });
  if (lines.length === 0) return null;
  const versions = model.runners
    .filter((r) => others.includes(r.runner))
    .map((r) => `${mdText(r.label)} ${mdText(r.client.version)}`)
    .join(', ');
  const table = mdTable(['case', 'param', `${mdText(RUNNER_LABEL[input.runner])} (head)`, ...others.map((o) => mdText(RUNNER_LABEL[o]))], lines);
  return mdDetails(
    'Cross-client context',
    `The same rows in the other clients (${versions}), in the units of the table above. Measured separately from the paired rounds: read orders of magnitude, not small differences.\n\n${table}`,
  );
}

function environmentSection(input: AbReportInput): string {
  const e = input.env;
  const stopped = e.stoppedEarly ? (typeof e.stoppedEarly === 'string' ? mdText(e.stoppedEarly) : 'yes') : null;
  const table = mdTable(
    ['', ''],
    [
      ['runner', mdText(RUNNER_LABEL[input.runner])],
      ['host', hostText(e.host)],
      ['client (base)', mdText(e.clientBase)],
      ['client (head)', mdText(e.clientHead)],
      ...(e.nodes
        ? [
            ['Bee node (base)', mdText(e.nodes.base)],
            ['Bee node (head)', mdText(e.nodes.head)],
          ]
        : []),
      ['spec', mdCode(e.specHash)],
      ['profile', mdText(input.profile)],
      ['rounds', String(input.rounds)],
      ['alpha (BH q)', String(input.alpha)],
      ['threshold', `${formatChange(1 + input.threshold).replace('+', '±')}`],
      ['wall time', formatDuration(e.wallTimeMs * 1e6)],
      ...(e.measure ? [['of which counting instructions', formatDuration(e.measure.countMs * 1e6)]] : []),
      ...(stopped ? [['stopped early', stopped]] : []),
    ],
  );
  return mdDetails('Environment', table);
}

interface Parts {
  /** Instruction counts, allocations were asked for: their columns, "flagged by" and their notes. */
  evidence: Evidence;
  top: string[];
  shown: AbRow[];
  omittedUnchanged: number;
  omittedOther: number;
  tail: string[];
  history: boolean;
  /** "Where it moved" (profile-details.ts), sized to what the comment has left. */
  profiles?: string | null;
}

/** The verdict table (also the body of a default-branch alert issue); `history` names the base column. */
export function verdictTable(rows: readonly AbRow[], history: boolean, evidence: Evidence = new Set()): string {
  const head = [
    'case',
    'param',
    history ? 'history' : 'base',
    'head',
    'change',
    '95% interval',
    'q',
    ...DETERMINISTIC.filter((k) => evidence.has(k)).map((k) => MEASURE_NAMES[k].column),
    ...(evidence.size > 0 ? ['flagged by'] : []),
    'verdict',
  ];
  return mdTable(
    head,
    rows.map((r) => tableRow(r, evidence)),
  );
}

const PAIRED_NOTE =
  "change = head against base in time per iteration (Hodges–Lehmann estimate over the paired rounds, each round the median of its lock-step iteration pairs), with its 95% interval and the Benjamini–Hochberg q. base = the median of the rounds' base medians; head = base × that estimate, so the two figures differ by exactly the change shown (pooled medians would mix load levels). ± after a change is the row's noise floor: half the width of its 95% interval for time, and for instructions and allocations the A/A spread, how far two runs of base land apart.";
export const HISTORY_NOTE =
  "change = head against history in time per iteration (two-sample Hodges–Lehmann estimate of head iterations against the medians of past runs, Mann–Whitney test), with its 95% interval and the Benjamini–Hochberg q. history = the median of the past runs' medians; head = history × that estimate.";

const COUNT_NOTE =
  "instructions = head/base instructions executed per timed iteration under callgrind (CPU rows only: net rows are the node's time). Counts flag a row when the change reaches the threshold (or comes within the larger of 0.05 points and three A/A spreads of it) and ten times the spread of base against itself. Counts do not see memory, cache or I/O effects: a wall-time regression stands even when counts show none.";

const ALLOCATION_NOTE =
  "allocations = head/base heap bytes (and allocations, where the runtime counts them) per timed iteration, by the runtime's own accounting in separate runs (CPU rows only); flagged like counts, against the row's A/A spread. Bytes allocated are not memory kept: peak RSS in the run report tells retained from transient.";

function assemble(p: Parts): string {
  const table = verdictTable(p.shown, p.history, p.evidence);
  const notes: string[] = [p.history ? HISTORY_NOTE : PAIRED_NOTE];
  if (p.evidence.has('instructions')) notes.push(COUNT_NOTE);
  if (p.evidence.has('allocations')) notes.push(ALLOCATION_NOTE);
  if (p.omittedUnchanged > 0)
    notes.push(
      `${p.omittedUnchanged} unchanged (⚪ ~) row${p.omittedUnchanged === 1 ? '' : 's'} omitted to fit GitHub's comment size limit; the job summary and artifacts have them all.`,
    );
  if (p.omittedOther > 0) notes.push(`${p.omittedOther} further row${p.omittedOther === 1 ? '' : 's'} omitted to fit GitHub's comment size limit.`);
  return mdBlocks([...p.top, p.shown.length > 0 ? table : '*No rows.*', `<sub>${notes.join(' ')}</sub>`, p.profiles, ...p.tail]);
}

/** The one-line note when the machine's load moved during the rounds. */
function loadShiftLine(l: LoadShift): string {
  return `⚠ The machine's load moved during the rounds: a side's round medians spread ${l.spread.toFixed(1)}x in the typical row (over ${LOAD_SPREAD}x in ${l.rows} of ${l.of} rows). Each round pairs base and head under the same load, so changes and verdicts stand; the base and head figures are the rounds' middle level, not a quiet machine's.`;
}

/** "12 paired rounds", or, when some row could not use every round, how many it used at least. */
function pairedRoundsText(input: AbReportInput): string {
  const used = input.rows.filter((r) => r.status === 'ok').map((r) => r.rounds);
  const fewest = Math.min(input.rounds, ...used);
  return fewest < input.rounds
    ? `${input.rounds} rounds run, ${fewest} to ${input.rounds} paired per row (see the rows' notes)`
    : `${input.rounds} paired rounds`;
}

export function renderAbComment(input: AbReportInput, opts: AbRenderOptions = {}): string {
  const max = opts.maxChars ?? GITHUB_COMMENT_LIMIT;
  const { kept: ordered, lines: skippedLines } = foldSkipped(orderRows(input.rows));
  const counts = countRows(input.rows);
  const trend = input.trendUrl ? safeUrl(input.trendUrl) : null;
  const b = input.baseline;
  const history = Boolean(b);
  const m = input.env.measure;
  const counted = Boolean(m) || input.rows.some((r) => r.instructions || r.instructionsNote);
  const allocated = Boolean(input.env.allocations) || input.rows.some((r) => r.allocations || r.allocationsNote);
  // The comment has cells for these two; estimated cycles join when the renderer loops over the registry.
  const evidence: Evidence = new Set(DETERMINISTIC.filter((k) => (k === 'instructions' ? counted : k === 'allocations' ? allocated : false)));
  // Counts only (no wall-time rounds): the header says what was measured, not "0 paired rounds" and a time rule.
  const countsOnly = !b && input.rounds === 0 && evidence.size > 0;
  const measured = [...evidence].map((k) => MEASURE_NAMES[k].label).join(' and ');
  const design = b
    ? `history: last ${b.runs} run${b.runs === 1 ? '' : 's'} of ${mdCode(b.branch)} → head ${mdCode(input.headLabel)}`
    : countsOnly
      ? `base ${mdCode(input.baseLabel)} → head ${mdCode(input.headLabel)} · ${measured} counted (no wall-time rounds)`
      : `base ${mdCode(input.baseLabel)} → head ${mdCode(input.headLabel)} · ${pairedRoundsText(input)}`;
  const rule = countsOnly
    ? `a row is flagged by its ${measured} as the lines below say`
    : `verdicts at BH q < ${input.alpha} and a change beyond ±${Math.round(input.threshold * 1000) / 10}%`;
  const top = [
    markerComment(input.marker),
    `## ${mdText(input.title)}`,
    `${mdText(RUNNER_LABEL[input.runner])}: ${design} · profile ${mdText(input.profile)} · ${rule}`,
    input.env.nodes
      ? `The Bee node is the variable: base ${mdText(input.env.nodes.base)} → head ${mdText(input.env.nodes.head)}, one ${mdText(input.env.clientHead)} build on both sides.`
      : null,
    b
      ? mdQuote([
          '⚠ Cross-machine comparison: the base figures come from earlier runs on other runner hosts, so host differences show up as changes. Build the base in this job for a paired verdict.',
        ])
      : null,
    headline(counts),
    failureSummary(input.rows.filter((r) => r.status === 'failed').map((r) => ({ caseId: r.caseId, label: r.label, reason: r.note ?? 'no reason recorded' }))),
    m?.unavailable ? mdQuote([`⚠ Instruction counts were asked for but not taken: ${mdText(m.unavailable)}. The verdicts are wall time only.`]) : null,
    counted && !m?.unavailable
      ? `Instruction counts (${mdText(m?.counter ?? 'callgrind')}): a change reaching ±${Math.round((m?.threshold ?? 0.01) * 1000) / 10}% and ten times the row's A/A spread flags a row.`
      : null,
    input.env.allocations
      ? `Allocations (${mdText(input.env.allocations.counter ?? 'runtime accounting')}): a change reaching ±${Math.round(input.env.allocations.threshold * 1000) / 10}% and ten times the row's A/A spread flags a row.`
      : null,
    input.rows.some((r) => r.kind === 'net') ? mdQuote([`⚠ ${mdText(NET_SCOPE_CAVEAT)}`]) : null,
    input.env.loadShift ? mdQuote([loadShiftLine(input.env.loadShift)]) : null,
    input.env.stoppedEarly
      ? mdQuote([
          `⚠ The run stopped early${typeof input.env.stoppedEarly === 'string' ? `: ${mdText(input.env.stoppedEarly)}` : ''}; rows have fewer rounds than planned.`,
        ])
      : null,
  ].filter((s): s is string => s !== null);
  const cross = crossClientSection(input, ordered);
  const tailWith = (withCross: boolean) =>
    [
      skippedLines.length > 0 ? skippedLines.join('  \n') : null,
      withCross ? cross : null,
      environmentSection(input),
      trend ? `[Trend charts for ${mdText(RUNNER_LABEL[input.runner])}](${trend})` : null,
    ].filter((s): s is string => s !== null);

  const fits = (p: Parts) => assemble(p).length <= max;
  const unchanged = ordered.filter(isUnchanged);
  const keep = (nUnchanged: number, rows: readonly AbRow[]) => {
    const dropped = new Set(unchanged.slice(nUnchanged));
    return rows.filter((r) => !dropped.has(r));
  };
  // The table first; the shown rows' profile differences get the room it leaves.
  const finish = (p: Parts): string => {
    const plain = assemble(p);
    const shown = new Set(p.shown.map((r) => `${r.caseId}\u0000${r.label}`));
    const diffs = (input.profiles ?? []).filter((d) => shown.has(`${d.caseId}\u0000${d.label}`));
    const section = renderProfileSection(diffs, max - plain.length - 2);
    return section ? assemble({ ...p, profiles: section }) : plain;
  };
  let parts: Parts = { evidence, top, shown: ordered, omittedUnchanged: 0, omittedOther: 0, tail: tailWith(true), history };
  if (fits(parts)) return finish(parts);

  // 1. Drop unchanged rows from the end, keeping as many as fit (binary search on the count).
  const withUnchanged = (k: number, tail: string[]): Parts => ({
    evidence,
    top,
    shown: keep(k, ordered),
    omittedUnchanged: unchanged.length - k,
    omittedOther: 0,
    tail,
    history,
  });
  for (const tail of [tailWith(true), tailWith(false)]) {
    if (fits(withUnchanged(0, tail))) {
      let lo = 0;
      let hi = unchanged.length;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(withUnchanged(mid, tail))) lo = mid;
        else hi = mid - 1;
      }
      return finish(withUnchanged(lo, tail));
    }
  }
  // 2. Still too long without any unchanged row or the cross-client table: cut the remaining rows
  //    from the end (regressions come first, so they are the last to go).
  const rest = keep(0, ordered);
  let lo = 0;
  let hi = rest.length;
  const cut = (k: number): Parts => ({
    evidence,
    top,
    shown: rest.slice(0, k),
    omittedUnchanged: unchanged.length,
    omittedOther: rest.length - k,
    tail: tailWith(false),
    history,
  });
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(cut(mid))) lo = mid;
    else hi = mid - 1;
  }
  parts = cut(lo);
  return finish(parts);
}

/** A build that failed before anything was measured: which one, and the end of its log. */
export interface BuildFailureInput {
  title: string;
  marker: string;
  runner: Runner;
  side: 'base' | 'head';
  /** What was built: "path <dir>", "registry", a ref. */
  source: string;
  logTail: readonly string[];
}

export function renderBuildFailure(f: BuildFailureInput): string {
  const log = f.logTail.length > 0 ? `<pre>${f.logTail.map((l) => preText(clip(l, 500))).join('\n')}</pre>` : '*(no output)*';
  return mdBlocks([
    markerComment(f.marker),
    `## ${mdText(f.title)}`,
    `❌ **The ${f.side} build failed** (${mdText(RUNNER_LABEL[f.runner])}, ${mdText(f.source)}): nothing was measured, so there are no verdicts.`,
    `<details open><summary>End of the ${f.side} build log</summary>\n\n${log}\n\n</details>`,
  ]);
}
