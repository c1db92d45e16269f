// report.md: the aggregate report as GitHub-flavoured markdown. Charts are text (text-charts.ts):
// GitHub strips inline SVG from markdown. Deterministic: the only timestamps are the results' own.
import type { Runner } from '../spec/schema.js';
import { caveatsOf, cellView, scaledWorkLine } from './cell.js';
import { mdCode, mdProse, mdText } from './escape.js';
import { failureSummary, failuresOf } from './failures.js';
import { FIT_HEADERS, fitRows } from './fits.js';
import { mdBlocks, mdQuote, mdTable } from './md.js';
import { NET_SCOPE_CAVEAT, RUNNER_LABEL, runnersOf, type AggregateModel, type AllocScoreEntry, type CaseModel, type Row } from './model.js';
import { ALLOC_LEGEND, ALLOC_SCOREBOARD_NOTE, allocScoreboardTable, showsAllocations } from './memory.js';
import { environmentLine, notRunLine, notRunOf, RUNNER_HEADERS, runnerRows } from './runners.js';
import { textBars, textSparkline } from './text-charts.js';
import { THROUGHPUT_FOOTNOTE, formatRatio } from './units.js';

export interface MarkdownOptions {
  title?: string;
}

export function renderMarkdown(model: AggregateModel, opts: MarkdownOptions = {}): string {
  const runners = runnersOf(model);
  return mdBlocks([
    `# ${mdText(opts.title ?? 'bee-bench report')}`,
    header(model),
    model.hasNet ? scopeCaveat() : null,
    model.warnings.length > 0 ? mdQuote(model.warnings.map((w) => `⚠ ${mdText(w)}`)) : null,
    failureSummary(failuresOf(model)),
    '## Runners',
    runnersTable(model),
    environmentLine(model, mdText),
    '## Scoreboard',
    runners.length > 1 ? scoreboard(model) : 'One runner only: nothing to rank.',
    runners.length > 1 && model.allocScoreboard ? allocScoreboard(model, model.allocScoreboard) : null,
    notRunOf(model).length > 0
      ? notRunOf(model)
          .map((n) => `Not ranked: ${mdText(notRunLine(n))}.`)
          .join('  \n')
      : null,
    ...model.groups.flatMap((g) => [`## ${mdText(g.title)}`, mdQuote([mdProse(g.note)]), ...g.cases.map((c) => caseSection(c, runners))]),
    '---',
    legend(model),
  ]);
}

function header(model: AggregateModel): string {
  const parts = [];
  if (model.startedAt) parts.push(`Runs from ${mdText(model.startedAt)}${model.finishedAt ? ` to ${mdText(model.finishedAt)}` : ''}`);
  if (model.profiles.length > 0) parts.push(`profile ${model.profiles.map((p) => mdCode(p)).join(', ')}`);
  if (model.specHashes.length > 0) parts.push(`spec ${model.specHashes.map((h) => mdCode(h.slice(0, 12))).join(', ')}`);
  return parts.join(' · ');
}

export function scopeCaveat(): string {
  return mdQuote([`**⚠ Scope of network figures.** ${mdText(NET_SCOPE_CAVEAT)}`]);
}

function runnersTable(model: AggregateModel): string {
  return mdTable(
    RUNNER_HEADERS,
    runnerRows(model, { text: mdText, code: mdCode, status: (n) => `**${n.status}**: ${mdText(n.reason)}${n.fix ? ` (fix: ${mdText(n.fix)})` : ''}` }),
  );
}

function scoreboard(model: AggregateModel): string {
  const groups = model.groups.filter((g) => model.scoreboard.some((s) => s.byGroup[g.id] != null));
  const best = Math.min(...model.scoreboard.map((s) => s.geomean ?? Infinity));
  const table = mdTable(
    ['Runner', 'Wins', 'Rows', 'Overall', ...groups.map((g) => mdText(g.title))],
    model.scoreboard.map((s) => [
      mdText(RUNNER_LABEL[s.runner]),
      String(s.wins),
      String(s.rows),
      s.geomean !== null && s.geomean === best ? `**${formatRatio(s.geomean)}**` : formatRatio(s.geomean),
      ...groups.map((g) => formatRatio(s.byGroup[g.id])),
    ]),
    ['left', 'right', 'right', 'right', ...groups.map(() => 'right' as const)],
  );
  return `${table}\n\nGeometric mean over contested rows (two or more runners ok) of each runner's ratio to the fastest in the row, comparing time per byte or per op; 1.00x = fastest everywhere. Wins = rows where the runner was fastest; Rows = contested rows it ran. Skipped and failed cells are left out.`;
}

/** Heap bytes per unit of work, ranked like time (rows where a runner allocates nothing are counted apart). */
function allocScoreboard(model: AggregateModel, entries: readonly AllocScoreEntry[]): string {
  const t = allocScoreboardTable(model, entries, mdText, (s) => `**${s}**`);
  const table = mdTable(
    t.headers,
    t.rows,
    t.headers.map((_, i) => (i === 0 ? 'left' : 'right')),
  );
  return `### Heap bytes per unit of work\n\n${table}\n\n${mdText(ALLOC_SCOREBOARD_NOTE)}`;
}

function caseSection(c: CaseModel, runners: readonly Runner[]): string {
  const blocks: Array<string | null> = [`### ${mdCode(c.id)}`, mdQuote([mdProse(c.doc)])];
  for (const row of c.rows) blocks.push(digestNote(row));
  blocks.push(
    mdTable(
      ['param', ...runners.map((r) => mdText(RUNNER_LABEL[r])), 'bars'],
      c.rows.map((row) => [paramMd(row), ...runners.map((r) => cellMd(row, r)), rowBars(row, runners)]),
    ),
  );
  const caveats = caveatsOf(c.rows, runners);
  if (caveats.length > 0) blocks.push(caveats.map(mdText).join('  \n'));
  if (c.kind === 'net') blocks.push(`*Scope: client ↔ local Bee over loopback, deferred uploads, warm local cache; not Swarm-network throughput.*`);
  if (c.fits.length > 0) blocks.push(fitTable(c));
  return mdBlocks(blocks).trimEnd();
}

/** A new digest disagreement stands out (⚠); a known one (spec `known`) says so and links its finding. */
function digestNote(row: Row): string | null {
  if (!row.digestMismatch) return null;
  const values = row.digestMismatch.map((d) => `- ${mdText(RUNNER_LABEL[d.runner])}${d.caseId ? ` (${mdCode(d.caseId)})` : ''}: ${mdCode(d.digest)}`);
  const k = row.digestKnown;
  if (k) {
    const who = k.runners.map((r) => RUNNER_LABEL[r]).join(', ');
    return mdQuote([
      `ℹ Known digest disagreement (${mdText(row.label)}): ${mdText(who)} differs, as [FINDINGS ${mdText(k.finding)}](${k.url}) records: ${mdText(k.doc)}.`,
      ...values,
    ]);
  }
  return mdQuote([
    `⚠ **Digest disagreement** (${mdText(row.label)}): the clients computed different outputs for the same input. Not a known finding: new.`,
    ...values,
  ]);
}

/** The param label, and the work each runner did where it differs (per_runner scaling). */
function paramMd(row: Row): string {
  return row.scaled ? `${mdText(row.label)}<br>${mdText(scaledWorkLine(row))}` : mdText(row.label);
}

function cellMd(row: Row, runner: Runner): string {
  const v = cellView(row, row.cells[runner]);
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
      return [line1, v.raw ?? '', v.spread.join(' · '), textSparkline(cell.samplesNs), v.alloc ?? ''].filter((l) => l.length > 0).join('<br>');
    }
  }
}

function rowBars(row: Row, runners: readonly Runner[]): string {
  if (!row.contested) return '';
  const items = runners.map((r) => ({
    label: mdText(RUNNER_LABEL[r]),
    value: row.cells[r]?.ratio ?? null,
    text: row.cells[r]?.ratio !== undefined ? formatRatio(row.cells[r]!.ratio) : undefined,
  }));
  return textBars(items).join('<br>');
}

function fitTable(c: CaseModel): string {
  const table = mdTable(FIT_HEADERS, fitRows(c.fits, mdText), ['left', 'right', 'right', 'right', 'right']);
  return `**Latency vs size** (least squares over the sizes: time = fixed overhead + bytes / throughput)\n\n${table}`;
}

function legend(model: AggregateModel): string {
  return [
    'Cells lead with the figure rows compare: MB/s for byte cases, time per op otherwise (with its ratio to the fastest runner in the row, **best** in bold), so runners that ran different work (the param column names it) compare fairly. Below: the median per iteration and the work it did; spread (±half-range around the median, ⚠ above 50%), cv, p95 (n ≥ 10), iterations, peak RSS, CPU/wall (≈1 single-thread CPU-bound, <1 waiting, >1 multi-threaded); a sparkline of the iterations in order (▁ fastest, █ slowest iteration). Bars: time per unit of work as a multiple of the fastest (1.00x), longest = slowest; logarithmic where the row spans more than 10x.',
    ...(showsAllocations(model) ? [mdText(ALLOC_LEGEND)] : []),
    `${THROUGHPUT_FOOTNOTE}`,
  ].join('\n\n');
}
