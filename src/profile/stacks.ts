// Call stacks for flame graphs and pprof, expanded from callgrind's caller -> callee edges (a
// callgrind dump has no stacks): from each root, a callee's cost under a caller is the edge's
// inclusive instructions, and below it the callee's own calls in proportion. Exact for the first
// call level, proportional deeper; every function's own instructions add up to its self cost
// except where a path is cut (below SMALLEST_SHARE of the row, deeper than DEEPEST, a recursion,
// past MOST_STACKS),
// where the rest of the path stays with the frame it reached.
import type { RowProfile } from './row-profile.js';

const SMALLEST_SHARE = 1e-4;
const DEEPEST = 96;
/** A bound on the stacks of one profile, whatever its call graph: past it, paths stay where they are. */
const MOST_STACKS = 50_000;

/** Instructions per iteration by stack (root first); paths under `smallestShare` of the row stay with their frame. */
export function expandStacks(p: RowProfile, smallestShare = SMALLEST_SHARE): Array<{ stack: string[]; ir: number }> {
  const out: Array<{ stack: string[]; ir: number }> = [];
  const smallest = p.total * smallestShare;
  const incoming = new Map<string, number>();
  for (const edges of p.edges.values()) for (const [callee, e] of edges) incoming.set(callee, (incoming.get(callee) ?? 0) + e.ir);
  const incl = (fn: string) => p.functions.get(fn)?.inclusive ?? 0;
  const walk = (stack: string[], ir: number) => {
    const fn = stack[stack.length - 1]!;
    const whole = incl(fn);
    if (whole <= 0) return;
    const share = Math.min(1, ir / whole);
    const deeper = p.edges.get(fn);
    if (ir < smallest || stack.length >= DEEPEST || !deeper) {
      out.push({ stack, ir });
      return;
    }
    let own = (p.functions.get(fn)?.self ?? 0) * share;
    for (const [callee, e] of deeper) {
      // A path too small to show stays with this frame: walked on, every tiny call of a V8
      // builtin became a stack of its own (bee-js: 250 MB of folded stacks for one row).
      const under = e.ir * share;
      if (stack.includes(callee) || under < smallest || out.length >= MOST_STACKS) own += under;
      else walk([...stack, callee], under);
    }
    if (own > 0) out.push({ stack, ir: own });
  };
  // A root: a function whose inclusive cost its callers' edges do not account for (the region's
  // outermost frames, active before counting began).
  for (const f of p.functions.values()) {
    const unexplained = f.inclusive - (incoming.get(f.name) ?? 0);
    if (unexplained > Math.max(smallest, 0.5)) walk([f.name], unexplained);
  }
  return out;
}

/** Brendan Gregg's folded format (`root;caller;callee count`), counts rounded per iteration. */
export function foldedText(stacks: ReadonlyArray<{ stack: string[]; ir: number }>, name: (fn: string) => string = (f) => f): string {
  const merged = new Map<string, number>();
  for (const s of stacks) {
    const key = s.stack.map((f) => name(f).replace(/[;\r\n]/g, ':')).join(';');
    merged.set(key, (merged.get(key) ?? 0) + s.ir);
  }
  return [...merged]
    .map(([k, v]) => [k, Math.round(v)] as const)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k} ${v}\n`)
    .join('');
}

/** The most folded text a side's stacks make (BOUNDED_STACKS): a row's files stay a small part of the 16 MiB a run's profiles may hold. */
export const FOLDED_BYTES = 1 << 20;
/** The coarsest cut tried: paths under 1% of the row stay with their frame, at most about 100 paths of at most DEEPEST frames. */
const COARSEST_SHARE = 0.01;

/**
 * The stacks of `p` whose folded text fits FOLDED_BYTES: the smallest path shown grows fourfold from
 * SMALLEST_SHARE until it fits. bee-js's deep stacks of V8 builtins and JavaScript made 27-52 MB of
 * folded text a side for one `keccak.parallel` row at 0.01% (docs/profiles.md). The size is reckoned
 * from the names' lengths, without writing the text of a cut that is then refused.
 */
export function boundedStacks(p: RowProfile, name: (fn: string) => string): Array<{ stack: string[]; ir: number }> {
  const lengths = new Map<string, number>();
  const length = (fn: string) => lengths.get(fn) ?? lengths.set(fn, Buffer.byteLength(name(fn))).get(fn)!;
  for (let share = SMALLEST_SHARE; ; share *= 4) {
    const stacks = expandStacks(p, share);
    // Each line: the names, a separator each, and a count of up to 12 digits.
    const bytes = stacks.reduce((sum, s) => sum + s.stack.reduce((n, fn) => n + length(fn) + 1, 0) + 12, 0);
    if (bytes <= FOLDED_BYTES || share >= COARSEST_SHARE) return stacks;
  }
}

/** One frame of the differential view: a function under its callers, with both sides' instructions. */
export interface FlameFrame {
  name: string;
  base: number;
  head: number;
  children: FlameFrame[];
}

/** Stacks of both sides (root first) merged into one tree under a synthetic root. */
export function mergeStacks(
  base: ReadonlyArray<{ stack: string[]; ir: number }>,
  head: ReadonlyArray<{ stack: string[]; ir: number }>,
  name: (fn: string) => string,
): FlameFrame {
  const root: FlameFrame = { name: 'all', base: 0, head: 0, children: [] };
  const index = new Map<FlameFrame, Map<string, FlameFrame>>();
  const add = (stack: string[], ir: number, side: 'base' | 'head') => {
    let node = root;
    node[side] += ir;
    for (const fn of stack) {
      const n = name(fn);
      const kids = index.get(node) ?? new Map<string, FlameFrame>();
      index.set(node, kids);
      let child = kids.get(n);
      if (!child) {
        child = { name: n, base: 0, head: 0, children: [] };
        kids.set(n, child);
        node.children.push(child);
      }
      child[side] += ir;
      node = child;
    }
  };
  for (const s of base) add(s.stack, s.ir, 'base');
  for (const s of head) add(s.stack, s.ir, 'head');
  return root;
}
