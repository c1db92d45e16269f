// The A/B comment (docs/design.md, "PR comment"), posted on the PR and written as the job summary: hidden
// marker, headline counts, a table of rows judged upstream (src/verdict), collapsed context. It renders
// the A/B model (../model/ab.ts: the input, row order, columns); each evidence's cells, rule line and
// note come from its view (src/evidence/views.ts), so no evidence is named here.
// GitHub caps a comment at 65536 characters, so unchanged rows are dropped first when the table
// is too long, with a note saying how many.
import { countRows, flaggedBy, LOAD_SPREAD, wallOf, type AbCounts, type AbRow, type LoadShift, type Verdict } from '../../verdict/index.js';
import type { Host, Runner } from '../../spec/schema.js';
import {
  COLUMN_VIEWS,
  VIEWS,
  VIEW_LIST,
  figureOf,
  noteOf,
  settingOf,
  type EvidenceFigure,
  type EvidenceSetting,
  type EvidenceView,
} from '../../evidence/views.js';
import { columnsOf, isUnchanged, orderRows, type AbReportInput, type Evidence } from '../model/ab.js';
import { clip, mdCode, mdText, preText, safeUrl } from '../escape.js';
import { failureSummary } from './failure-summary.js';
import { mdBlocks, mdDetails, mdQuote, mdTable } from './md-blocks.js';
import { foldSkipped } from './skipped.js';
import { renderProfileSection } from './profile-details.js';
import { NET_SCOPE_CAVEAT, RUNNER_LABEL, allRows, rowKey, type Row } from '../model/types.js';
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
      return `${GLYPH[r.verdict ?? '~']}${text ? ` (${text})` : ''}`;
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

/** A figure's changes in words: "1.0% more", "7.2% more bytes, no change in allocs", "3.1% slower". */
export const changesText = (f: EvidenceFigure): string =>
  f.changes.map((c) => (c.time ? formatTimeChange(c.ratio) : formatAmountChange(c.ratio, c.noun))).join(', ');

/**
 * A counted row's own threshold (src/verdict/steps.ts: the larger of the floor and ten A/A
 * spreads), per figure where an allocation row's bytes and allocations differ.
 */
function thresholdText(figures: NonNullable<EvidenceFigure['thresholds']>): string {
  const distinct = new Set(figures.map((f) => f.threshold));
  const shown = distinct.size === 1 ? formatNoise(figures[0]!.threshold) : figures.map((f) => `${formatNoise(f.threshold)} ${f.name ?? ''}`.trim()).join(', ');
  return `(threshold ${shown})`;
}

/** An evidence's own column: its change, the row's A/A spread and its verdict, or why the row has none. */
function evidenceColumnCell(r: AbRow, v: EvidenceView): string {
  const f = figureOf(r, v);
  if (!f) {
    const note = noteOf(r, v.kind);
    return r.kind === 'net' ? `not ${v.verb} (net)` : note ? `— (${mdText(clip(note, NOTE_CHARS))})` : '—';
  }
  const threshold = f.thresholds?.length ? ` ${thresholdText(f.thresholds)}` : '';
  return `${changesText(f)} ${formatNoise(f.spread)} ${GLYPH[f.verdict].split(' ')[0]}${threshold}`;
}

function evidenceCell(r: AbRow): string {
  const by = [...flaggedBy(r, 'regression'), ...flaggedBy(r, 'improvement')];
  return by.length > 0 ? [...new Set(by)].map((k) => VIEWS[k].label).join(' + ') : '—';
}

const shownViews = (e: Evidence) => COLUMN_VIEWS.filter((v) => e.has(v.kind));

function tableRow(r: AbRow, e: Evidence): string[] {
  const w = r.status === 'ok' ? wallOf(r) : undefined;
  return [
    mdCode(r.caseId),
    mdText(r.label),
    humanFigure(w?.baseMedianNs, r.work),
    humanFigure(w?.headMedianNs, r.work),
    w ? `${formatTimeChange(w.ratio)}${w.ciHalfWidth !== undefined ? ` ${formatNoise(w.ciHalfWidth)}` : ''}` : '—',
    w?.ci ? formatTimeInterval(w.ci) : '—',
    w ? formatP(w.q) : '—',
    ...shownViews(e).map((v) => evidenceColumnCell(r, v)),
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
        humanFigure(wallOf(r)?.headMedianNs, r.work),
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
      ...VIEW_LIST.flatMap((v) => {
        const s = settingOf(e, v.kind);
        return v.timeLine && s ? [[v.timeLine, formatDuration(s.ms * 1e6)]] : [];
      }),
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
    ...shownViews(evidence).map((v) => v.column!),
    ...(evidence.size > 0 ? ['flagged by'] : []),
    'verdict',
  ];
  return mdTable(
    head,
    rows.map((r) => tableRow(r, evidence)),
  );
}

/** The note under a table of rows judged against the branch's history (an alert issue's). */
export const HISTORY_NOTE = tableNotes(new Set(), true).join(' ');

/** The notes under the table: how to read the fixed change columns (the base's), then each shown column. */
export function tableNotes(evidence: Evidence, history: boolean): string[] {
  return VIEW_LIST.filter((v) => v.column === null || evidence.has(v.kind)).map((v) => v.note(history));
}

function assemble(p: Parts): string {
  const table = verdictTable(p.shown, p.history, p.evidence);
  const notes = tableNotes(p.evidence, p.history);
  if (p.omittedUnchanged > 0)
    notes.push(
      `${p.omittedUnchanged} unchanged (⚪ ~) row${p.omittedUnchanged === 1 ? '' : 's'} omitted to fit GitHub's comment size limit; the job summary and artifacts have them all.`,
    );
  if (p.omittedOther > 0) notes.push(`${p.omittedOther} further row${p.omittedOther === 1 ? '' : 's'} omitted to fit GitHub's comment size limit.`);
  return mdBlocks([...p.top, p.shown.length > 0 ? table : '*No rows.*', `<sub>${notes.join(' ')}</sub>`, p.profiles, ...p.tail]);
}

/** An evidence's lines under the headline: why it was not taken, or its rule with the counter that measured. */
function ruleLines(v: EvidenceView, s: EvidenceSetting | undefined): string[] {
  if (s?.unavailable) return [mdQuote([`⚠ ${v.title} were asked for but not taken: ${mdText(s.unavailable)}. The verdicts are wall time only.`])];
  const threshold = s?.threshold ?? v.defaultThreshold;
  return [
    `${v.title} (${mdText(s?.counter ?? v.defaultCounter)}): a row flags a change reaching its threshold, the larger of the floor ±${Math.round(threshold * 1000) / 10}% and ten times its A/A spread.`,
  ];
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
  const evidence = columnsOf(input);
  // Counts only (no wall-time rounds): the header says what was measured, not "0 paired rounds" and a time rule.
  const countsOnly = !b && input.rounds === 0 && evidence.size > 0;
  const measured = shownViews(evidence)
    .map((v) => v.label)
    .join(' and ');
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
    ...shownViews(evidence).flatMap((v) => ruleLines(v, settingOf(input.env, v.kind))),
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
