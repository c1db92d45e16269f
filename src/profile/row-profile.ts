// A row's function profile for one side: its iterations' dumps (the ones the count verdict read,
// count-mode spins included) added up and read per iteration, with the functions the count leaves
// out taken out the same way, so the profile's total is the row's count.
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { V8_HEAP_FUNCTION, V8_LOGGER_FUNCTION, WALL_CLOCK_FUNCTIONS } from '../count/callgrind.js';
import type { Runner } from '../spec/schema.js';
import { contextFunction, inclusive, NameCache, readDumpProfile, triggerOf, type Edge, type LineCost } from './callgrind-read.js';

/** One function of a row profile, instructions per iteration. */
export interface FunctionCost {
  name: string;
  /** The source file callgrind named ('' for JIT code). */
  file: string;
  self: number;
  inclusive: number;
  /** Cost per iteration by source line (callgrind-read.ts's lineKey), where the dumps have lines. */
  lines: Map<string, LineCost>;
  /** Where a JavaScript function starts, as V8's perf map gives it (v8-symbols.ts startOf): bee-js's only source position. */
  start?: { file: string; line: number };
}

export interface RowProfile {
  runner: Runner;
  /** Instructions per iteration: the sum of every function's own. */
  total: number;
  iterations: number;
  functions: Map<string, FunctionCost>;
  /** Calls and instructions per iteration, by caller then callee. */
  edges: Map<string, Map<string, Edge>>;
  /**
   * The same by caller context (callgrind-read.ts's ContextGraph), per iteration: each node's
   * function and callers (`chain`, nearest first), own and inclusive instructions, and its calls.
   */
  contexts: {
    nodes: Map<string, { chain: readonly string[]; self: number; inclusive: number }>;
    edges: Map<string, Map<string, Edge>>;
  };
  /** The object files the dumps named (the runner's binary among them): where source paths are resolved (source-lines.ts). */
  objects: Set<string>;
}

/** A call graph as read from one dump: own cost, calls, and the calls into deeper recursion levels. */
interface Graph {
  self: Map<string, number>;
  edges: Map<string, Map<string, Edge>>;
  reentered: Map<string, number>;
}

/**
 * Turns a function's name as callgrind gives it into the one shown (V8 JIT symbols:
 * src/profile/v8-symbols.ts), and may say where the functions it named start (`starts`).
 */
export type Symbolizer = ((fnName: string) => string) & { starts?: ReadonlyMap<string, { file: string; line: number }> };
/** A symbolizer per dump (bee-js: each dump's process map as far as it was written then; v8-symbols.ts). */
export interface DumpSymbolizers {
  forDump(dumpText: string): Symbolizer;
}

/** The trigger in a dump's header (its first 4 KB): a dump can be hundreds of KB. */
function readTrigger(path: string) {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(4096);
    return triggerOf(buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

/**
 * The dumps of each unit in `dir`, by unit: file names, in step order (an iteration's own dump and
 * its count-mode spins). Read once per directory; profiles are built only for the rows asked for.
 */
export function dumpsByUnit(dir: string): Map<number, string[]> {
  const found: Array<{ unit: number; step: number; file: string }> = [];
  for (const f of readdirSync(dir).filter((name) => name.startsWith('callgrind.out.'))) {
    const path = join(dir, f);
    const t = readTrigger(path);
    if (t) found.push({ unit: t.unit, step: t.step, file: path });
  }
  const byUnit = new Map<number, string[]>();
  for (const d of found.sort((a, b) => a.unit - b.unit || a.step - b.step || a.file.localeCompare(b.file))) {
    byUnit.set(d.unit, [...(byUnit.get(d.unit) ?? []), d.file]);
  }
  return byUnit;
}

const isWallClock = (fn: string) => (WALL_CLOCK_FUNCTIONS as readonly string[]).includes(fn);
/** Functions the count leaves out with their callees: Go's wall-clock ones, V8's code-event loggers. */
const LEFT_OUT: Record<Runner, (fn: string) => boolean> = { go: isWallClock, rs: () => false, js: (fn) => V8_LOGGER_FUNCTION.test(fn) };

/**
 * Takes Go's wall-clock functions out as the count does (their own cost and their calls out),
 * and the calls' share of each callee below: a callee shared with the timed code (a clock read,
 * a lock) loses the part of its cost those calls made, in proportion to its inclusive cost. A
 * leaf loses exactly what the calls cost.
 */
function withoutLeftOut(p: Graph, isLeftOut: (fn: string) => boolean): void {
  const roots = [...p.self.keys()].filter(isLeftOut);
  if (roots.length === 0) return;
  // Shares are of the dump as callgrind wrote it, whichever wall-clock caller is taken out first:
  // a function's own cost and calls are kept as they were before the first change to them (copy
  // on write), and its inclusive cost read from those. Only what the left-out functions reach is
  // visited, so only that is copied (bee-js's loggers reach a few hundred of a dump's thousands).
  const selfWas = new Map<string, number>();
  const outWas = new Map<string, Map<string, Edge>>();
  const selfOf = (fn: string) => (selfWas.has(fn) ? selfWas.get(fn) : p.self.get(fn));
  const outOf = (fn: string) => outWas.get(fn) ?? p.edges.get(fn);
  const incl = new Map<string, number>();
  const inclOf = (fn: string) => {
    if (!p.self.has(fn)) return 0;
    let got = incl.get(fn);
    if (got === undefined) {
      let out = 0;
      for (const e of outOf(fn)?.values() ?? []) out += e.ir;
      incl.set(fn, (got = (selfOf(fn) ?? 0) + out - (p.reentered.get(fn) ?? 0)));
    }
    return got;
  };
  const path = new Set<string>();
  const remove = (fn: string, ir: number) => {
    const whole = inclOf(fn);
    if (whole <= 0 || ir <= 0 || path.has(fn) || isLeftOut(fn)) return;
    const share = Math.min(1, ir / whole);
    if (!selfWas.has(fn)) selfWas.set(fn, p.self.get(fn)!);
    p.self.set(fn, Math.max(0, (p.self.get(fn) ?? 0) - (selfWas.get(fn) ?? 0) * share));
    const now = p.edges.get(fn);
    if (!now) return;
    if (!outWas.has(fn)) outWas.set(fn, new Map(now));
    path.add(fn);
    for (const [callee, e] of outWas.get(fn)!) {
      remove(callee, e.ir * share);
      const had = now.get(callee)!;
      now.set(callee, { calls: Math.max(0, had.calls - e.calls * share), ir: Math.max(0, had.ir - e.ir * share) });
    }
    path.delete(fn);
  };
  for (const w of roots) {
    path.add(w);
    for (const [callee, e] of outOf(w) ?? []) remove(callee, e.ir);
    path.delete(w);
  }
  // The wall-clock functions, and whatever only they ran, are no longer in the row: a function
  // whose own cost went under half an instruction with its calls (only a changed one can have).
  const gone = new Set(roots);
  for (const [fn, was] of selfWas) {
    let out = 0;
    for (const e of p.edges.get(fn)?.values() ?? []) out += e.ir;
    if ((p.self.get(fn) ?? 0) < 0.5 && out < 0.5 && (was ?? 0) >= 0.5) gone.add(fn);
  }
  for (const fn of gone) {
    p.self.delete(fn);
    p.edges.delete(fn);
    p.reentered.delete(fn);
  }
  for (const out of p.edges.values()) for (const [callee, e] of out) if (gone.has(callee) || e.ir < 0.5) out.delete(callee);
}

/** V8's heap management keeps its callees but not its own cost, as in the count (callgrind-costs.mjs). */
function withoutV8Heap(p: Graph, fnOf: (node: string) => string = (f) => f): void {
  for (const fn of p.self.keys()) if (V8_HEAP_FUNCTION.test(fnOf(fn))) p.self.set(fn, 0);
}

const addEdges = (into: Map<string, Map<string, Edge>>, from: Map<string, Map<string, Edge>>) => {
  for (const [caller, out] of from) {
    const to = into.get(caller) ?? new Map<string, Edge>();
    into.set(caller, to);
    // The row's edges are its own objects (made here, never a dump's): added to in place.
    for (const [callee, e] of out) {
      const had = to.get(callee);
      if (had) {
        had.calls += e.calls;
        had.ir += e.ir;
      } else to.set(callee, { calls: e.calls, ir: e.ir });
    }
  }
};
const perIteration = (edges: Map<string, Map<string, Edge>>, n: number) => {
  for (const out of edges.values())
    for (const e of out.values()) {
      e.calls /= n;
      e.ir /= n;
    }
};

/** Adds one dump's line costs of a function into the row's. */
function addLines(into: Map<string, LineCost>, from: Map<string, LineCost> | undefined): void {
  for (const [key, l] of from ?? []) {
    const had: LineCost = into.get(key) ?? { self: 0, calls: new Map<string, number>(), ...(l.at ? { at: l.at } : {}), ...(l.frame ? { frame: l.frame } : {}) };
    had.self += l.self;
    for (const [callee, ir] of l.calls) had.calls.set(callee, (had.calls.get(callee) ?? 0) + ir);
    into.set(key, had);
  }
}

/** The row's profile from its dump files (one unit's: dumpsByUnit). */
export function rowProfile(runner: Runner, files: readonly string[], symbolize?: Symbolizer | DumpSymbolizers, names = new NameCache()): RowProfile {
  const functions = new Map<string, FunctionCost>();
  const edges = new Map<string, Map<string, Edge>>();
  const contexts: RowProfile['contexts'] = { nodes: new Map(), edges: new Map() };
  const steps = new Set<string>();
  const objects = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const sym = typeof symbolize === 'object' ? symbolize.forDump(text) : symbolize;
    const d = readDumpProfile(text, sym, names);
    if (!d.trigger) continue;
    steps.add(`${d.trigger.unit} ${d.trigger.step}`);
    withoutLeftOut(d, LEFT_OUT[runner]);
    withoutLeftOut(d.contexts, (node) => LEFT_OUT[runner](contextFunction(node)));
    if (runner === 'js') {
      withoutV8Heap(d);
      withoutV8Heap(d.contexts, contextFunction);
    }
    for (const [fn, self] of d.self) {
      const f = functions.get(fn) ?? { name: fn, file: d.files.get(fn) ?? '', self: 0, inclusive: 0, lines: new Map<string, LineCost>() };
      f.self += self;
      f.inclusive += inclusive(d, fn);
      addLines(f.lines, d.lines.get(fn));
      const start = sym?.starts?.get(fn);
      if (start && !f.start) f.start = start;
      functions.set(fn, f);
    }
    for (const o of d.objects) objects.add(o);
    addEdges(edges, d.edges);
    for (const [node, self] of d.contexts.self) {
      let c = contexts.nodes.get(node);
      if (!c) contexts.nodes.set(node, (c = { chain: d.contexts.chain.get(node) ?? [contextFunction(node)], self: 0, inclusive: 0 }));
      c.self += self;
      c.inclusive += inclusive(d.contexts, node);
    }
    addEdges(contexts.edges, d.contexts.edges);
  }
  const n = Math.max(1, steps.size);
  let total = 0;
  for (const f of functions.values()) {
    f.self /= n;
    f.inclusive /= n;
    total += f.self;
    for (const l of f.lines.values()) {
      l.self /= n;
      for (const [callee, ir] of l.calls) l.calls.set(callee, ir / n);
    }
  }
  perIteration(edges, n);
  for (const c of contexts.nodes.values()) {
    c.self /= n;
    c.inclusive /= n;
  }
  perIteration(contexts.edges, n);
  return { runner, total, iterations: steps.size, functions, edges, contexts, objects };
}
