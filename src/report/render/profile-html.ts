// The differential view of one row's profiles: a self-contained page (no script, no request leaves
// it) with an icicle graph of head against base, each frame as wide as the larger side's
// instructions and coloured by its change (red = more instructions in head, blue = fewer), and
// the row's three lists in full. Every name is HTML-escaped; a CSP forbids scripts outright.
import type { FlameFrame } from '../../profile/stacks.js';
import type { ProfileDiff } from '../../profile/schema.js';
import { htmlText } from '../escape.js';
import { htmlPage } from './html-page.js';
import { estimatedShare } from './profile-details.js';
import { formatChange, formatCount, formatPercent } from '../units.js';

const WIDTH = 1200;
const ROW = 18;
/** Frames narrower than this many pixels are left out (their cost stays in their parent's width). */
const NARROWEST = 0.5;

/** Red for more, blue for fewer, grey for unchanged; stronger with the change relative to the frame. */
function colour(f: FlameFrame): string {
  const larger = Math.max(f.base, f.head);
  const d = larger > 0 ? (f.head - f.base) / larger : 0;
  const t = Math.min(1, Math.abs(d) * 5);
  if (Math.abs(d) < 1e-4) return 'rgb(208,212,218)';
  const mix = (a: number, b: number) => Math.round(a + (b - a) * t);
  return d > 0 ? `rgb(${mix(240, 207)},${mix(200, 34)},${mix(196, 46)})` : `rgb(${mix(200, 9)},${mix(214, 105)},${mix(240, 218)})`;
}

function frameTitle(f: FlameFrame): string {
  const change = f.base > 0 ? formatChange(f.head / f.base) : f.head > 0 ? 'new' : 'gone';
  return `${f.name}\nbase ${formatCount(f.base)} · head ${formatCount(f.head)} instructions/iteration (${change})`;
}

function icicle(root: FlameFrame): { svg: string; height: number } {
  const scale = WIDTH / Math.max(1, root.base, root.head);
  const rects: string[] = [];
  let depth = 0;
  const draw = (f: FlameFrame, x: number, level: number) => {
    const w = Math.max(f.base, f.head) * scale;
    if (w < NARROWEST) return;
    depth = Math.max(depth, level + 1);
    const y = level * ROW;
    const label = w > 40 ? `<text x="${(x + 3).toFixed(1)}" y="${y + 13}">${htmlText(clipText(f.name, Math.floor((w - 6) / 7)))}</text>` : '';
    rects.push(
      `<g><title>${htmlText(frameTitle(f))}</title><rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${ROW - 1}" fill="${colour(f)}"/>${label}</g>`,
    );
    let cx = x;
    for (const c of [...f.children].sort((a, b) => a.name.localeCompare(b.name))) {
      draw(c, cx, level + 1);
      cx += Math.max(c.base, c.head) * scale;
    }
  };
  draw(root, 0, 0);
  const height = depth * ROW;
  return {
    svg: `<svg class="flame" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="differential icicle graph">${rects.join('')}</svg>`,
    height,
  };
}

const clipText = (s: string, n: number) => (s.length <= n ? s : n <= 1 ? '' : `${s.slice(0, n - 1)}…`);
const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${formatCount(Math.abs(n))}`;
const cls = (n: number) => (Math.round(n) > 0 ? 'more' : Math.round(n) < 0 ? 'less' : '');

function table(headers: string[], rows: string[][]): string {
  return `<table><thead><tr>${headers.map((h) => `<th>${htmlText(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody></table>`;
}
const td = (text: string, c = '') => `<td${c ? ` class="${c}"` : ''}>${htmlText(text)}</td>`;
const fnCell = (name: string, status?: string) => `<td><code>${htmlText(name)}</code>${status ? ` <span class="tag">${htmlText(status)}</span>` : ''}</td>`;

export function renderProfileHtml(d: ProfileDiff, root: FlameFrame, sides: { base: string; head: string }): string {
  const whole = d.total.head - d.total.base;
  const { svg } = icicle(root);
  const selfRows = d.self.map((l) => [
    fnCell(l.name, l.status),
    td(formatCount(l.base), 'n'),
    td(formatCount(l.head), 'n'),
    td(signed(l.head - l.base), `n ${cls(l.head - l.base)}`),
    td(whole !== 0 ? formatPercent((l.head - l.base) / whole) : '—', 'n'),
  ]);
  const ownRows = d.own.map((l) => [
    fnCell(l.name, l.status),
    td(signed(l.head - l.base), `n ${cls(l.head - l.base)}`),
    td(d.total.base > 0 ? formatChange(1 + (l.head - l.base) / d.total.base) : '—', 'n'),
    td(estimatedShare(l), 'n'),
    td(l.via.join(', ') || '—'),
  ]);
  const allocRows = (d.allocations ?? []).map((l) => [
    fnCell(l.name),
    td(formatCount(l.base), 'n'),
    td(formatCount(l.head), 'n'),
    td(signed(l.head - l.base), `n ${cls(l.head - l.base)}`),
  ]);
  const title = `${d.caseId} ${d.label}: where it moved`;
  return htmlPage({
    title,
    csp: "default-src 'none'; style-src 'unsafe-inline'",
    css: CSS,
    body: `<main>
<h1>${htmlText(title)}</h1>
<p class="muted">base ${htmlText(sides.base)} → head ${htmlText(sides.head)} · ${formatCount(d.total.base)} → ${formatCount(d.total.head)} instructions per iteration (${d.total.base > 0 ? formatChange(d.total.head / d.total.base) : '—'}) · ${d.iterations.base} and ${d.iterations.head} iterations</p>
<p class="muted">Instructions under callgrind, not time: a row flagged by wall time alone (cache, I/O, contention) has no function list. Frames are as wide as the larger side; <span class="more">red = more instructions in head</span>, <span class="less">blue = fewer</span>. Stacks below the first call are in proportion to callgrind's caller → callee edges.</p>
<section><h2>Call tree, head against base</h2><div class="scroll">${svg}</div></section>
<section><h2>Functions by change in their own instructions</h2>${table(['function', 'base', 'head', 'change', 'share of the row’s change'], selfRows)}</section>
<section><h2>The client's functions (callees outside the client folded in)</h2>${table(['function', 'change', 'of the row', 'by proportion', 'via'], ownRows)}</section>
<section><h2>Allocation sites (calls into the allocator per iteration)</h2>${d.allocations === null ? '<p class="muted">V8 allocates inline in JIT-compiled code: callgrind sees no allocator calls to attribute.</p>' : table(['site', 'base', 'head', 'change'], allocRows)}</section>
</main>`,
  });
}

// The trend site's palette and type (pages/src/app.css), light and dark.
const CSS = `
:root { --bg:#fff; --bg-card:#f6f8fa; --fg:#1f2328; --muted:#59636e; --border:#d1d9e0; --more:#cf222e; --less:#0969da; color-scheme: light dark;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; font-size: 15px; line-height: 1.45; }
@media (prefers-color-scheme: dark) { :root { --bg:#0d1117; --bg-card:#151b23; --fg:#e6edf3; --muted:#9198a1; --border:#3d444d; --more:#ff7b72; --less:#4493f8; } }
html, body { margin: 0; background: var(--bg); color: var(--fg); }
main { max-width: 1240px; margin: 0 auto; padding: 1.1rem 1.25rem; }
h1 { font-size: 1.35rem; overflow-wrap: anywhere; } h2 { font-size: 1.05rem; margin: 1.4rem 0 0.5rem; }
.muted { color: var(--muted); } .more { color: var(--more); } .less { color: var(--less); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; border: 1px solid var(--border); background: var(--bg-card); }
svg.flame text { font: 11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; fill: #1f2328; pointer-events: none; }
table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid var(--border); padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.tag { font-size: 0.8em; border: 1px solid var(--border); border-radius: 3px; padding: 0 0.3em; color: var(--muted); }
`;
