// report.md: the aggregate report as GitHub-flavoured markdown, printed from the table model
// (model/tables.ts). Charts are text (text-charts.ts): GitHub strips inline SVG from markdown.
// Deterministic: the only timestamps are the results' own.
import type { Runner } from '../../spec/schema.js';
import { caveatsOf, rowMarks, scaledWorkLine, type CellView } from '../model/cell.js';
import { mdCode, mdCopyable, mdProse, mdText } from '../escape.js';
import { failureSummary } from './failure-summary.js';
import { failuresOf } from '../model/failures.js';
import { mdBlocks, mdQuote, mdTable } from './md-blocks.js';
import { NET_SCOPE_CAVEAT, RUNNER_LABEL, type AggregateModel, type CaseModel, type Row } from '../model/types.js';
import { showsAllocations } from '../model/memory.js';
import { aggregateTables, barItems, digestNote, notRunReason, type AggregateTables, type Piece, type Table } from '../model/tables.js';
import { ALLOC_LEGEND, ALLOC_SCOREBOARD_NOTE } from './notes.js';
import { textBars, textSparkline } from './text-charts.js';
import { THROUGHPUT_FOOTNOTE } from '../units.js';

export interface MarkdownOptions {
  title?: string;
}

export function renderMarkdown(model: AggregateModel, opts: MarkdownOptions = {}): string {
  return markdownReport(aggregateTables(model), opts);
}

/** report.md from the table model (writeReports builds it once for every format). */
export function markdownReport(t: AggregateTables, opts: MarkdownOptions = {}): string {
  const { model } = t;
  return mdBlocks([
    `# ${mdText(opts.title ?? 'bee-bench report')}`,
    header(t.meta),
    model.hasNet ? scopeCaveat() : null,
    model.warnings.length > 0 ? mdQuote(model.warnings.map((w) => `⚠ ${mdText(w)}`)) : null,
    failureSummary(failuresOf(model)),
    '## Runners',
    mdTableOf(t.runnersTable),
    t.environment === null ? null : mdText(t.environment),
    '## Scoreboard',
    t.scoreboard ? `${mdTableOf(t.scoreboard)}\n\n${mdText(t.scoreboardNote)}` : 'One runner only: nothing to rank.',
    t.allocScoreboard ? allocScoreboard(t.allocScoreboard) : null,
    t.notRun.length > 0 ? t.notRun.map((line) => `Not ranked: ${mdCopyable(line)}.`).join('  \n') : null,
    ...model.groups.flatMap((g) => [`## ${mdText(g.title)}`, mdQuote([mdProse(g.note)]), ...g.cases.map((c) => caseSection(c, t))]),
    '---',
    legend(model),
  ]);
}

/** A table model's cell in markdown: text escaped, identifiers as code, bold figures, a not-run status. */
function mdPieces(cell: readonly Piece[]): string {
  return cell
    .map((p) => {
      if (typeof p === 'string') return mdText(p);
      if ('code' in p) return mdCode(p.code);
      if ('strong' in p) return `**${mdText(p.strong)}**`;
      return `**${p.notRun.status}**: ${mdCopyable(notRunReason(p.notRun))}`;
    })
    .join('');
}

function mdTableOf(t: Table): string {
  return mdTable(
    t.headers.map(mdText),
    t.rows.map((r) => r.map(mdPieces)),
    t.numeric ? t.headers.map((_, i) => (i === 0 ? 'left' : 'right')) : [],
  );
}

function header(meta: AggregateTables['meta']): string {
  const parts = [];
  if (meta.from) parts.push(`Runs from ${mdText(meta.from)}${meta.to ? ` to ${mdText(meta.to)}` : ''}`);
  if (meta.profiles.length > 0) parts.push(`profile ${meta.profiles.map((p) => mdCode(p)).join(', ')}`);
  if (meta.specs.length > 0) parts.push(`spec ${meta.specs.map((h) => mdCode(h)).join(', ')}`);
  return parts.join(' · ');
}

export function scopeCaveat(): string {
  return mdQuote([`**⚠ Scope of network figures.** ${mdText(NET_SCOPE_CAVEAT)}`]);
}

/** Heap bytes per unit of work, ranked like time (rows where a runner allocates nothing are counted apart). */
function allocScoreboard(table: Table): string {
  return `### Heap bytes per unit of work\n\n${mdTableOf(table)}\n\n${mdText(ALLOC_SCOREBOARD_NOTE)}`;
}

function caseSection(c: CaseModel, t: AggregateTables): string {
  const { runners, view } = t;
  const fits = t.fits.get(c.id);
  const blocks: Array<string | null> = [`### ${mdCode(c.id)}`, mdQuote([mdProse(c.doc)])];
  for (const row of c.rows) blocks.push(digestLines(row));
  blocks.push(
    mdTable(
      ['param', ...runners.map((r) => mdText(RUNNER_LABEL[r])), 'bars'],
      c.rows.map((row) => [paramMd(row), ...runners.map((r) => cellMd(row, r, view(row, r))), rowBars(row, runners)]),
    ),
  );
  const caveats = caveatsOf(c.rows, runners, view);
  if (caveats.length > 0) blocks.push(caveats.map(mdText).join('  \n'));
  if (c.kind === 'net') blocks.push(`*Scope: client ↔ local Bee over loopback, deferred uploads, warm local cache; not Swarm-network throughput.*`);
  if (fits) blocks.push(fitTable(fits));
  return mdBlocks(blocks).trimEnd();
}

/** A new digest disagreement stands out (⚠); a known one (spec `known`) says so and links its finding. */
function digestLines(row: Row): string | null {
  const note = digestNote(row);
  if (!note) return null;
  const values = note.values.map((d) => `- ${mdText(RUNNER_LABEL[d.runner])}${d.caseId ? ` (${mdCode(d.caseId)})` : ''}: ${mdCode(d.digest)}`);
  const k = note.known;
  if (k) {
    return mdQuote([
      `ℹ Known digest disagreement (${mdText(note.label)}): ${mdText(k.who)} differs, as [FINDINGS ${mdText(k.finding)}](${k.url}) records: ${mdText(k.doc)}.`,
      ...values,
    ]);
  }
  return mdQuote([
    `⚠ **Digest disagreement** (${mdText(note.label)}): the clients computed different outputs for the same input. Not a known finding: new.`,
    ...values,
  ]);
}

/** The param label, the work each runner did where it differs (per_runner scaling), and a low-precision row's mark. */
function paramMd(row: Row): string {
  const lines = [mdText(row.label)];
  if (row.scaled) lines.push(mdText(scaledWorkLine(row)));
  for (const m of rowMarks(row)) lines.push(mdText(m));
  return lines.join('<br>');
}

function cellMd(row: Row, runner: Runner, v: CellView): string {
  switch (v.status) {
    case 'absent':
      return '—';
    case 'skipped':
      return `*skip: ${mdText(v.reason)}*`;
    case 'failed':
      return `*failed: ${mdText(v.reason)}*`;
    case 'ok': {
      const line1 = v.best ? `**${v.lead}** (best)` : v.ratio ? `${v.lead} (${v.ratio})` : `${v.lead}`;
      const cell = row.cells[runner]!;
      return [line1, v.raw ?? '', v.spread.join(' · '), textSparkline(cell.samplesNs), v.alloc ?? '', v.precision ? mdText(v.precision) : '']
        .filter((l) => l.length > 0)
        .join('<br>');
    }
  }
}

function rowBars(row: Row, runners: readonly Runner[]): string {
  const items = barItems(row, runners);
  if (items.length === 0) return '';
  return textBars(items.map((b) => ({ label: mdText(RUNNER_LABEL[b.runner]), value: b.value, text: b.text }))).join('<br>');
}

function fitTable(fits: Table): string {
  return `**Latency vs size** (least squares over the sizes: time = fixed overhead + bytes / throughput)\n\n${mdTableOf(fits)}`;
}

function legend(model: AggregateModel): string {
  return [
    'Cells lead with the figure rows compare: MB/s for byte cases, time per op otherwise (with its ratio to the fastest runner in the row, **best** in bold), so runners that ran different work (the param column names it) compare fairly. Below: the median per iteration and the work it did; spread (±half-range around the median, ⚠ above 50%), cv, p95 (n ≥ 10), iterations, peak RSS, CPU/wall (≈1 single-thread CPU-bound, <1 waiting, >1 multi-threaded); a sparkline of the iterations in order (▁ fastest, █ slowest iteration). Bars: time per unit of work as a multiple of the fastest (1.00x), longest = slowest; logarithmic where the row spans more than 10x.',
    ...(showsAllocations(model) ? [mdText(ALLOC_LEGEND)] : []),
    `${THROUGHPUT_FOOTNOTE}`,
  ].join('\n\n');
}
