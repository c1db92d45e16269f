// Marks on a count chart (src/history/count-steps.ts decides them; here they are drawn and written).
// A step in the counts is a star at the commit where it landed, labelled with the change; a
// toolchain change a cross, a host change an x, each named as such so that a new compiler or
// runtime is never read as a change of the client.
import type { Plugin } from 'chart.js';
import type { SeriesPoint } from '../../src/history/schema.js';
import { formatCountChange } from './counts.js';

export type MarkKind = 'step' | 'toolchain' | 'host';

export interface CountMark {
  kind: MarkKind;
  /** The chart's label next to the point: the change in percent. */
  label: string;
  /** The mark in words, for the tooltip and the data table. */
  text: string;
}

export const MARK_STYLE: Record<MarkKind, 'star' | 'cross' | 'crossRot'> = { step: 'star', toolchain: 'cross', host: 'crossRot' };
export const MARK_SYMBOL: Record<MarkKind, string> = { step: '✱', toolchain: '✚', host: '✖' };

const short = (sha: string) => sha.slice(0, 7);

export function countMark(p: SeriesPoint): CountMark | null {
  const s = p.count_step;
  if (!s) return null;
  const change = formatCountChange(s.change);
  const range = `commits ${short(s.since)}…${short(p.sha)}`;
  const spread = `A/A spread ${formatCountChange(s.spread).replace('+', '')}${s.spread_from === 'default' ? ' (default)' : ''}`;
  if (s.cause) {
    const what = s.cause.kind === 'toolchain' ? 'Toolchain changed' : 'Host changed';
    return {
      kind: s.cause.kind,
      label: `${s.cause.kind} ${change}`,
      text: `${MARK_SYMBOL[s.cause.kind]} ${what}: ${s.cause.from} → ${s.cause.to}; counts ${change} (${range})`,
    };
  }
  return { kind: 'step', label: change, text: `${MARK_SYMBOL.step} Count step ${change} in ${range} (${spread})` };
}

/**
 * Draws each marked point's label above it, on datasets flagged `$countMarks` (the count figure's);
 * below it when another marked point sits just above (two runners stepping at one commit).
 */
export const stepLabels: Plugin<'line'> = {
  id: 'beeBenchStepLabels',
  afterDatasetsDraw(chart) {
    const marks: Array<{ x: number; y: number; label: string; color: string }> = [];
    chart.data.datasets.forEach((ds, i) => {
      if (!(ds as { $countMarks?: boolean }).$countMarks || !chart.isDatasetVisible(i)) return;
      const data = ds.data as unknown as Array<{ pt: SeriesPoint }>;
      chart.getDatasetMeta(i).data.forEach((el, k) => {
        const pt = data[k]?.pt;
        const mark = pt ? countMark(pt) : null;
        if (mark) marks.push({ x: el.x, y: el.y, label: mark.label, color: (ds.borderColor as string) ?? '#666' });
      });
    });
    const { ctx } = chart;
    ctx.save();
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'center';
    for (const m of marks) {
      const crowded = marks.some((o) => o !== m && Math.abs(o.x - m.x) < 30 && o.y < m.y && m.y - o.y < 30);
      ctx.fillStyle = m.color;
      ctx.textBaseline = crowded ? 'top' : 'bottom';
      ctx.fillText(m.label, m.x, crowded ? m.y + 10 : m.y - 10);
    }
    ctx.restore();
  },
};
