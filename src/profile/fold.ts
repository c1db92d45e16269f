// Costs seen from the client's own functions: each of its functions with the callees outside the
// client folded in (runtime, standard library, allocator, crypto dependencies), and the calls
// into the allocator by the function that asked for them. Both walk callgrind's caller -> callee
// edges; where a callee has several callers, a caller gets the share of the callee's cost (or
// allocator calls) its own calls carried: exact for the edges themselves, proportional below.
import type { Runner } from '../spec/schema.js';
import { allocatorsOf, isClientOwn } from './names.js';
import type { RowProfile } from './row-profile.js';

/** Below this many instructions per iteration a walk stops and counts the rest as the node's own. */
const SMALLEST = 0.5;
/** Deeper than this the walk stops the same way (call graphs of runtimes are shallow; a guard). */
const DEEPEST = 64;

export interface FoldedCost {
  /** The function's own instructions and those of the callees outside the client under it. */
  cost: number;
  /** Those callees' shares, by callee. */
  via: Map<string, number>;
}

/** The client's own functions, each with the callees outside the client folded in. */
export function foldIntoClient(p: RowProfile): Map<string, FoldedCost> {
  const own = (fn: string) => isClientOwn(p.runner, fn, p.functions.get(fn)?.file ?? '');
  const out = new Map<string, FoldedCost>();
  for (const f of p.functions.values()) {
    if (!own(f.name)) continue;
    const via = new Map<string, number>();
    let cost = f.self;
    const walk = (fn: string, ir: number, depth: number, path: Set<string>) => {
      const g = p.functions.get(fn);
      const whole = g?.inclusive ?? 0;
      if (!g || whole <= 0) return;
      const share = Math.min(1, ir / whole);
      const deeper = p.edges.get(fn);
      // Too small, too deep or a cycle: the rest of the subtree counts as this callee's own.
      const stop = ir < SMALLEST || depth >= DEEPEST || !deeper;
      const mine = stop ? ir : g.self * share;
      cost += mine;
      via.set(fn, (via.get(fn) ?? 0) + mine);
      if (stop) return;
      const next = new Set(path).add(fn);
      for (const [callee, e] of deeper) {
        if (own(callee) || next.has(callee)) continue;
        walk(callee, e.ir * share, depth + 1, next);
      }
    };
    for (const [callee, e] of p.edges.get(f.name) ?? []) if (!own(callee) && callee !== f.name) walk(callee, e.ir, 1, new Set([f.name]));
    out.set(f.name, { cost, via });
  }
  return out;
}

/**
 * Functions the allocator's callers reach it through: the runtime and standard library (Go's
 * `runtime.newobject` -> `mallocgc`; Rust's `alloc::raw_vec` -> `__rust_alloc`), and the
 * allocator's own entry points calling each other.
 */
const PASS_THROUGH: Record<Runner, RegExp> = {
  go: /^runtime\./,
  rs: /^<?(?:alloc|core|std|hashbrown)::|^__rustc::|^__rust_|^__rdl_|^(?:malloc|calloc|realloc)$/,
  js: /$^/,
};

/**
 * Calls into the allocator per iteration, by the first caller outside the runtime and standard
 * library (an allocation site). A call through `runtime.makeslice` counts to the function that
 * made the slice.
 */
export function allocationSites(p: RowProfile): Map<string, number> {
  const entries = new Set(allocatorsOf(p.runner));
  const through = PASS_THROUGH[p.runner];
  const callers = new Map<string, Array<{ caller: string; calls: number }>>();
  for (const [caller, out] of p.edges) {
    for (const [callee, e] of out) callers.set(callee, [...(callers.get(callee) ?? []), { caller, calls: e.calls }]);
  }
  const sites = new Map<string, number>();
  const credit = (fn: string, calls: number, depth: number, path: Set<string>) => {
    const up = (callers.get(fn) ?? []).filter((c) => !path.has(c.caller));
    const into = up.reduce((s, c) => s + c.calls, 0);
    if (!through.test(fn) || into === 0 || depth >= DEEPEST) {
      sites.set(fn, (sites.get(fn) ?? 0) + calls);
      return;
    }
    const next = new Set(path).add(fn);
    for (const c of up) credit(c.caller, (calls * c.calls) / into, depth + 1, next);
  };
  for (const entry of entries) {
    for (const c of callers.get(entry) ?? []) {
      if (entries.has(c.caller)) continue; // realloc into malloc: one allocation, counted at its first entry
      credit(c.caller, c.calls, 1, new Set([entry]));
    }
  }
  return sites;
}
