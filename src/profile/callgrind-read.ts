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
export const contextFunction = (key: string): string => {
  const end = key.indexOf('\u0001');
  return end < 0 ? key : key.slice(0, end);
};

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
  // By character code: names run to hundreds of characters, a string per character cost more than the rest of their reading.
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 60 || c === 40)
      depth++; // < (
    else if ((c === 62 && raw.charCodeAt(i - 1) !== 45) || c === 41)
      depth = Math.max(0, depth - 1); // > not after -, )
    else if (c === 39 && depth === 0) {
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
  private readonly byId: string[] = [];
  /** The id of the name resolve() gave last (-1: not compressed), and whether its spec defined it. */
  id = -1;
  defined = false;
  resolve(spec: string): string {
    this.id = -1;
    this.defined = false;
    // `(digits)`, then nothing or a space and the name; anything else is a name as it is.
    const close = spec.charCodeAt(0) === 40 ? spec.indexOf(')') : -1;
    if (close < 2) return spec;
    let id = 0;
    for (let i = 1; i < close; i++) {
      const c = spec.charCodeAt(i);
      if (c < 48 || c > 57) return spec;
      id = id * 10 + (c - 48);
    }
    if (close + 1 < spec.length) {
      if (spec.charCodeAt(close + 1) !== 32) return spec;
      this.byId[id] = spec.slice(close + 2);
      this.defined = true;
    }
    this.id = id;
    return this.byId[id] ?? '';
  }
}

/**
 * Names as callgrind writes them, split into function and callers (splitContext) with the parts'
 * context key, shared by the dumps read with it: the same names, hundreds of characters each,
 * recur in every dump of a row, base's and head's alike.
 */
export class NameCache {
  private readonly split = new Map<string, { parts: string[]; level: number; key: string }>();
  get(raw: string): { parts: string[]; level: number; key: string } {
    let s = this.split.get(raw);
    if (!s) {
      const c = splitContext(raw);
      const parts = [c.fn, ...c.callers];
      this.split.set(raw, (s = { parts, level: c.level, key: contextKey(parts) }));
    }
    return s;
  }
}

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

/**
 * Parses a callgrind file (format version 1, one event: Ir). `rename` maps a function's name as
 * callgrind wrote it (recursion suffix removed) to the name shown (demangling, V8's JIT symbols).
 */
export function readDumpProfile(
  text: string,
  rename: ((fn: string) => string) & { positions?: JitPositions } = (f) => f,
  names: NameCache = new NameCache(),
): DumpProfile {
  const r = new DumpReader(text, rename, names);
  scanDump(text, r);
  return r.finish();
}

/**
 * The dump's lines, one by one: a cost line's positions and Ir are read in place (a dump with
 * addresses has a cost line per instruction, half a million in a bee-js iteration, and a string or
 * array per field made most of the read's time and garbage), and an own cost outside JIT code
 * with no source line, most of them, is summed on the spot. Everything else is the reader's.
 * Kept this small so V8 compiles it early and once: a single function holding the whole reader
 * was compiled anew at each path it had not yet taken, a fifth of a cold read.
 */
function scanDump(text: string, r: DumpReader): void {
  const fields = r.positions.length;
  const { lineAt, instrAt, prev } = r;
  const end = text.length;
  for (let from = 0; from < end; ) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = end;
    const c = text.charCodeAt(from);
    // A cost line: a position (number, +n, -n, *) then the Ir.
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      let pos = from;
      let ir = 0;
      for (let k = 0; k <= fields && pos < to; k++) {
        const sign = text.charCodeAt(pos);
        let q = sign === 42 || sign === 43 || sign === 45 ? pos + 1 : pos;
        // Addresses are hexadecimal (`0x…` when absolute), relative to the previous cost line's; lines decimal.
        const hex = k === instrAt;
        if (hex && text.charCodeAt(q) === 48 && text.charCodeAt(q + 1) === 120) q += 2;
        let n = 0;
        for (let ch = text.charCodeAt(q); q < to && ch !== 32; ch = text.charCodeAt(++q)) {
          n = hex ? n * 16 + (ch <= 57 ? ch - 48 : (ch | 32) - 87) : n * 10 + (ch - 48);
        }
        if (k === fields) ir = n;
        else if (k === lineAt || k === instrAt) prev[k] = sign === 42 ? prev[k]! : sign === 43 ? prev[k]! + n : sign === 45 ? prev[k]! - n : n;
        pos = q + 1;
      }
      if (r.callee === null && (ir === 0 || (r.rawFn === '' && (lineAt < 0 || prev[lineAt]! <= 0)))) r.ownOfFn += ir;
      else r.costLine(ir);
    } else r.header(text.slice(from, to));
    from = to + 1;
  }
}

/** One name as callgrind wrote it, read: its function, context node, recursion level and the name callgrind gave the function itself. */
interface ParsedName {
  fn: string;
  node: string;
  deeper: boolean;
  raw: string;
}

/** What readDumpProfile builds as it reads a dump's lines (scanDump). */
class DumpReader {
  readonly profile: DumpProfile;
  private readonly ctx: ContextGraph;
  private readonly fns = new Names();
  private readonly files = new Names();
  private readonly objects = new Names();
  /** Cost lines start with their positions (`positions:`, one unless --dump-instr adds the address). */
  readonly positions: string[];
  /** Which position is the line (absolute or relative to the previous cost line's: +n, -n, *) and which the address; -1 for none. */
  readonly lineAt: number;
  readonly instrAt: number;
  /** The last cost line's positions (an address can pass 2^31). */
  readonly prev: Float64Array;
  /** bee-js: V8's positions of JIT code's instructions (with instruction addresses in the dump). */
  private readonly jit: JitPositions | undefined;
  private readonly renamed = new Map<string, string>();
  private readonly parsed = new Map<string, ParsedName>();
  /** The same by compressed id (`fn=(12)`): names run to hundreds of characters, and looking each reference up by its text was a fifth of the read's time. */
  private readonly byId: Array<ParsedName | undefined> = [];
  /** Nodes entered at their first level: only those have deeper levels whose calls count twice. */
  private readonly firstLevel = new Set<string>();
  private readonly ctxReentered = new Map<string, number>();
  /** Each file's line keys, made once (a dump has tens of thousands of cost lines, a few thousand lines). */
  private readonly keysByFile = new Map<string, Map<number, string>>();
  private keyFile: string | null = null;
  private fileKeys = new Map<number, string>();
  /** Each JIT position's line key, made once. */
  private readonly placeKeys = new Map<object, string>();
  private object = '';
  private file = '';
  private srcFile = '';
  private fnLines: Map<string, LineCost> | null = null;
  private fn = '';
  /** The current function's name as callgrind wrote it where it is JIT code V8's code log can place ('' otherwise). */
  rawFn = '';
  private node = '';
  /** The callee the last `calls=` line announced, until the cost line after it books the call. */
  callee: string | null = null;
  private calleeNode = '';
  private calleeRaw = '';
  private calleeId = -1;
  private calleeDeeper = false;
  private calls = 0;
  /**
   * The current function's own Ir, added to its maps when another function begins (bookOwn):
   * most of a dump's cost lines are own cost. Ir are integers, so the sums are the same in any order.
   */
  ownOfFn = 0;

  constructor(
    text: string,
    private readonly rename: ((fn: string) => string) & { positions?: JitPositions },
    private readonly names: NameCache,
  ) {
    this.profile = {
      trigger: triggerOf(text),
      self: new Map(),
      edges: new Map(),
      reentered: new Map(),
      files: new Map(),
      lines: new Map(),
      objects: new Set(),
      contexts: { self: new Map(), edges: new Map(), reentered: new Map(), chain: new Map() },
    };
    this.ctx = this.profile.contexts;
    this.positions = /^positions: (.+)$/m.exec(text)?.[1]!.trim().split(/ +/) ?? ['line'];
    this.lineAt = this.positions.indexOf('line');
    this.instrAt = this.positions.indexOf('instr');
    this.prev = new Float64Array(this.positions.length);
    this.jit = this.instrAt >= 0 ? rename.positions : undefined;
  }

  private rename1(raw: string): string {
    let n = this.renamed.get(raw);
    if (n === undefined) this.renamed.set(raw, (n = this.rename(raw)));
    return n;
  }

  private read(raw: string): ParsedName {
    let r = this.parsed.get(raw);
    if (!r) {
      const s = this.names.get(raw);
      const chain = s.parts.map((x) => this.rename1(x));
      // Names the renaming left as they were keep the shared key (most: only JIT code is renamed).
      const node = chain.every((x, i) => x === s.parts[i]) ? s.key : contextKey(chain);
      if (!this.ctx.chain.has(node)) this.ctx.chain.set(node, chain);
      this.parsed.set(raw, (r = { fn: chain[0]!, node, deeper: s.level > 1, raw: s.parts[0]! }));
    }
    return r;
  }

  private readName(raw: string, id: number): ParsedName {
    return id < 0 ? this.read(raw) : (this.byId[id] ??= this.read(raw));
  }

  /** A bee-js function inlined into another package's JIT code: its node under the code's node. */
  private inlinedNode(charge: string, host: string): string {
    const key = contextKey([charge, host]);
    if (!this.ctx.chain.has(key)) this.ctx.chain.set(key, [charge, ...(this.ctx.chain.get(host) ?? [host])]);
    return key;
  }

  private bookOwn(): void {
    if (this.ownOfFn === 0) return;
    add(this.profile.self, this.fn, this.ownOfFn);
    add(this.ctx.self, this.node, this.ownOfFn);
    this.ownOfFn = 0;
  }

  /** One cost line's Ir booked to a function and its context node: its own cost, or the call the line before it announced (which the booking ends). */
  private book(to: string, toNode: string, cost: LineCost | undefined, ir: number): void {
    const callee = this.callee;
    if (callee === null) {
      if (to === this.fn && toNode === this.node) this.ownOfFn += ir;
      else {
        add(this.profile.self, to, ir);
        add(this.ctx.self, toNode, ir);
      }
      if (cost) cost.self += ir;
      return;
    }
    if (cost && callee !== to) add(cost.calls, callee, ir);
    if (callee !== to) {
      addEdge(this.profile.edges, to, callee, this.calls, ir);
      if (this.calleeDeeper) add(this.profile.reentered, callee, ir);
    }
    if (this.calleeNode !== toNode) {
      addEdge(this.ctx.edges, toNode, this.calleeNode, this.calls, ir);
      if (this.calleeDeeper) add(this.ctxReentered, this.calleeNode, ir);
    }
    this.callee = null;
  }

  /** A cost line (its positions in `prev`) that is not an own cost without a line: a call's, a source line's or JIT code's. */
  costLine(ir: number): void {
    const { profile, prev, instrAt } = this;
    let at = this.lineAt < 0 ? 0 : prev[this.lineAt]!;
    let cost: LineCost | undefined;
    // JIT code (no line tables): its line and, for inlined bee-js code, the function it is charged to.
    const place = this.jit && ir !== 0 && this.rawFn ? this.jit(this.rawFn, prev[instrAt]!) : null;
    if (place) {
      at = 0;
      const target = place.charge ?? this.fn;
      let toNode = this.node;
      if (place.charge) {
        toNode = this.inlinedNode(place.charge, this.node);
        addEdge(profile.edges, this.fn, target, 0, ir);
        addEdge(this.ctx.edges, this.node, toNode, 0, ir);
        if (!profile.files.has(target)) profile.files.set(target, '');
      }
      const lines = profile.lines.get(target) ?? profile.lines.set(target, new Map()).get(target)!;
      let k = this.placeKeys.get(place);
      if (k === undefined) this.placeKeys.set(place, (k = lineKey(place.file, place.line)));
      cost = lines.get(k);
      if (!cost) lines.set(k, (cost = { self: 0, calls: new Map(), ...(place.function ? { frame: place.function } : {}) }));
      this.book(target, toNode, cost, ir);
      return;
    }
    if (at > 0 && ir !== 0) {
      this.fnLines ??= profile.lines.get(this.fn) ?? profile.lines.set(this.fn, new Map()).get(this.fn)!;
      if (this.srcFile !== this.keyFile) {
        this.keyFile = this.srcFile;
        this.fileKeys = this.keysByFile.get(this.srcFile) ?? this.keysByFile.set(this.srcFile, new Map()).get(this.srcFile)!;
      }
      let k = this.fileKeys.get(at);
      if (k === undefined) this.fileKeys.set(at, (k = lineKey(this.srcFile, at)));
      cost = this.fnLines.get(k);
      if (!cost)
        this.fnLines.set(
          k,
          (cost = { self: 0, calls: new Map(), ...(instrAt >= 0 && this.object ? { at: { object: this.object, address: prev[instrAt]! } } : {}) }),
        );
    }
    this.book(this.fn, this.node, cost, ir);
  }

  /** Any line but a cost line: names, files, objects, calls. */
  header(line: string): void {
    const { profile, ctx, fns } = this;
    if (line.startsWith('fl=')) {
      this.file = this.files.resolve(line.slice(3));
      this.srcFile = this.file;
    } else if (line.startsWith('fi=') || line.startsWith('fe=')) {
      this.srcFile = this.files.resolve(line.slice(3)); // inlined code: its lines are its own file's, its cost its function's
    } else if (line.startsWith('cfi=') || line.startsWith('cfl=')) {
      this.files.resolve(line.slice(4)); // defines ids
    } else if (line.startsWith('ob=')) {
      this.object = this.objects.resolve(line.slice(3));
      if (this.object) profile.objects.add(this.object);
    } else if (line.startsWith('cob=')) {
      this.objects.resolve(line.slice(4));
    } else if (line.startsWith('fn=')) {
      this.bookOwn();
      const raw = fns.resolve(line.slice(3));
      if (fns.defined) this.byId[fns.id] = undefined;
      const r = this.readName(raw, fns.id);
      this.srcFile = this.file;
      this.fnLines = null;
      this.fn = r.fn;
      this.rawFn = this.jit && /^0x[0-9a-f]+$/.test(r.raw) ? r.raw : '';
      this.node = r.node;
      if (!r.deeper) this.firstLevel.add(this.node);
      if (!profile.files.has(this.fn)) profile.files.set(this.fn, this.file);
      if (!profile.self.has(this.fn)) profile.self.set(this.fn, 0);
      if (!ctx.self.has(this.node)) ctx.self.set(this.node, 0);
    } else if (line.startsWith('cfn=')) {
      this.calleeRaw = fns.resolve(line.slice(4));
      this.calleeId = fns.id;
      if (fns.defined) this.byId[this.calleeId] = undefined;
    } else if (line.startsWith('calls=')) {
      const space = line.indexOf(' ', 6);
      this.calls = Number(line.slice(6, space < 0 ? line.length : space)) || 0;
      const r = this.readName(this.calleeRaw, this.calleeId);
      this.callee = r.fn;
      this.calleeNode = r.node;
      this.calleeDeeper = r.deeper;
    }
  }

  finish(): DumpProfile {
    this.bookOwn();
    // A node met only at deeper levels (`f'2'g'f`) is a context of its own: nothing counted twice.
    for (const [n, ir] of this.ctxReentered) if (this.firstLevel.has(n)) this.ctx.reentered.set(n, ir);
    return this.profile;
  }
}

function addEdge(edges: Map<string, Map<string, Edge>>, from: string, to: string, calls: number, ir: number): void {
  let out = edges.get(from);
  if (!out) edges.set(from, (out = new Map<string, Edge>()));
  const e = out.get(to);
  // The edges are this read's own objects: added to in place.
  if (e) {
    e.calls += calls;
    e.ir += ir;
  } else out.set(to, { calls, ir });
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
