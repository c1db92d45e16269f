// The trend site's shell: loads index.json, owns the header (branch selector) and the URL, and
// renders the overview or a case view into <main>. Views meet the data only through data.ts.
import type { HistoryIndex } from '../../src/history/schema.js';
import { formatCount } from '../../src/report/units.js';
import { renderCase } from './caseview.js';
import { Chart } from './charts.js';
import type { ViewContext, ViewHandle } from './context.js';
import { loadIndex } from './data.js';
import { clear, el } from './dom.js';
import { renderOverview } from './overview.js';
import { formatHash, parseHash, type ViewState } from './permalink.js';

declare global {
  interface Window {
    /** For tests and the curious: the Chart.js instance drawn on a canvas. */
    beeBench?: { getChart(canvas: HTMLCanvasElement): Chart | undefined };
  }
}
window.beeBench = { getChart: (canvas) => Chart.getChart(canvas) };

const main = document.getElementById('main')!;
const branchSelect = document.getElementById('branch') as HTMLSelectElement;
const summary = document.getElementById('summary')!;
const live = document.getElementById('live')!;
// The hash holds the view, so the skip link is a button that moves focus rather than a #main link.
document.getElementById('skip')?.addEventListener('click', () => main.focus());

/** performance.mark set each time a view has finished rendering (bench/site.bench.ts reads it). */
const VIEW_READY_MARK = 'bee-bench:view-ready';

let index: HistoryIndex | null = null;
let current: ViewHandle | null = null;
let renders = 0;

function setState(s: 'loading' | 'ready' | 'error'): void {
  document.body.dataset.state = s;
  main.setAttribute('aria-busy', s === 'loading' ? 'true' : 'false');
}

function announce(message: string): void {
  live.textContent = '';
  window.setTimeout(() => (live.textContent = message), 50);
}

/** The index's default branch; older indexes (without one): main, master, else the first. */
export function defaultBranch(index: Pick<HistoryIndex, 'branches'> & { default_branch?: string }): string {
  const { branches } = index;
  if (index.default_branch && branches.includes(index.default_branch)) return index.default_branch;
  for (const b of ['main', 'master']) if (branches.includes(b)) return b;
  return branches[0] ?? '';
}

function navigate(next: ViewState, opts: { replace?: boolean } = {}): void {
  const hash = formatHash(next);
  if (opts.replace) history.replaceState(null, '', hash === '#' ? location.pathname + location.search : hash);
  else if (hash !== location.hash) location.hash = hash;
  else route();
}

function route(): void {
  if (!index) return;
  const s = parseHash(location.hash);
  if (!s.branch || !index.branches.includes(s.branch)) s.branch = defaultBranch(index);
  branchSelect.value = s.branch;
  current?.destroy();
  current = null;
  clear(main);
  setState('loading');
  const ctx: ViewContext = { index, state: s, navigate, announce };
  const mine = ++renders;
  const handle = s.view === 'case' ? renderCase(main, ctx) : renderOverview(main, ctx);
  current = handle;
  const ready = 'ready' in handle ? (handle as { ready: Promise<void> }).ready : Promise.resolve();
  void ready.then(() => {
    if (mine !== renders) return;
    document.body.dataset.view = s.view;
    document.body.dataset.render = String(mine);
    performance.mark(VIEW_READY_MARK, { detail: { view: s.view, render: mine } });
    setState(main.querySelector('.error') ? 'error' : 'ready');
    if (mine > 1) document.getElementById('view-heading')?.focus({ preventScroll: false });
  });
}

async function start(): Promise<void> {
  setState('loading');
  try {
    index = await loadIndex();
  } catch (e) {
    clear(main);
    main.append(el('h2', { text: 'The history could not be loaded' }), el('p', { class: 'error', text: (e as Error).message, attrs: { role: 'alert' } }));
    setState('error');
    return;
  }
  for (const b of index.branches) {
    const o = document.createElement('option');
    o.value = b;
    o.textContent = b;
    branchSelect.append(o);
  }
  branchSelect.disabled = index.branches.length < 2;
  branchSelect.addEventListener('change', () => {
    const s = parseHash(location.hash);
    s.branch = branchSelect.value;
    delete s.from;
    delete s.to;
    navigate(s);
  });
  const expired = index.expired_branches ?? 0;
  summary.textContent = `${formatCount(index.cases.length)} cases · ${formatCount(index.generated_from)} run records · ${formatCount(index.branches.length)} branch${index.branches.length === 1 ? '' : 'es'}${expired > 0 ? ` (${formatCount(expired)} inactive not shown)` : ''}`;
  window.addEventListener('hashchange', route);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', route);
  route();
}

void start();
