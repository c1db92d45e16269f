// V8's code log (`--log-code`, written beside a bee-js counting run's dumps: JS_NAMING_FLAGS in
// src/count/callgrind.ts) read for source positions inside JIT code. For every piece of optimized
// code V8 writes, after its `code-creation` line, a `code-source-info` line: the script and, per
// code offset, the script offset of the code there and the inlining it belongs to
// (`C180O29I1`: from code offset 180, script offset 29, inlining 1), each inlining's function and
// call site (`F0O126F1O259I0`: inlining 0 is function 0 called at script offset 126 of the outer
// function, inlining 1 function 1 called at 259 inside inlining 0) and the inlined functions'
// SharedFunctionInfo addresses (`S0x..S0x..`). With each script's text (its `script-source` line
// where V8 wrote one; the counting runs turn them off, `--no-log-source-code`, a fifth of the log's
// size, and the script's file is read instead) that gives, for any instruction of optimized code,
// its inlining stack down to a script line: which function's source, of the ones V8 inlined into
// that code, the instruction came from. Interpreted and baseline code have no per-instruction
// positions here (their positions are by bytecode offset), nor do builtins.
//
//   const log = parseV8Log(text, file)             // one isolate's log
//   const found = codeAt([log], start, size, rank) // the code object a perf map entry named
//   framesAt(found.log, found.code, pcOffset)      // its inlining stack there, innermost first
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { z } from 'zod';

/** One function frame at an instruction: the function (V8's log name, `name path:line:column`), its script and the offset there. */
export interface SourceFrame {
  /** V8's name of the function as its code-creation line gives it: `log2Reduce /abs/path.js:2024:20`, ` file:///abs/bmt.js:33:40` for an anonymous one. */
  name: string;
  /** The script's name (a path or `file://` URL, `node:…`), or null where the log had no script for it. */
  script: string | null;
  /** 1-based line in the script, or null without its source. */
  line: number | null;
}

/** A piece of optimized code with its source positions. */
export interface V8Code {
  address: number;
  size: number;
  /** V8's name (code-creation's name field). */
  name: string;
  tier: string;
  /** The script of the code's own function (code-source-info), or null. */
  scriptId: number | null;
  /** Code offset -> script offset and inlining id (-1: the code's own function), sorted by code offset. */
  positions: Array<{ pc: number; offset: number; inlining: number }>;
  /** Inlinings: the inlined function (V8 log name and script) and where it was called (in its parent, -1 the code's own function). */
  inlinings: Array<{ name: string; scriptId: number | null; callOffset: number; parent: number }>;
}

export interface V8Log {
  /** The code objects with a code-source-info, by `address:size`, oldest first. */
  codes: Map<string, V8Code[]>;
  /** Script name and its source as the log escaped it, by script id (scriptLines reads its lines). */
  scripts: Map<number, V8Script>;
}

export interface V8Script {
  name: string;
  /**
   * The source as V8 wrote it (`script-source`, escaped: unescapeV8), undone only for scripts whose
   * lines are asked for; absent where the log has no source (`--no-log-source-code`, how the
   * counting runs write it): the script's file is read where the dumps are read.
   */
  escaped?: string;
  /** Line starts, once read; null where the source could not be read. */
  lineStarts?: number[] | null;
}

const HEX = /^0x[0-9a-f]+$/i;
const INT = /^-?\d+$/;

export const CodeCreation = z.tuple([
  z.literal('code-creation'),
  z.string(), // type
  z.string().regex(INT), // kind
  z.string().regex(INT), // timestamp
  z.string().regex(HEX), // address
  z.string().regex(INT), // size
  z.string(), // name
]);
/**
 * The same two schemas as one pattern each over the whole line (CodeCreation's first seven fields,
 * CodeSourceInfo's eight), tried first: a log has thousands of these lines, and a tuple parse of
 * each made a fifth of the log's reading and most of its garbage. A line the pattern refuses is
 * parsed by the schema, which names the field.
 */
export const CODE_CREATION_LINE = /^code-creation,[^,]*,-?\d+,-?\d+,0[xX][0-9a-fA-F]+,-?\d+,[^,]*(?:,|$)/;
export const CODE_SOURCE_INFO_LINE =
  /^code-source-info,0[xX][0-9a-fA-F]+,-?\d+,-?\d+,-?\d+,(?:C\d+O-?\d+(?:I\d+)?)*,(?:F\d+O-?\d+(?:I\d+)?)*,(?:[sS]0[xX][0-9a-fA-F]+)*$/;

/** `C<pc>O<offset>[I<inlining>]`…, as CodeSourceInfo's sixth field checked it, read without a match per entry. */
function readPositions(pos: string): V8Code['positions'] {
  const out: V8Code['positions'] = [];
  const num = (at: number): [number, number] => {
    let n = 0;
    let k = at;
    for (let c = pos.charCodeAt(k); c >= 48 && c <= 57; c = pos.charCodeAt(++k)) n = n * 10 + (c - 48);
    return [n, k];
  };
  for (let k = 0; k < pos.length; ) {
    const [pc, afterPc] = num(k + 1); // after C
    const negative = pos.charCodeAt(afterPc + 1) === 45; // O then an optional -
    const [offset, afterOffset] = num(afterPc + (negative ? 2 : 1));
    let inlining = -1;
    k = afterOffset;
    if (pos.charCodeAt(k) === 73) [inlining, k] = num(k + 1); // I
    out.push({ pc, offset: negative ? -offset : offset, inlining });
  }
  return out;
}

export const CodeSourceInfo = z.tuple([
  z.literal('code-source-info'),
  z.string().regex(HEX),
  z.string().regex(INT),
  z.string().regex(INT),
  z.string().regex(INT),
  z.string().regex(/^(?:C\d+O-?\d+(?:I\d+)?)*$/, 'positions as C<code offset>O<script offset>[I<inlining>]'),
  z.string().regex(/^(?:F\d+O-?\d+(?:I\d+)?)*$/, 'inlining positions as F<function>O<call offset>[I<parent>]'),
  z.string().regex(/^(?:S0x[0-9a-f]+)*$/i, 'inlined functions as S0x<address>'),
]);

/** V8's log escapes (LogFile::MessageBuilder): `\x2C` for a comma, `\n`, `\\`, `\xNN`, `\uNNNN`. */
export function unescapeV8(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(n)|(\\))/g, (_m, x: string, u: string, n: string) =>
    x ? String.fromCharCode(parseInt(x, 16)) : u ? String.fromCharCode(parseInt(u, 16)) : n ? '\n' : '\\',
  );
}

/**
 * The start of each line of a script (UTF-16 offsets, as V8 counts them), read once: from the
 * log's `script-source`, else from the script's file (a path or `file://` URL), else null.
 */
export function scriptLines(script: V8Script): number[] | null {
  if (script.lineStarts === undefined) {
    let source: string | null = script.escaped === undefined ? null : unescapeV8(script.escaped);
    if (source === null) {
      const path = script.name.startsWith('file://') ? decodeURIComponent(script.name.slice('file://'.length)) : script.name;
      try {
        source = isAbsolute(path) ? readFileSync(path, 'utf8') : null;
      } catch {
        source = null;
      }
    }
    script.lineStarts = source === null ? null : lineStartsOf(source);
  }
  return script.lineStarts;
}

function lineStartsOf(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** How many of n items sorted by key have a key at most x (a binary search: maps and logs hold thousands). */
export function countAtMost(n: number, keyAt: (i: number) => number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keyAt(mid) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The 1-based line of a script offset. */
export function lineOf(lineStarts: readonly number[], offset: number): number {
  return Math.max(
    1,
    countAtMost(lineStarts.length, (i) => lineStarts[i]!, offset),
  );
}

const bad = (file: string, n: number, event: string, why: string) =>
  new Error(
    `${file}:${n}: malformed V8 log line (${event}): ${why}; the log is V8's --log-code output of the bee-js counting run (node 20's format), rerun the count to write it anew`,
  );

/**
 * One isolate's log. Lines V8 was still writing when the process stopped (no newline) are left
 * out; events other than code-creation, code-source-info, script-source and sfi-move are skipped.
 * A malformed line of those events throws, naming the file and line.
 */
export function parseV8Log(text: string, file = 'V8 log'): V8Log {
  const codes = new Map<string, V8Code[]>();
  const scripts = new Map<number, V8Script>();
  // The newest code-creation at each address (code-source-info follows it), and each function's
  // name and script by its SharedFunctionInfo (the inlined functions are named by it).
  const created = new Map<string, { address: number; size: number; name: string; tier: string; sfi: string | null }>();
  const sfis = new Map<string, { name: string; scriptId: number | null }>();
  const lines = text.split('\n');
  lines.pop();
  for (const [i, line] of lines.entries()) {
    const comma = line.indexOf(',');
    const event = comma < 0 ? line : line.slice(0, comma);
    if (event === 'code-creation') {
      const f = line.split(',');
      if (!CODE_CREATION_LINE.test(line)) {
        const got = CodeCreation.safeParse(f.slice(0, 7));
        if (!got.success) throw bad(file, i + 1, event, got.error.issues.map((x) => `field ${Number(x.path[0]) + 1}: ${x.message}`).join('; '));
      }
      const sfi = f[7] && HEX.test(f[7]) ? f[7].toLowerCase() : null;
      const name = unescapeV8(f[6]!);
      created.set(f[4]!.toLowerCase(), { address: parseInt(f[4]!, 16), size: Number(f[5]), name, tier: f[8] ?? '', sfi });
      if (sfi) sfis.set(sfi, { name, scriptId: sfis.get(sfi)?.scriptId ?? null });
    } else if (event === 'code-source-info') {
      const fields = line.split(',');
      if (!CODE_SOURCE_INFO_LINE.test(line)) {
        const got = CodeSourceInfo.safeParse(fields);
        if (!got.success) throw bad(file, i + 1, event, got.error.issues.map((x) => `field ${Number(x.path[0]) + 1}: ${x.message}`).join('; '));
      }
      const [, addr, script, , , pos, inl, fns] = fields as z.infer<typeof CodeSourceInfo>;
      const c = created.get(addr.toLowerCase());
      if (!c) continue; // code logged before the log began (none with --log-code from the start)
      const scriptId = Number(script);
      // Without script-source lines, a script is known by the path in its functions' names.
      if (!scripts.has(scriptId)) {
        const path = /(?:^| )(\S+):\d+:\d+$/.exec(c.name)?.[1];
        if (path) scripts.set(scriptId, { name: path });
      }
      if (c.sfi) sfis.set(c.sfi, { name: c.name, scriptId });
      // Interpreted code's positions are by bytecode offset (callgrind never runs a bytecode array),
      // baseline code has none here: no positions per instruction.
      if (pos === '' || c.tier === '~') continue;
      const inlined = [...fns.matchAll(/S(0x[0-9a-f]+)/gi)].map((m) => sfis.get(m[1]!.toLowerCase()) ?? { name: '', scriptId: null });
      const positions = readPositions(pos);
      const inlinings = [...inl.matchAll(/F(\d+)O(-?\d+)(?:I(\d+))?/g)].map((m) => {
        const fn = inlined[Number(m[1])];
        if (!fn) throw bad(file, i + 1, event, `inlining names function ${m[1]} of ${inlined.length}`);
        return { ...fn, callOffset: Number(m[2]), parent: m[3] === undefined ? -1 : Number(m[3]) };
      });
      if (positions.some((p) => p.inlining >= inlinings.length))
        throw bad(file, i + 1, event, `a position names an inlining past the ${inlinings.length} listed`);
      positions.sort((a, b) => a.pc - b.pc);
      const key = `${c.address}:${c.size}`;
      const list = codes.get(key) ?? [];
      list.push({ address: c.address, size: c.size, name: c.name, tier: c.tier, scriptId, positions, inlinings });
      codes.set(key, list);
    } else if (event === 'script-source') {
      const second = line.indexOf(',', comma + 1);
      const third = second < 0 ? -1 : line.indexOf(',', second + 1);
      const id = Number(line.slice(comma + 1, second));
      if (third < 0 || !Number.isInteger(id)) throw bad(file, i + 1, event, 'expected script-source,<id>,<name>,<source>');
      scripts.set(id, { name: unescapeV8(line.slice(second + 1, third)), escaped: line.slice(third + 1) });
    } else if (event === 'sfi-move') {
      const [, from, to] = line.split(',');
      const had = from ? sfis.get(from.toLowerCase()) : undefined;
      if (had && to) sfis.set(to.toLowerCase(), had);
    }
  }
  return { codes, scripts };
}

/** The code object at `address` with `size` (a perf map entry's), the `rank`-th so made (0 the first), or null. */
export function codeAt(logs: readonly V8Log[], address: number, size: number, rank: number): { log: V8Log; code: V8Code } | null {
  let left = rank;
  for (const log of logs) {
    const list = log.codes.get(`${address}:${size}`) ?? [];
    if (left < list.length) return { log, code: list[left]! };
    left -= list.length;
  }
  return null;
}

/** The script a function's log name (`name path:line:column`) is in, where its SharedFunctionInfo gave no script id. */
function scriptNamed(log: V8Log, name: string): V8Script | undefined {
  const path = /(?:^| )(\S+):\d+:\d+$/.exec(name)?.[1];
  if (!path) return undefined;
  for (const s of log.scripts.values()) if (s.name === path) return s;
  return undefined;
}

/**
 * The frames of the instruction at `pc` (offset from the code's start), innermost first, down to
 * the code's own function; empty where the code has no position at or before `pc`.
 */
export function framesAt(log: V8Log, code: V8Code, pc: number): SourceFrame[] {
  const ps = code.positions;
  const lo = countAtMost(ps.length, (i) => ps[i]!.pc, pc);
  if (lo === 0) return [];
  const at = ps[lo - 1]!;
  const frame = (name: string, scriptId: number | null, offset: number): SourceFrame => {
    const s = scriptId === null ? scriptNamed(log, name) : log.scripts.get(scriptId);
    const starts = s && offset >= 0 ? scriptLines(s) : null;
    return { name, script: s?.name ?? null, line: starts ? lineOf(starts, offset) : null };
  };
  const frames: SourceFrame[] = [];
  let offset = at.offset;
  let id = at.inlining;
  for (let guard = 0; id >= 0 && guard <= code.inlinings.length; guard++) {
    const inl = code.inlinings[id]!;
    frames.push(frame(inl.name, inl.scriptId, offset));
    offset = inl.callOffset;
    id = inl.parent;
  }
  frames.push(frame(code.name, code.scriptId, offset));
  return frames;
}
