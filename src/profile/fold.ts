// Costs seen from the client's own functions: each of its functions with the callees outside the
// client folded in (runtime, standard library, allocator, crypto dependencies), and the calls
// into the allocator by the function that asked for them. Both walk callgrind's caller -> callee
// edges; where a callee has several callers, a caller gets the share of the callee's cost (or
// allocator calls) its own calls carried: exact for the edges themselves and, with callgrind's
// caller context, for whatever lies within its recorded callers of a client function;
// proportional below.
// The walks carry amounts through the graph node by node (amounts meeting at a node merge), so
// they stay linear in the graph's size where enumerating paths would not (V8's call graph).
import { V8_HEAP_FUNCTION } from '../count/callgrind.js';
import type { Runner } from '../spec/schema.js';
import { isAllocator, isClientOwn } from './names.js';
import type { RowProfile } from './row-profile.js';

/** An amount below this (instructions or calls per iteration) stops and stays where it is. */
const SMALLEST = 0.5;
/**
 * Folding also stops an amount under this share of the row: it stays in the caller's cost either
 * way, only the callee it is shown under (`via`) is a nearer one. In V8's cyclic graph of builtins
 * and JavaScript, walking amounts down to half an instruction took 4-6 s per bee-js row.
 */
const SMALLEST_FOLDED_SHARE = 1e-6;
/** A guard on the node visits of one walk (recursion can send an amount round a cycle). */
const MOST_VISITS = 200_000;

/**
 * Carries `start` amounts through the graph: `next(node, amount)` keeps part at the node and
 * returns what moves on to which nodes; an amount too small to split stays at its node.
 */
function flow(
  start: Map<string, number>,
  next: (node: string, amount: number) => Array<[string, number]>,
  keep: (node: string, amount: number) => void,
  smallest = SMALLEST,
): void {
  const pending = new Map(start);
  let visits = 0;
  while (pending.size > 0) {
    const [node, amount] = pending.entries().next().value as [string, number];
    pending.delete(node);
    if (amount < smallest || ++visits > MOST_VISITS) {
      keep(node, amount);
      continue;
    }
    for (const [to, a] of next(node, amount)) if (a > 0) pending.set(to, (pending.get(to) ?? 0) + a);
  }
}

export interface FoldedCost {
  /** The function's own instructions and those of the callees outside the client under it. */
  cost: number;
  /** Those callees' shares, by callee. */
  via: Map<string, number>;
  /**
   * The part of `cost` split by proportion: instructions of callees whose recorded callers
   * (callgrind's caller context, src/count/profile-options.ts) reach no client function, so the dump does
   * not say which client function's calls ran them; the rest is the dump's own figure.
   */
  estimated: number;
}

/**
 * V8's compilers, entered when a function gets hot (`Runtime_CompileOptimized` -> TurboFan's
 * pipeline, Maglev, Sparkplug) or is first called (`Runtime_CompileLazy`). Measured in the patch
 * set's `js-inlined` (docs/profiles.md): a change inside a callback V8 inlines into cafe-utility's
 * `log2Reduce` made V8 recompile inside the timed iterations, 9.9 million instructions reached from
 * `keccak256`'s tier-up check, which folding put on `keccak256` (74% of the row's change, a function
 * the change did not touch). Which function's call starts a compile is the JIT's choice; its cost
 * stays in the first list, under the compiler's own functions.
 */
const V8_COMPILER = /^v8::internal::(?:Runtime_Compile\w*|Compiler::|compiler::|maglev::|baseline::)/;

/**
 * Callees whose cost is folded into no caller: V8's heap management (bee-js), which the count
 * keeps only for what it calls. A collection runs when an allocation finds its space full, so its
 * work (how much of it depends on what is alive then, which asynchronous reads change) landed on
 * whichever client function allocated at that moment: `log2Reduce` moved by 0.06% of a row between
 * two processes of one build, more than any client function of an A/A ever should. And V8's
 * compilers (V8_COMPILER).
 */
const NOT_FOLDED: Record<Runner, (fn: string) => boolean> = { go: () => false, rs: () => false, js: (fn) => V8_HEAP_FUNCTION.test(fn) || V8_COMPILER.test(fn) };

/**
 * The function a closure is written in, by its name: a callback or iterator closure is compiled as
 * a function of its own (Go `pkg.f.func1`, Rust `f::{{closure}}`, a JavaScript arrow), but the
 * code a maintainer changed is the enclosing function's, so folding lists the closure's cost
 * there (and names the closure among its `via`). bee-js's anonymous functions carry it in their
 * name, ` in f` (src/profile/js-enclosing.ts). Null for a function that is no closure.
 */
const ENCLOSING: Record<Runner, (fn: string) => string | null> = {
  go: (fn) => {
    const outer = fn.replace(/(?:\.(?:func|gowrap|deferwrap)\d+(?:\.\d+)*)+$/, '');
    return outer !== fn ? outer : null;
  },
  rs: (fn) => {
    const plain = fn.replace(/::h[0-9a-f]{16}$/, '');
    const outer = plain.replace(/(?:::\{\{closure\}\})+$/, '');
    return outer !== plain ? outer : null;
  },
  // A bee-js function V8 inlined into another package's code is charged to it by name
  // (` [inlined in log2Reduce]`, v8-symbols.ts JitPlace): listed as the function itself.
  js: (fn) => {
    const plain = fn.replace(INLINED_JS, '');
    const m = /^\(anonymous\) (\S+) «.*» in ([^«»]+)$/.exec(plain);
    return m ? `${m[2]} ${m[1]}` : plain !== fn ? plain : null;
  },
};

/** The mark after a bee-js function's name where its cost ran inlined in another package's JIT code. */
const INLINED_JS = / \[inlined in [^\]]*\]$/;

/** The function a client function's cost is listed under (itself, or the function a closure is written in): ENCLOSING. */
export const listedUnder = (runner: Runner, fn: string): string => ENCLOSING[runner](fn) ?? fn;

/**
 * The client's own functions, each with the callees outside the client folded in (but NOT_FOLDED's),
 * and a closure's cost in the function it is written in (ENCLOSING).
 * The walk goes over the caller-context graph: a callee recorded with its last N callers (a
 * trampoline like V8's `Builtins_Call_ReceiverIsAny`, Go's `runtime.mallocgc`, `memmove`) is a
 * node per caller chain, so a cost within N calls of a client function goes to that function
 * exactly, and only what lies deeper is split by the calls' proportions (`estimated`).
 */
export function foldIntoClient(p: RowProfile): Map<string, FoldedCost> {
  const { nodes, edges } = p.contexts;
  const fnOf = (node: string) => nodes.get(node)?.chain[0] ?? node;
  // Asked for every callee at every step of every walk: worked out once per function.
  const ownness = new Map<string, boolean>();
  const ownFn = (fn: string) => ownness.get(fn) ?? ownness.set(fn, isClientOwn(p.runner, fn, p.functions.get(fn)?.file ?? '')).get(fn)!;
  const own = (node: string) => ownFn(fnOf(node));
  const notFolded = NOT_FOLDED[p.runner];
  const foldable = (callee: string) => !own(callee) && !notFolded(fnOf(callee));
  // Whether a node's recorded callers name a client function: its cost is then that caller's exactly.
  const exact = new Map<string, boolean>();
  const isExact = (node: string) => exact.get(node) ?? exact.set(node, (nodes.get(node)?.chain ?? []).slice(1).some(ownFn)).get(node)!;
  // A node's calls out of the client and what all its calls add up to, the same in every walk.
  const outward = new Map<string, { calls: Array<[string, number]>; callsIr: number }>();
  const callsOf = (node: string) => {
    let c = outward.get(node);
    if (!c) {
      const calls = [...(edges.get(node) ?? [])];
      c = { calls: calls.filter(([callee]) => foldable(callee)).map(([callee, e]) => [callee, e.ir]), callsIr: calls.reduce((s, [, e]) => s + e.ir, 0) };
      outward.set(node, c);
    }
    return c;
  };
  const out = new Map<string, FoldedCost>();
  // Where each client function is listed: itself, or for a closure the function it is written in
  // (matched without Rust's symbol hash, which differs between the two).
  const byPlainName = new Map<string, string>();
  for (const fn of p.functions.keys()) if (ownFn(fn)) byPlainName.set(fn.replace(/::h[0-9a-f]{16}$/, ''), fn);
  const homeOf = (fn: string) => {
    const outer = ENCLOSING[p.runner](fn);
    return outer === null ? fn : (byPlainName.get(outer) ?? outer);
  };
  for (const f of p.functions.values()) {
    if (!ownFn(f.name)) continue;
    const home = homeOf(f.name);
    const line = out.get(home) ?? { cost: 0, via: new Map<string, number>(), estimated: 0 };
    line.cost += f.self;
    if (home !== f.name) line.via.set(f.name, (line.via.get(f.name) ?? 0) + f.self);
    out.set(home, line);
  }
  for (const node of nodes.keys()) {
    const fn = fnOf(node);
    const line = ownFn(fn) ? out.get(homeOf(fn)) : undefined;
    if (!line) continue;
    const credit = (callee: string, ir: number) => {
      line.cost += ir;
      const fn = fnOf(callee);
      line.via.set(fn, (line.via.get(fn) ?? 0) + ir);
      if (!isExact(callee)) line.estimated += ir;
    };
    const start = new Map([...(edges.get(node) ?? [])].filter(([callee]) => foldable(callee)).map(([callee, e]) => [callee, e.ir]));
    flow(
      start,
      (callee, ir) => {
        const g = nodes.get(callee);
        const whole = g?.inclusive ?? 0;
        if (!g || whole <= 0) {
          credit(callee, ir);
          return [];
        }
        // The share of its own cost stays here; the share of what ran under its calls passes on,
        // split by the calls' instructions. That is its inclusive cost less its own, which is less
        // than its calls add up to when it was re-entered by recursion (the calls into its deeper
        // levels count twice): passing on the calls' sum would make more than came in. Calls back
        // into the client are the client's own costs: they pass to no one here (nor do calls
        // into NOT_FOLDED).
        const share = Math.min(1, ir / whole);
        const { calls, callsIr } = callsOf(callee);
        const passed = Math.min(ir, share * (whole - g.self));
        const scale = callsIr > 0 ? Math.max(0, passed) / callsIr : 0;
        credit(callee, ir - (callsIr > 0 ? Math.max(0, passed) : 0));
        return calls.map(([to, e]): [string, number] => [to, e * scale]);
      },
      credit,
      Math.max(SMALLEST, SMALLEST_FOLDED_SHARE * p.total),
    );
  }
  return out;
}

/**
 * Functions the allocator's callers reach it through: the runtime and standard library (Go's
 * `runtime.newobject` -> `mallocgc`; Rust's `alloc::raw_vec` -> `__rust_alloc`; V8 and node
 * between JavaScript and an ArrayBuffer's backing store), and the allocator's own entry points.
 */
const PASS_THROUGH: Record<Runner, RegExp> = {
  go: /^runtime\./,
  rs: /^<?(?:alloc|core|std|hashbrown)::|^__rustc::|^__rust_|^__rdl_|^(?:malloc|calloc|realloc)$/,
  js: /v8::internal::|^v8::|^Builtins_|^node::|^std::/,
};

/**
 * Calls into the allocator per iteration, by the first caller outside the runtime and standard
 * library (an allocation site). A call through `runtime.makeslice` counts to the function that
 * made the slice; a typed array's backing store to the JavaScript function that made the array.
 */
export function allocationSites(p: RowProfile): Map<string, number> {
  const through = PASS_THROUGH[p.runner];
  const entry = (fn: string) => isAllocator(p.runner, fn);
  const callers = new Map<string, Array<{ caller: string; calls: number }>>();
  for (const [caller, out] of p.edges) {
    for (const [callee, e] of out) {
      const list = callers.get(callee);
      // Added to in place: a V8 builtin has thousands of callers, and a copy per caller was quadratic.
      if (list) list.push({ caller, calls: e.calls });
      else callers.set(callee, [{ caller, calls: e.calls }]);
    }
  }
  const sites = new Map<string, number>();
  const keep = (fn: string, calls: number) => sites.set(fn, (sites.get(fn) ?? 0) + calls);
  const start = new Map<string, number>();
  for (const [callee, from] of callers) {
    if (!entry(callee)) continue;
    // realloc into malloc: one allocation, counted at its first entry.
    for (const c of from) if (!entry(c.caller)) start.set(c.caller, (start.get(c.caller) ?? 0) + c.calls);
  }
  flow(
    start,
    (fn, calls) => {
      const up = (callers.get(fn) ?? []).filter((c) => c.caller !== fn);
      const into = up.reduce((s, c) => s + c.calls, 0);
      if (!through.test(fn) || into === 0) {
        keep(fn, calls);
        return [];
      }
      return up.map((c): [string, number] => [c.caller, (calls * c.calls) / into]);
    },
    keep,
  );
  return sites;
}
