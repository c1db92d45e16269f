// Reads one callgrind output file into a function profile: each function's own instructions,
// every caller -> callee edge (calls and the call's inclusive instructions), and each function's
// inclusive instructions with recursion counted once. Callgrind names a function entered while it
// is already active `name'2`, `name'3` (--separate-recs); this folds the levels into one function.

/** One caller -> callee edge: how often it was called and the instructions under those calls. */
export interface Edge {
  calls: number;
  ir: number;
}

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
}

const TRIGGER = /^desc: Trigger: Client Request: bee-bench(-spin)? (\d+) (\d+)(?: perf-map=\d+)?$/m;

/** The iteration a dump counted, from its `desc: Trigger:` line; null for any other dump. */
export function triggerOf(text: string): DumpProfile['trigger'] {
  const t = TRIGGER.exec(text);
  return t ? { unit: Number(t[2]), step: Number(t[3]), spin: t[1] !== undefined } : null;
}

/** `name'3` -> `name`: the function a recursion level belongs to. */
export const baseName = (fn: string): string => fn.replace(/'\d+$/, '');
const isDeeperLevel = (fn: string) => /'\d+$/.test(fn);

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
export function readDumpProfile(text: string, rename: (fn: string) => string = (f) => f): DumpProfile {
  const profile: DumpProfile = {
    trigger: triggerOf(text),
    self: new Map(),
    edges: new Map(),
    reentered: new Map(),
    files: new Map(),
  };
  const fns = new Names();
  const files = new Names();
  const renamed = new Map<string, string>();
  const name = (raw: string) => {
    let n = renamed.get(raw);
    if (n === undefined) renamed.set(raw, (n = rename(baseName(raw))));
    return n;
  };
  let file = '';
  let fn = '';
  let callee: string | null = null;
  let calleeRaw = '';
  let calls = 0;
  for (const line of text.split('\n')) {
    const c = line.charCodeAt(0);
    // A cost line: a position (number, +n, -n, *) then the Ir.
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      const ir = Number(line.slice(line.indexOf(' ') + 1).split(' ')[0] ?? 0) || 0;
      if (callee === null) {
        add(profile.self, fn, ir);
      } else {
        if (callee !== fn) {
          const out = profile.edges.get(fn) ?? new Map<string, Edge>();
          profile.edges.set(fn, out);
          const e = out.get(callee) ?? { calls: 0, ir: 0 };
          out.set(callee, { calls: e.calls + calls, ir: e.ir + ir });
          if (isDeeperLevel(calleeRaw)) add(profile.reentered, callee, ir);
        }
        callee = null;
      }
    } else if (line.startsWith('fl=')) {
      file = files.resolve(line.slice(3));
    } else if (line.startsWith('fi=') || line.startsWith('fe=') || line.startsWith('cfi=') || line.startsWith('cfl=')) {
      files.resolve(line.slice(line.indexOf('=') + 1)); // defines ids; inlined code counts to its function
    } else if (line.startsWith('fn=')) {
      fn = name(fns.resolve(line.slice(3)));
      if (!profile.files.has(fn)) profile.files.set(fn, file);
      if (!profile.self.has(fn)) profile.self.set(fn, 0);
    } else if (line.startsWith('cfn=')) {
      calleeRaw = fns.resolve(line.slice(4));
    } else if (line.startsWith('calls=')) {
      calls = Number(line.slice(6).split(' ')[0]) || 0;
      callee = name(calleeRaw);
    }
  }
  return profile;
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
