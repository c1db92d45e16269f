// bee-js's JIT code by name. Under callgrind, code V8 compiled at run time has no symbols:
// callgrind names it by the address where a call entered it, `0x0000000034061c80` (with `'2`, `'3`
// for recursion levels), and counts what it reaches from there by jumps under that name, so one
// name is one function's code; V8's builtins and runtime functions keep the node binary's symbols
// (`Builtins_CreateTypedArray`, `v8::internal::…`). With `--perf-basic-prof` (JS_NAMING_FLAGS in
// src/count/callgrind.ts) V8 appends a line `<hex start> <hex size> <name>` to
// `/tmp/perf-<pid>.map` for every piece of code it makes; this module joins the two.
//
//   const name = symbolizerFor([mapText]);    // one process's map (texts, not paths), oldest first
//   const name = dumpSymbolizer(dumpText, dumpDir);            // for a dump of a counting run
//   const forDump = dumpSymbolizers(dumpDir); forDump(dumpText) // many dumps, each map read once
//   name('0x0000000034061c80')                // 'log2Reduce cafe-utility/index.js'
//   name("0x0000000034061c80'2")              // "log2Reduce cafe-utility/index.js'2"
//   name('Builtins_CreateTypedArray')         // unchanged: not an address
//   name('0x0000000007c86aa0')                // unchanged: no code of the map covers it
//
// - JavaScript reads `functionName package/path` (anonymous: `(anonymous) package/path «source»
//   in outer`, outer the named function it is written in, js-enclosing.ts; readableName; no line number, which any change above the function moves): V8's kind and tier markers (`JS:*` optimized,
//   `^` baseline, `~` interpreted, `+` maglev) are dropped, so one function keeps one name as it
//   tiers up, and a path is cut to its package (`@ethersphere/bee-js/dist/mjs/chunk/bmt.js`,
//   `cafe-utility/index.js`, readablePath), so base and head, built in different folders, name a
//   function alike. Node's own stay `node:…`.
// - Code V8 made for a builtin (`Builtin:X`) reads `Builtins_X`, as its embedded copy does.
// - V8 reuses a freed address for later code: the newest line covering an address wins, so a
//   dump must be read with the map as it was when the dump was written. dumpSymbolizer does that
//   from the `perf-map=<bytes>` the bee-js runner appends to each dump's name.
// - One function can have several pieces of code (each tier, code replaced after a
//   deoptimization): they read as one name, so add their costs under it.
// - With V8's code log beside the dumps (v8-log.ts), a dump's symbolizer also places each JIT
//   instruction at a source line (`positions`, JitPlace): the log's code object for the perf-map
//   entry that covers it (same address and size, in order), its innermost frame in the client's
//   source, and for bee-js code V8 inlined into another package's code the bee-js function its
//   cost is charged to (callgrind-read.ts moves it there).
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { V8_LOG_NAME } from '../count/callgrind.js';
import { enclosingLookup, type EnclosingAt } from './js-enclosing.js';
import { codeAt, countAtMost, framesAt, parseV8Log, type V8Log } from './v8-log.js';

/** One line of a perf map: code at [start, start + size) named `name`. */
export interface PerfMapEntry {
  start: number;
  size: number;
  name: string;
}

const LINE = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/i;

/** The entries of a perf map's text, oldest first (complete lines only); `file` names it in errors. */
export function parsePerfMap(text: string, file = 'perf map'): PerfMapEntry[] {
  return readPerfMap(text, file).map(({ start, size, name }) => ({ start, size, name }));
}

/**
 * A perf map entry with the byte offset its line ends at (the map can be read as it was at any
 * length) and how many entries with its start and size came before it (V8's code log lists the
 * same code objects in the same order: v8-log.ts codeAt).
 */
interface WrittenEntry extends PerfMapEntry {
  end: number;
  rank: number;
}

function readPerfMap(text: string, file: string): WrittenEntry[] {
  const entries: WrittenEntry[] = [];
  const lines = text.split('\n');
  // A last line without its newline is one V8 was still writing when the process stopped.
  lines.pop();
  let end = 0;
  const seen = new Map<string, number>();
  // A map of ASCII only (V8's names of JavaScript functions may be any Unicode) has a byte per character.
  const ascii = Buffer.byteLength(text) === text.length;
  for (const [i, line] of lines.entries()) {
    end += (ascii ? line.length : Buffer.byteLength(line)) + 1;
    if (line === '') continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`${file}:${i + 1}: not a perf map line ('<hex start> <hex size> <name>'): ${JSON.stringify(line.slice(0, 120))}`);
    const start = parseInt(m[1]!, 16);
    const size = parseInt(m[2]!, 16);
    const rank = seen.get(`${start}:${size}`) ?? 0;
    seen.set(`${start}:${size}`, rank + 1);
    entries.push({ start, size, name: m[3]!, end, rank });
  }
  return entries;
}

// callgrind's name for code without symbols: the block's address (%#016lx), a recursion level.
const ADDRESS = /^0x([0-9a-f]+)((?:'\d+)?)$/;

/** Whether `fn` is callgrind's name for code it has no symbol for (an address). */
export const isAddress = (fn: string) => ADDRESS.test(fn);
// V8's name of a script function: kind, tier marker, name (may be empty), location.
const SCRIPT_CODE = /^(?:JS|Function|LazyCompile|Script|Eval):[*~^+]?(.*?) ?((?:file:\/\/|\/|node:)\S*?)(:\d+)(:\d+)?$/;

/** The `name` in the package.json nearest above `dir` with its folder, or null (cached per folder). */
export type PackageOf = (dir: string) => { name: string; dir: string } | null;

export function packageLookup(): PackageOf {
  const seen = new Map<string, { name: string; dir: string } | null>();
  const of: PackageOf = (dir) => {
    if (seen.has(dir)) return seen.get(dir)!;
    let found: { name: string; dir: string } | null = null;
    try {
      const name: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name;
      if (typeof name === 'string' && name !== '') found = { name, dir };
    } catch {
      // no package.json here, or not one with a name
    }
    if (!found && dirname(dir) !== dir) found = of(dirname(dir));
    seen.set(dir, found);
    return found;
  };
  return of;
}

/**
 * A script's location as users read it: the package it is in and its path there
 * (`@ethersphere/bee-js/dist/mjs/chunk/bmt.js`), from the last node_modules in the path or else
 * the nearest package.json's name (a linked checkout, the runner's own `bee-bench-runner-js/…`);
 * `node:…` and paths in no package as they are.
 */
export function readablePath(path: string, packageOf: PackageOf): string {
  const plain = path.startsWith('file://') ? decodeURIComponent(path.slice('file://'.length)) : path;
  if (!isAbsolute(plain)) return plain;
  const inModules = plain.lastIndexOf('/node_modules/');
  if (inModules >= 0) return plain.slice(inModules + '/node_modules/'.length);
  const pkg = packageOf(dirname(plain));
  return pkg ? `${pkg.name}/${relative(pkg.dir, plain)}` : plain;
}

/** The start of a script's line `line` (1-based) from `column` (1-based), or null (cached per file). */
export type SourceAt = (path: string, line: number, column: number) => string | null;

export function sourceLookup(): SourceAt {
  const files = new Map<string, string[] | null>();
  return (path, line, column) => {
    const plain = path.startsWith('file://') ? decodeURIComponent(path.slice('file://'.length)) : path;
    if (!isAbsolute(plain)) return null;
    if (!files.has(plain)) {
      try {
        files.set(plain, readFileSync(plain, 'utf8').split('\n'));
      } catch {
        files.set(plain, null);
      }
    }
    const text = files.get(plain)?.[line - 1]?.slice(column - 1);
    return text === undefined ? null : text;
  };
}

/** Characters of an anonymous function's source that name it. */
const SNIPPET_CHARS = 40;

/**
 * A perf map name as a profile shows it, with no line number: a change above a function moves
 * its line, and base and head must still name it alike (or the diff shows it as new in head and
 * gone from base, each with its whole cost). A named function is `name package/path`; an
 * anonymous one is told from the others in its file by the start of its source,
 * `(anonymous) package/path «(a, b) => Binary.keccak256(…»`, or by line and column where its
 * file cannot be read; ` in f` ends it when `enclosingAt` finds the named function `f` it is
 * written in (fold.ts lists a callback's cost under `f`).
 */
export function readableName(v8Name: string, packageOf: PackageOf, sourceAt: SourceAt = sourceLookup(), enclosingAt: EnclosingAt = () => null): string {
  const script = SCRIPT_CODE.exec(v8Name);
  if (script) {
    const [, fn, path, line, column] = script;
    const where = readablePath(path!, packageOf);
    if (fn) return `${fn} ${where}`;
    const text = column ? sourceAt(path!, Number(line!.slice(1)), Number(column.slice(1))) : null;
    if (!text?.trim()) return `(anonymous) ${where}${line}${column ?? ''}`;
    const flat = text.trim().replace(/\s+/g, ' ');
    const snippet = `(anonymous) ${where} «${flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS - 1)}…` : flat}»`;
    // The named function it is written in (js-enclosing.ts): folding lists a callback's cost there.
    const outer = enclosingAt(path!, Number(line!.slice(1)), Number(column!.slice(1)));
    return outer ? `${snippet} in ${outer}` : snippet;
  }
  if (v8Name.startsWith('Builtin:')) return `Builtins_${v8Name.slice('Builtin:'.length)}`;
  return v8Name;
}

/**
 * A function from callgrind's names to readable ones (see the top of this file): addresses that
 * code in `perfMaps` covers get that code's name, newest line first; every other name is returned
 * as it is. `perfMaps` are map texts of one process, oldest first; `packageOf` finds a script's
 * package (by default from the package.json files on the machine that reads the dumps, where the run's builds are).
 */
export function symbolizerFor(perfMaps: string[], packageOf: PackageOf = packageLookup()): NamingSymbolizer {
  const entries = perfMaps.flatMap((text, i) => readPerfMap(text, `perf map ${i + 1}`));
  return symbolizerOver(entries, entries.length, packageOf);
}

/**
 * Where a perf map name says its function starts (`path:line:column` after the name), the path as
 * readablePath shows it; null for code with no script position (builtins, stubs). This is the only
 * source position V8's perf map gives: none per instruction.
 */
export function startOf(v8Name: string, packageOf: PackageOf): { file: string; line: number } | null {
  const script = SCRIPT_CODE.exec(v8Name);
  if (!script) return null;
  const path = readablePath(script[2]!, packageOf);
  // A script in no package keeps only its file's name: no path of the machine is shown.
  const file = isAbsolute(path) ? basename(path) : path;
  return { file: file.length > START_PATH_CHARS ? `…${file.slice(file.length - START_PATH_CHARS + 1)}` : file, line: Number(script[3]!.slice(1)) };
}

/** Longest start path kept (the profile schema's path cap). */
const START_PATH_CHARS = 160;

/**
 * Where an instruction of JIT code came from in the client's source, from V8's code log
 * (v8-log.ts): the innermost frame of its inlining stack in bee-js's or cafe-utility's source.
 */
export interface JitPlace {
  /** The script as V8 names it (an absolute path or a `file://` URL). */
  file: string;
  line: number;
  /** The function whose source holds the line: its name, or for an anonymous one the named function it is written in. */
  function?: string;
  /**
   * Where that frame is bee-js's own, inlined into code of another package's function (a bee-js
   * callback V8 inlined into cafe-utility's `log2Reduce`): the bee-js function the instruction is
   * charged to, named as its own code would be, with ` [inlined in <host>]` after it.
   */
  charge?: string;
}

/**
 * A symbolizer, and where each JavaScript function it named starts (startOf), by the name it gave;
 * with V8's code log, `positions(fn, address)`: where the instruction at `address` of the JIT code
 * callgrind names `fn` came from (null where V8 gives no position: interpreted and baseline code,
 * builtins, or no frame in the client's source).
 */
export type NamingSymbolizer = ((fn: string) => string) & {
  starts: Map<string, { file: string; line: number }>;
  positions?: (fn: string, address: number) => JitPlace | null;
};

/** bee-js's own scripts, and the client's (bee-js and cafe-utility), by readablePath. */
const BEE_JS = /^@ethersphere\/bee-js\//;
const CLIENT = /^(?:@ethersphere\/bee-js|cafe-utility)\//;

/** The function part of a V8 log name (`log2Reduce /abs/index.js:2024:20` -> `log2Reduce`), '' for an anonymous one. */
const fnPart = (logName: string) => /^(.*?) ?(?:file:\/\/|\/|node:)\S*:\d+:\d+$/.exec(logName)?.[1] ?? '';
/** Where a V8 log name says its function starts: path, line, column. */
const startPart = (logName: string) => {
  const m = /((?:file:\/\/|\/|node:)\S*):(\d+):(\d+)$/.exec(logName);
  return m ? { path: m[1]!, line: Number(m[2]), column: Number(m[3]) } : null;
};

/**
 * What one process's symbolizers share (dumpSymbolizers): each map entry's name and start, and
 * each instruction's place by the entry holding it, are the same in every dump that reads that
 * entry; and a script's readable path and a frame's names are the same in any dump. A row's
 * three dumps of one process look most of the same instructions up.
 */
interface ProcessCache {
  names: Map<PerfMapEntry, { name: string; start: { file: string; line: number } | null }>;
  codes: Map<PerfMapEntry, ReturnType<typeof codeAt>>;
  places: Map<PerfMapEntry, Map<number, JitPlace | null>>;
  readable: Map<string, { path: string; client: boolean; own: boolean }>;
  named: Map<string, { fn?: string; charge: string }>;
}

const processCache = (): ProcessCache => ({ names: new Map(), codes: new Map(), places: new Map(), readable: new Map(), named: new Map() });

/** The symbolizer over the first `count` entries of a map. */
function symbolizerOver(
  entries: PerfMapEntry[],
  count: number,
  packageOf: PackageOf,
  sourceAt: SourceAt = sourceLookup(),
  enclosingAt: EnclosingAt = enclosingLookup(),
  logs: readonly V8Log[] = [],
  cache: ProcessCache = processCache(),
): NamingSymbolizer {
  const found = new Map<string, string | null>();
  const starts = new Map<string, { file: string; line: number }>();
  // The newest entry covering an address, through the entries sorted by start (made on first use):
  // every entry starting within the largest size below the address is a candidate. A scan of the
  // whole map per address was most of a bee-js profile's time once instructions were looked up.
  let byStart: number[] | null = null;
  let widest = 0;
  const entryAt = (address: number): WrittenEntry | PerfMapEntry | null => {
    if (!byStart) {
      byStart = Array.from({ length: count }, (_, i) => i).sort((a, b) => entries[a]!.start - entries[b]!.start || a - b);
      for (let i = 0; i < count; i++) widest = Math.max(widest, entries[i]!.size);
    }
    const order = byStart;
    const lo = countAtMost(order.length, (j) => entries[order[j]!]!.start, address);
    let best = -1;
    for (let j = lo - 1; j >= 0; j--) {
      const i = byStart[j]!;
      const e = entries[i]!;
      if (e.start + widest <= address) break;
      if (address < e.start + e.size && i > best) best = i;
    }
    return best < 0 ? null : entries[best]!;
  };
  const lookup = (address: number): string | null => {
    const e = entryAt(address);
    if (!e) return null;
    let got = cache.names.get(e);
    if (!got) cache.names.set(e, (got = { name: readableName(e.name, packageOf, sourceAt, enclosingAt), start: startOf(e.name, packageOf) }));
    if (got.start) starts.set(got.name, got.start);
    return got.name;
  };
  const symbolize = (fn: string) => {
    const m = ADDRESS.exec(fn);
    if (!m) return fn;
    const hex = m[1]!;
    if (!found.has(hex)) found.set(hex, lookup(parseInt(hex, 16)));
    const name = found.get(hex);
    return name === null || name === undefined ? fn : `${name}${m[2]}`;
  };
  if (logs.length === 0) return Object.assign(symbolize, { starts });
  // The code object callgrind's name enters (and any other an address lies in), its frames by pc.
  const entryOf = new Map<string, WrittenEntry | PerfMapEntry | null>();
  const { codes, readable, named } = cache;
  const scriptOf = (script: string) => {
    let r = readable.get(script);
    if (!r) {
      const path = readablePath(script, packageOf);
      readable.set(script, (r = { path, client: CLIENT.test(path), own: BEE_JS.test(path) }));
    }
    return r;
  };
  const nameOf = (logName: string, host: string) => {
    const key = `${logName}\u0001${host}`;
    let n = named.get(key);
    if (!n) {
      const fn = fnPart(logName);
      const start = startPart(logName);
      const outer = !fn && start ? enclosingAt(start.path, start.line, start.column) : null;
      n = {
        ...(fn || outer ? { fn: fn || outer! } : {}),
        charge: `${readableName(`JS:~${logName}`, packageOf, sourceAt, enclosingAt)} [inlined in ${fnPart(host) || '(anonymous)'}]`,
      };
      named.set(key, n);
    }
    return n;
  };
  // By address: a dump names the same instruction once per caller context it ran in.
  const placed = new Map<number, JitPlace | null>();
  const positions = (fn: string, address: number): JitPlace | null => {
    let p = placed.get(address);
    if (p === undefined) placed.set(address, (p = placeOf(fn, address)));
    return p;
  };
  const placeOf = (fn: string, address: number): JitPlace | null => {
    let e = entryOf.get(fn);
    if (e === undefined) {
      const m = ADDRESS.exec(fn);
      entryOf.set(fn, (e = m ? entryAt(parseInt(m[1]!, 16)) : null));
    }
    if (!e || address < e.start || address >= e.start + e.size) e = entryAt(address);
    if (!e || !('rank' in e)) return null;
    let inEntry = cache.places.get(e);
    if (!inEntry) cache.places.set(e, (inEntry = new Map()));
    let p = inEntry.get(address);
    if (p === undefined) inEntry.set(address, (p = placeIn(e, address)));
    return p;
  };
  /** The place of the instruction at `address` of the code the map's entry `e` names. */
  const placeIn = (e: WrittenEntry, address: number): JitPlace | null => {
    if (!codes.has(e)) codes.set(e, codeAt(logs, e.start, e.size, e.rank));
    const got = codes.get(e);
    if (!got) return null;
    const frames = framesAt(got.log, got.code, address - e.start).filter((f) => f.script !== null && f.line !== null && scriptOf(f.script).client);
    // The innermost bee-js frame, else the innermost of cafe-utility: code inlined into bee-js
    // code is placed at the bee-js line it was called from, as rs and go place a library's
    // inlined code at the client's line (source-lines.ts).
    const f = frames.find((x) => scriptOf(x.script!).own) ?? frames[0];
    if (!f) return null;
    const n = nameOf(f.name, got.code.name);
    const host = got.code.scriptId === null ? null : (got.log.scripts.get(got.code.scriptId)?.name ?? null);
    // bee-js code inlined into another package's code (with what V8 inlined into it in turn, as
    // its own compiled code would hold): charged to the bee-js function.
    const inLibrary = scriptOf(f.script!).own && !(host !== null && scriptOf(host).own);
    return { file: f.script!, line: f.line!, ...(n.fn ? { function: n.fn } : {}), ...(inLibrary ? { charge: n.charge } : {}) };
  };
  return Object.assign(symbolize, { starts, positions });
}

/** Where V8 writes process `pid`'s perf map (fixed in V8: LinuxPerfBasicLogger, no flag moves it). */
export const v8PerfMapPath = (pid: number) => `/tmp/perf-${pid}.map`;

/** The perf map of process `pid` as collectPerfMaps leaves it next to the dumps. */
export const perfMapFile = (dumpDir: string, pid: number) => join(dumpDir, `perf-${pid}.map`);

/**
 * Moves the perf map of every process that wrote a dump into `dumpDir` (callgrind names its
 * files `callgrind.out.<pid>[.<n>]`, and under valgrind the runner's pid is that of the process
 * valgrind started) and removes V8's file; returns the maps' new paths. Call it once the runner
 * has exited, also when it failed, so no map is left behind.
 */
export function collectPerfMaps(dumpDir: string): string[] {
  const pids = new Set(
    readdirSync(dumpDir)
      .map((f) => /^callgrind\.out\.(\d+)(?:\.\d+)?$/.exec(f)?.[1])
      .filter((pid): pid is string => pid !== undefined)
      .map(Number),
  );
  const moved: string[] = [];
  for (const pid of pids) {
    const from = v8PerfMapPath(pid);
    if (!existsSync(from)) continue;
    const to = perfMapFile(dumpDir, pid);
    try {
      renameSync(from, to);
    } catch {
      // Another file system: copy, then remove.
      copyFileSync(from, to);
      rmSync(from, { force: true });
    }
    moved.push(to);
  }
  return moved;
}

const PID = /^pid: (\d+)$/m;
const MAP_LENGTH = /^desc: Trigger: Client Request: .* perf-map=(\d+)$/m;

/**
 * Symbolizers for the callgrind dumps of a bee-js counting run in `dumpDir`, each process's perf
 * map (collectPerfMaps) read once: a dump's symbolizer uses its process's map as far as it was
 * written when the dump was (`perf-map=<bytes>`). Without a map every name stays as callgrind
 * wrote it.
 */
export function dumpSymbolizers(
  dumpDir: string,
  packageOf: PackageOf = packageLookup(),
): (dumpText: string) => ((fn: string) => string) & Partial<NamingSymbolizer> {
  const maps = new Map<string, WrittenEntry[] | null>();
  const logs = new Map<string, V8Log[]>();
  const caches = new Map<string, ProcessCache>();
  const sourceAt = sourceLookup();
  const enclosingAt = enclosingLookup();
  const mapOf = (pid: string) => {
    if (!maps.has(pid)) {
      const file = perfMapFile(dumpDir, Number(pid));
      maps.set(pid, existsSync(file) ? readPerfMap(readFileSync(file, 'utf8'), file) : null);
    }
    return maps.get(pid)!;
  };
  const logsOf = (pid: string) => {
    if (!logs.has(pid))
      logs.set(
        pid,
        v8LogFiles(dumpDir, Number(pid)).map((f) => parseV8Log(readFileSync(f, 'utf8'), f)),
      );
    return logs.get(pid)!;
  };
  return (dumpText) => {
    const pid = PID.exec(dumpText)?.[1];
    const entries = pid === undefined ? null : mapOf(pid);
    if (!entries) return (fn) => fn;
    const length = Number(MAP_LENGTH.exec(dumpText)?.[1] ?? Infinity);
    // Entries end in order: count those written by then.
    const written = countAtMost(entries.length, (i) => entries[i]!.end, length);
    if (!caches.has(pid!)) caches.set(pid!, processCache());
    return symbolizerOver(entries, written, packageOf, sourceAt, enclosingAt, logsOf(pid!), caches.get(pid!));
  };
}

/**
 * V8's code logs of process `pid` in `dumpDir`: one per isolate (the main thread's and each
 * worker's), `isolate-<address>-<pid>-v8.log` from the counting run's `--logfile=<dumpDir>/v8.log`
 * (src/count/callgrind.ts), in name order.
 */
export function v8LogFiles(dumpDir: string, pid: number): string[] {
  const name = new RegExp(`^isolate-0x[0-9a-f]+-${pid}-${V8_LOG_NAME.replace('.', '\\.')}$`);
  return readdirSync(dumpDir)
    .filter((f) => name.test(f))
    .sort()
    .map((f) => join(dumpDir, f));
}

/** The symbolizer for one dump of a bee-js counting run in `dumpDir` (dumpSymbolizers). */
export const dumpSymbolizer = (dumpText: string, dumpDir: string, packageOf: PackageOf = packageLookup()) => dumpSymbolizers(dumpDir, packageOf)(dumpText);
