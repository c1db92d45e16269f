// Reads one callgrind output file into a function profile: each function's own instructions,
// every caller -> callee edge (calls and the call's inclusive instructions), and each function's
// inclusive instructions with recursion counted once. Callgrind names a function entered while it
// is already active `name'2`, `name'3` (--separate-recs); this folds the levels into one function.
// With caller context (--separate-callers=N, src/count/profile-options.ts) a function's cost is also split
// by its last N callers, `name'caller1'caller2`: the function lists read by function, and the
// context graph (`contexts`) keeps each function-in-its-callers apart for folding (fold.ts).
// With line records (--dump-line=yes) each function's cost is also kept by source line (`lines`):
// the file callgrind gave the line (`fi=`/`fe=`: an inlined function's own file) and its number.

/** One caller -> callee edge: how often it was called and the instructions under those calls. */
export interface Edge {
  calls: number;
  ir: number;
}

/** A function's cost at one source line: its own instructions there, and its calls from there by callee. */
export interface LineCost {
  self: number;
  calls: Map<string, number>;
  /**
   * With instruction addresses in the dump (--dump-instr=yes): the first instruction seen at the
   * line and its object file, where a line of inlined code can be traced to the frames it was
   * inlined through (source-lines.ts).
   */
  at?: { object: string; address: number };
  /** bee-js: the function whose source holds the line, from V8's code log (v8-symbols.ts JitPlace). */
  frame?: string;
}

/**
 * bee-js: where an instruction of JIT code came from (v8-symbols.ts `positions`): its client
 * source line and, for bee-js code V8 inlined into another package's function, the bee-js
 * function its cost is charged to.
 */
export type JitPositions = (fn: string, address: number) => { file: string; line: number; function?: string; charge?: string } | null;

/** A source line's key in `DumpProfile.lines`: the file as callgrind wrote it, then the line number. */
export const lineKey = (file: string, line: number): string => `${file}\u0001${line}`;
export const splitLineKey = (key: string): { file: string; line: number } => {
  const at = key.lastIndexOf('\u0001');
  return { file: key.slice(0, at), line: Number(key.slice(at + 1)) };
};

export interface DumpProfile {
  /** The iteration the dump counted (`bee-bench <unit> <step>`), spin marks a count-mode slowdown's dump. */
  trigger: { unit: number; step: number; spin: boolean } | null;
  /** Own instructions by function (recursion levels folded). */
  self: Map<string, number>;
  /** Calls by caller, then callee (calls of a function into itself, at any level, are left out). */
  edges: Map<string, Map<string, Edge>>;
  /**
   * Instructions under calls into a function's deeper recursion levels from other functions: the
   * callers' edges already count them once, so inclusive cost takes them out (see inclusive()).
   */
  reentered: Map<string, number>;
  /** The source file callgrind gave each function ('' when it had none, as for JIT code). */
  files: Map<string, string>;
  /**
   * Cost by source line, per function (recursion levels and contexts folded), where the dump has
   * line records and the code has line tables (line 0, no line, is left out: JIT code, stripped
   * libraries). Empty for a dump written with --dump-line=no.
   */
  lines: Map<string, Map<string, LineCost>>;
  /** The object files (`ob=`) the dump names: the runner's binary among them. */
  objects: Set<string>;
  /**
   * The same costs by caller context: a node is a function with the callers callgrind kept for it
   * (contextKey), its recursion levels folded as above. Without --separate-callers a node is a
   * function with no callers and the graph is the one above.
   */
  contexts: ContextGraph;
}

/** Costs by caller context (DumpProfile.contexts). */
export interface ContextGraph {
  self: Map<string, number>;
  edges: Map<string, Map<string, Edge>>;
  reentered: Map<string, number>;
  /** The function and the callers (nearest first) of each node. */
  chain: Map<string, readonly string[]>;
}

/** A context node's key: the function, then its callers, nearest first. */
export const contextKey = (chain: readonly string[]): string => chain.join('\u0001');
/** The function a context node belongs to. */
export const contextFunction = (key: string): string => key.split('\u0001', 1)[0]!;

/**
 * Callgrind's name of a function in context, `fn'2'caller1'caller2` (recursion level, then the
 * callers nearest first), split at the quotes outside any `<...>` or `(...)`, where Rust's
 * lifetimes (`<&'a T>`) keep theirs.
 */
export function splitContext(raw: string): { fn: string; level: number; callers: string[] } {
  if (!raw.includes("'")) return { fn: raw, level: 1, callers: [] };
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '<' || c === '(') depth++;
    else if ((c === '>' && raw[i - 1] !== '-') || c === ')') depth = Math.max(0, depth - 1);
    else if (c === "'" && depth === 0) {
      parts.push(raw.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(raw.slice(start));
  const [fn, ...rest] = parts;
  const level = rest.length > 0 && /^\d+$/.test(rest[0]!) ? Number(rest.shift()) : 1;
  return { fn: fn!, level, callers: rest };
}

const TRIGGER = /^desc: Trigger: Client Request: bee-bench(-spin)? (\d+) (\d+)(?: perf-map=\d+)?$/m;

/** The iteration a dump counted, from its `desc: Trigger:` line; null for any other dump. */
export function triggerOf(text: string): DumpProfile['trigger'] {
  const t = TRIGGER.exec(text);
  return t ? { unit: Number(t[2]), step: Number(t[3]), spin: t[1] !== undefined } : null;
}

/** `name'3` (or `name'3'caller`) -> `name`: the function a recursion level or a context belongs to. */
export const baseName = (fn: string): string => splitContext(fn).fn;

/**
 * Compressed names (--compress-strings): `(id) name` defines, `(id)` refers. Functions, files and
 * objects have id spaces of their own.
 */
class Names {
  private readonly byId = new Map<string, string>();
  resolve(spec: string): string {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(spec);
    if (!m) return spec;
    if (m[2] !== undefined) this.byId.set(m[1]!, m[2]);
    return this.byId.get(m[1]!) ?? '';
  }
}

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

/**
 * Parses a callgrind file (format version 1, one event: Ir). `rename` maps a function's name as
 * callgrind wrote it (recursion suffix removed) to the name shown (demangling, V8's JIT symbols).
 */
export function readDumpProfile(text: string, rename: ((fn: string) => string) & { positions?: JitPositions } = (f) => f): DumpProfile {
  const profile: DumpProfile = {
    trigger: triggerOf(text),
    self: new Map(),
    edges: new Map(),
    reentered: new Map(),
    files: new Map(),
    lines: new Map(),
    objects: new Set(),
    contexts: { self: new Map(), edges: new Map(), reentered: new Map(), chain: new Map() },
  };
  const ctx = profile.contexts;
  const fns = new Names();
  const files = new Names();
  const objects = new Names();
  // Cost lines start with their positions (`positions:`, one unless --dump-instr adds the address);
  // the line is the last, absolute or relative to the previous cost line's (+n, -n, *).
  const positions = /^positions: (.+)$/m.exec(text)?.[1]!.trim().split(/ +/) ?? ['line'];
  const lineAt = positions.indexOf('line');
  const instrAt = positions.indexOf('instr');
  const prev = positions.map(() => 0);
  let object = '';
  let srcFile = '';
  let fnLines: Map<string, LineCost> | null = null;
  const renamed = new Map<string, string>();
  const rename1 = (raw: string) => {
    let n = renamed.get(raw);
    if (n === undefined) renamed.set(raw, (n = rename(raw)));
    return n;
  };
  // Each name callgrind wrote, read once: its function, context node and recursion level, and the
  // name callgrind gave the function itself (bee-js's JIT code: the address V8's code log is read at).
  const parsed = new Map<string, { fn: string; node: string; deeper: boolean; raw: string }>();
  const read = (raw: string) => {
    let r = parsed.get(raw);
    if (!r) {
      const s = splitContext(raw);
      const chain = [s.fn, ...s.callers].map(rename1);
      const node = contextKey(chain);
      if (!ctx.chain.has(node)) ctx.chain.set(node, chain);
      parsed.set(raw, (r = { fn: chain[0]!, node, deeper: s.level > 1, raw: s.fn }));
    }
    return r;
  };
  // bee-js: V8's positions of JIT code's instructions (with instruction addresses in the dump).
  const jit = instrAt >= 0 ? rename.positions : undefined;
  // A bee-js function inlined into another package's JIT code: its node under the code's node.
  const inlinedNode = (charge: string, host: string) => {
    const key = contextKey([charge, host]);
    if (!ctx.chain.has(key)) ctx.chain.set(key, [charge, ...(ctx.chain.get(host) ?? [host])]);
    return key;
  };
  // Nodes entered at their first level: only those have deeper levels whose calls count twice.
  const firstLevel = new Set<string>();
  const ctxReentered = new Map<string, number>();
  let file = '';
  let fn = '';
  let rawFn = '';
  let node = '';
  let callee: string | null = null;
  let calleeNode = '';
  let calleeRaw = '';
  let calls = 0;
  // Each file's line keys, made once (a dump has tens of thousands of cost lines, a few thousand lines).
  const keysByFile = new Map<string, Map<number, string>>();
  let keyFile: string | null = null;
  let fileKeys = new Map<number, string>();
  // One cost line's Ir booked to a function and its context node: its own cost, or the call the
  // line before it announced (which the booking ends).
  const book = (to: string, toNode: string, cost: LineCost | undefined, ir: number) => {
    if (callee === null) {
      add(profile.self, to, ir);
      add(ctx.self, toNode, ir);
      if (cost) cost.self += ir;
      return;
    }
    if (cost && callee !== to) add(cost.calls, callee, ir);
    const deeper = read(calleeRaw).deeper;
    if (callee !== to) {
      addEdge(profile.edges, to, callee, calls, ir);
      if (deeper) add(profile.reentered, callee, ir);
    }
    if (calleeNode !== toNode) {
      addEdge(ctx.edges, toNode, calleeNode, calls, ir);
      if (deeper) add(ctxReentered, calleeNode, ir);
    }
    callee = null;
  };
  for (let from = 0; from < text.length; ) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = text.length;
    const c = text.charCodeAt(from);
    // A cost line: a position (number, +n, -n, *) then the Ir.
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      // The positions, then the Ir, read in place: a dump with addresses has a cost line per
      // instruction (half a million in a bee-js iteration), and a string or array per field made
      // most of the read's time and garbage.
      let pos = from;
      let ir = 0;
      for (let k = 0; k <= positions.length && pos < to; k++) {
        const sign = text.charCodeAt(pos);
        let q = sign === 42 || sign === 43 || sign === 45 ? pos + 1 : pos;
        // Addresses are hexadecimal (`0x…` when absolute), relative to the previous cost line's; lines decimal.
        const hex = k === instrAt;
        if (hex && text.charCodeAt(q) === 48 && text.charCodeAt(q + 1) === 120) q += 2;
        let n = 0;
        for (let ch = text.charCodeAt(q); q < to && ch !== 32; ch = text.charCodeAt(++q)) {
          n = hex ? n * 16 + (ch <= 57 ? ch - 48 : (ch | 32) - 87) : n * 10 + (ch - 48);
        }
        if (k === positions.length) ir = n;
        else if (k === lineAt || k === instrAt) prev[k] = sign === 42 ? prev[k]! : sign === 43 ? prev[k]! + n : sign === 45 ? prev[k]! - n : n;
        pos = q + 1;
      }
      from = to + 1;
      let at = lineAt < 0 ? 0 : prev[lineAt]!;
      let cost: LineCost | undefined;
      // JIT code (no line tables): its line and, for inlined bee-js code, the function it is charged to.
      const place = jit && ir !== 0 && rawFn ? jit(rawFn, prev[instrAt]!) : null;
      if (place) {
        at = 0;
        const target = place.charge ?? fn;
        let toNode = node;
        if (place.charge) {
          toNode = inlinedNode(place.charge, node);
          addEdge(profile.edges, fn, target, 0, ir);
          addEdge(ctx.edges, node, toNode, 0, ir);
          if (!profile.files.has(target)) profile.files.set(target, '');
        }
        const lines = profile.lines.get(target) ?? profile.lines.set(target, new Map()).get(target)!;
        const k = lineKey(place.file, place.line);
        cost = lines.get(k);
        if (!cost) lines.set(k, (cost = { self: 0, calls: new Map(), ...(place.function ? { frame: place.function } : {}) }));
        book(target, toNode, cost, ir);
        continue;
      }
      if (at > 0 && ir !== 0) {
        fnLines ??= profile.lines.get(fn) ?? profile.lines.set(fn, new Map()).get(fn)!;
        if (srcFile !== keyFile) {
          keyFile = srcFile;
          fileKeys = keysByFile.get(srcFile) ?? keysByFile.set(srcFile, new Map()).get(srcFile)!;
        }
        let k = fileKeys.get(at);
        if (k === undefined) fileKeys.set(at, (k = lineKey(srcFile, at)));
        cost = fnLines.get(k);
        if (!cost) fnLines.set(k, (cost = { self: 0, calls: new Map(), ...(instrAt >= 0 && object ? { at: { object, address: prev[instrAt]! } } : {}) }));
      }
      book(fn, node, cost, ir);
      continue;
    }
    const line = text.slice(from, to);
    from = to + 1;
    if (line.startsWith('fl=')) {
      file = files.resolve(line.slice(3));
      srcFile = file;
    } else if (line.startsWith('fi=') || line.startsWith('fe=')) {
      srcFile = files.resolve(line.slice(3)); // inlined code: its lines are its own file's, its cost its function's
    } else if (line.startsWith('cfi=') || line.startsWith('cfl=')) {
      files.resolve(line.slice(4)); // defines ids
    } else if (line.startsWith('ob=')) {
      object = objects.resolve(line.slice(3));
      if (object) profile.objects.add(object);
    } else if (line.startsWith('cob=')) {
      objects.resolve(line.slice(4));
    } else if (line.startsWith('fn=')) {
      const r = read(fns.resolve(line.slice(3)));
      srcFile = file;
      fnLines = null;
      fn = r.fn;
      rawFn = jit && /^0x[0-9a-f]+$/.test(r.raw) ? r.raw : '';
      node = r.node;
      if (!r.deeper) firstLevel.add(node);
      if (!profile.files.has(fn)) profile.files.set(fn, file);
      if (!profile.self.has(fn)) profile.self.set(fn, 0);
      if (!ctx.self.has(node)) ctx.self.set(node, 0);
    } else if (line.startsWith('cfn=')) {
      calleeRaw = fns.resolve(line.slice(4));
    } else if (line.startsWith('calls=')) {
      calls = Number(line.slice(6).split(' ')[0]) || 0;
      const r = read(calleeRaw);
      callee = r.fn;
      calleeNode = r.node;
    }
  }
  // A node met only at deeper levels (`f'2'g'f`) is a context of its own: nothing counted twice.
  for (const [n, ir] of ctxReentered) if (firstLevel.has(n)) ctx.reentered.set(n, ir);
  return profile;
}

function addEdge(edges: Map<string, Map<string, Edge>>, from: string, to: string, calls: number, ir: number): void {
  const out = edges.get(from) ?? new Map<string, Edge>();
  edges.set(from, out);
  const e = out.get(to) ?? { calls: 0, ir: 0 };
  out.set(to, { calls: e.calls + calls, ir: e.ir + ir });
}

/**
 * A function's inclusive instructions: its own, plus its calls into other functions, less the
 * calls from other functions back into its deeper levels (those ran inside one of its calls, so
 * the call out already counts them). Exact for a function active before the dump began too.
 */
export function inclusive(p: Pick<DumpProfile, 'self' | 'edges' | 'reentered'>, fn: string): number {
  let out = 0;
  for (const e of p.edges.get(fn)?.values() ?? []) out += e.ir;
  return (p.self.get(fn) ?? 0) + out - (p.reentered.get(fn) ?? 0);
}
