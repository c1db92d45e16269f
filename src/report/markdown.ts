// report.md: the aggregate report as GitHub-flavoured markdown with inline SVG. Deterministic: the
// only timestamps are the results' own.
import type { Runner } from '../spec/schema.js';
import { cellView, scaledParams } from './cell.js';
import { mdCode, mdProse, mdText } from './escape.js';
import { mdBlocks, mdQuote, mdTable } from './md.js';
import { NET_SCOPE_CAVEAT, RUNNER_LABEL, runnersOf, type AggregateModel, type CaseModel, type Row } from './model.js';
import { RUNNER_COLORS, bars, sparkline } from './svg.js';
import { THROUGHPUT_FOOTNOTE, formatBytes, formatDuration, formatRatio, formatThroughput } from './units.js';

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
    '## Runners',
    runnersTable(model),
    '## Scoreboard',
    runners.length > 1 ? scoreboard(model) : 'One runner only: nothing to rank.',
    ...model.groups.flatMap((g) => [
      `## ${mdText(g.title)}`,
      mdQuote([mdProse(g.note)]),
      ...g.cases.map((c) => caseSection(c, runners)),
    ]),
    '---',
    legend(),
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
    ['Runner', 'Client', 'Version', 'Source', 'Runtime', 'Host', 'Bee', 'Started'],
    model.runners.map((r) => [
      mdText(r.label),
      mdCode(r.client.name),
      `${mdText(r.client.version)}${r.client.commit ? ` (${mdCode(r.client.commit.slice(0, 12))})` : ''}`,
      mdText(r.client.source),
      mdText(r.host.runtime),
      mdText(`${r.host.os}/${r.host.arch}, ${r.host.cpu_model}, ${r.host.cpus} CPUs, ${formatBytes(r.host.mem_mb * 2 ** 20)}`),
      r.bee ? mdText(r.bee.version) : 'none',
      mdText(r.startedAt),
    ]),
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

function caseSection(c: CaseModel, runners: readonly Runner[]): string {
  const blocks: Array<string | null> = [`### ${mdCode(c.id)}`, mdQuote([mdProse(c.doc)])];
  for (const row of c.rows) {
    if (row.digestMismatch) {
      blocks.push(
        mdQuote([
          `⚠ **Digest disagreement** (${mdText(row.label)}): the clients computed different outputs for the same input.`,
          ...row.digestMismatch.map((d) => `- ${mdText(RUNNER_LABEL[d.runner])}${d.caseId ? ` (${mdCode(d.caseId)})` : ''}: ${mdCode(d.digest)}`),
        ]),
      );
    }
  }
  blocks.push(
    mdTable(
      ['param', ...runners.map((r) => mdText(RUNNER_LABEL[r])), 'bars'],
      c.rows.map((row) => [mdText(row.label), ...runners.map((r) => cellMd(row, r)), rowBars(row, runners)]),
    ),
  );
  const notes = c.rows.flatMap((row) => {
    const scaled = row.scaled ? scaledParams(row) : [];
    if (scaled.length === 0) return [];
    const what = row.basis === 'bytes' ? 'time per byte' : row.basis === 'ops' ? `time per ${row.opLabel}` : 'time per iteration';
    return [`${mdText(row.label)}: runners ran scaled work (${scaled.map((s) => `${mdText(RUNNER_LABEL[s.runner])} ${mdText(s.values)}`).join('; ')}); ratios and bars compare ${what}.`];
  });
  if (notes.length > 0) blocks.push(notes.join('  \n'));
  if (c.kind === 'net') blocks.push(`*Scope: client ↔ local Bee over loopback, deferred uploads, warm local cache; not Swarm-network throughput.*`);
  if (c.fits.length > 0) blocks.push(fitTable(c));
  return mdBlocks(blocks).trimEnd();
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
      const line1 = v.best ? `**${v.median}** (best)` : v.ratio ? `${v.median} (${v.ratio})` : `${v.median}`;
      const cell = row.cells[runner]!;
      return [line1, v.rates.join(' · '), v.spread.join(' · '), sparkline(cell.samplesNs, RUNNER_COLORS[runner])]
        .filter((l) => l.length > 0)
        .join('<br>');
    }
  }
}

function rowBars(row: Row, runners: readonly Runner[]): string {
  if (!row.contested) return '';
  return bars(runners.map((r) => ({ runner: r, value: row.cells[r]?.status === 'ok' ? (row.cells[r]?.unitCostNs ?? null) : null })));
}

function fitTable(c: CaseModel): string {
  const table = mdTable(
    ['Runner', 'fixed overhead', 'peak throughput', 'r²', 'points'],
    c.fits.map((f) => [mdText(RUNNER_LABEL[f.runner]), formatDuration(f.overheadNs), formatThroughput(f.bytesPerNs), Number.isFinite(f.r2) ? f.r2.toFixed(3) : '—', String(f.points)]),
    ['left', 'right', 'right', 'right', 'right'],
  );
  return `**Latency vs size** (least squares over the sizes: time = fixed overhead + bytes / throughput)\n\n${table}`;
}

function legend(): string {
  return [
    'Cells: median (ratio to the fastest runner in the row, **best** in bold); throughput · time per op; spread (±half-range around the median, ⚠ above 50%), cv, p95 (n ≥ 10), iterations, peak RSS, CPU/wall (≈1 single-thread CPU-bound, <1 waiting on I/O, >1 multi-threaded); a sparkline of the iterations in order. Bars: time per byte or per op, shortest green.',
    `${THROUGHPUT_FOOTNOTE}`,
  ].join('\n\n');
}
