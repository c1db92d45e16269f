// The case charts' tooltip: a DOM element built with text nodes only (so a commit message is
// always text), shown on hover and pinned on click so its commit link can be followed.
import type { SeriesPoint } from '../../src/history/schema.js';
import { RUNNER_LABEL } from '../../src/report/model/types.js';
import { formatDuration, formatP, formatShift } from '../../src/report/units.js';
import type { Runner } from '../../src/spec/schema.js';
import { formatUtc } from './date-adapter.js';
import { clear, el, externalLink, firstLine } from './dom.js';
import { formatValue, isCount, type Figure } from './metric.js';
import { countMark } from './steps.js';

/** One point on a case chart. */
export interface Datum {
  x: number;
  y: number;
  pt: SeriesPoint;
  /** The client version of the point before, when it differs (the version changed here). */
  versionFrom?: string;
}

export function pointDetails(runner: Runner, basis: Figure, d: Datum, color: string, opLabel = 'op'): HTMLElement[] {
  const p = d.pt;
  const swatch = el('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } });
  swatch.style.background = color;
  const out: HTMLElement[] = [
    el('div', { class: 'tt-head' }, swatch, p.imported ?? `${RUNNER_LABEL[runner]} ${p.client_version}`),
    el('div', { class: 'tt-value', text: formatValue(basis, d.y, opLabel) }),
    el('div', { class: 'tt-msg', text: firstLine(p.message) || '(no commit message)' }),
    el('div', { class: 'tt-meta', text: `${p.author} · ${formatUtc(d.x, 'datetime')}` }),
    el('div', { class: 'tt-meta' }, externalLink(p.url, p.sha.slice(0, 7), { class: 'sha' }), ` · branch ${p.branch} · run ${p.run_id}`),
    ...(p.client_commit && !p.client_commit.startsWith(p.sha) && !p.sha.startsWith(p.client_commit)
      ? [el('div', { class: 'tt-meta', text: `${RUNNER_LABEL[runner]} commit ${p.client_commit.slice(0, 7)}` })]
      : []),
    ...(p.run_at ? [el('div', { class: 'tt-meta', text: `run started ${formatUtc(Date.parse(p.run_at), 'datetime')}` })] : []),
    el('div', { class: 'tt-meta', text: `median of ${p.n} · range ${formatDuration(p.min_ns)} – ${formatDuration(p.max_ns)} per iteration` }),
  ];
  if (isCount(basis)) {
    if (p.toolchain) out.push(el('div', { class: 'tt-meta', text: `counted with ${p.toolchain}` }));
    const mark = countMark(p);
    if (mark) out.push(el('div', { class: 'tt-shift', text: mark.text }));
  } else if (p.shift) out.push(el('div', { class: 'tt-shift', text: `✱ Shift: ${formatShift(p.shift.ratio)} (p ${formatP(p.shift.p)})` }));
  if (d.versionFrom !== undefined) out.push(el('div', { class: 'tt-version', text: `◆ Client version changed: ${d.versionFrom} → ${p.client_version}` }));
  return out;
}

export class PointTooltip {
  readonly node: HTMLElement;
  private readonly body: HTMLElement;
  private pinnedFlag = false;

  constructor(private readonly box: HTMLElement) {
    this.body = el('div', { class: 'tt-body' });
    const close = el('button', { class: 'tt-close', text: '×', attrs: { type: 'button', 'aria-label': 'Close details' } });
    close.addEventListener('click', () => this.hide(true));
    this.node = el('div', { class: 'tooltip', attrs: { role: 'dialog', 'aria-label': 'Point details', hidden: '' } }, close, this.body);
    box.append(this.node);
  }

  get pinned(): boolean {
    return this.pinnedFlag;
  }

  show(content: HTMLElement[], x: number, y: number, pin: boolean): void {
    if (this.pinnedFlag && !pin) return;
    this.pinnedFlag = pin;
    this.node.classList.toggle('pinned', pin);
    clear(this.body);
    this.body.append(...content);
    this.node.hidden = false;
    const w = this.node.offsetWidth;
    const h = this.node.offsetHeight;
    const bw = this.box.clientWidth;
    const bh = this.box.clientHeight;
    let left = x + 14;
    if (left + w > bw) left = Math.max(0, x - w - 14);
    const top = Math.min(Math.max(0, y - h / 2), Math.max(0, bh - h));
    this.node.style.left = `${left}px`;
    this.node.style.top = `${top}px`;
  }

  hide(unpin = false): void {
    if (this.pinnedFlag && !unpin) return;
    this.pinnedFlag = false;
    this.node.classList.remove('pinned');
    this.node.hidden = true;
  }
}
