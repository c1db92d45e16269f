// The page of `bee-bench compare`, printed from the compare model (model/compare.ts).
import { mdCode, mdText } from '../escape.js';
import type { CompareModel, CompareRow } from '../model/compare.js';
import { RUNNER_LABEL } from '../model/types.js';
import { formatDuration, formatShift, formatTimeChange } from '../units.js';
import { mdBlocks, mdTable } from './md-blocks.js';

export interface CompareMarkdownOptions {
  oldLabel?: string;
  newLabel?: string;
}

export function renderCompareMarkdown(cmp: CompareModel, opts: CompareMarkdownOptions = {}): string {
  const side = (label: string, s: CompareModel['old']) =>
    `${mdText(label)}${s.startedAt ? `: runs from ${mdText(s.startedAt)}` : ''}${s.specHashes.length ? `, spec ${s.specHashes.map((h) => mdCode(h.slice(0, 12))).join(', ')}` : ''}`;
  const pct = Math.round(cmp.flag * 100);
  const byCase = new Map<string, CompareRow[]>();
  for (const r of cmp.rows) byCase.set(r.caseId, [...(byCase.get(r.caseId) ?? []), r]);

  return mdBlocks([
    '# bee-bench compare',
    `${side(opts.oldLabel ?? 'Old', cmp.old)}  \n${side(opts.newLabel ?? 'New', cmp.new)}`,
    '## Summary',
    mdTable(
      ['Runner', 'old client', 'new client', 'rows compared', 'geomean shift'],
      cmp.summary.map((s) => [
        mdText(RUNNER_LABEL[s.runner]),
        mdText(s.oldVersion ?? '—'),
        mdText(s.newVersion ?? '—'),
        String(s.rows),
        formatShift(s.geomean),
      ]),
    ),
    'Geometric mean over the rows both runs have ok of new/old time per unit of work. Δ: the new run against the old, in time per unit of work.',
    '## Per-case deltas',
    `Δ flagged ⚠ beyond ±${pct}%.`,
    ...[...byCase].map(([caseId, rows]) => {
      const runners = cmp.runners.filter((r) => rows.some((row) => row.cells[r]));
      return `### ${mdCode(caseId)}\n\n${mdTable(
        ['param', ...runners.flatMap((r) => [`${mdText(RUNNER_LABEL[r])} old`, 'new', 'Δ'])],
        rows.map((row) => [
          mdText(row.label),
          ...runners.flatMap((r) => {
            const c = row.cells[r];
            if (!c) return ['—', '—', '—'];
            const delta = c.ratio === undefined ? '—' : `${c.flagged ? '⚠ ' : ''}${formatTimeChange(c.ratio)}`;
            return [formatDuration(c.oldMedianNs), formatDuration(c.newMedianNs), delta];
          }),
        ]),
      )}`;
    }),
    cmp.onlyOld.length + cmp.onlyNew.length > 0 ? '## Rows in one run only' : null,
    cmp.onlyOld.length > 0 ? `Only in ${mdText(opts.oldLabel ?? 'old')}: ${cmp.onlyOld.map((k) => `${mdCode(k.caseId)} ${mdText(k.label)}`).join(', ')}` : null,
    cmp.onlyNew.length > 0 ? `Only in ${mdText(opts.newLabel ?? 'new')}: ${cmp.onlyNew.map((k) => `${mdCode(k.caseId)} ${mdText(k.label)}`).join(', ')}` : null,
  ]);
}
