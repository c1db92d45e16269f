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
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { enclosingLookup, type EnclosingAt } from './js-enclosing.js';

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

/** A perf map entry with the byte offset its line ends at: the map can be read as it was at any length. */
interface WrittenEntry extends PerfMapEntry {
  end: number;
}

function readPerfMap(text: string, file: string): WrittenEntry[] {
  const entries: WrittenEntry[] = [];
  const lines = text.split('\n');
  // A last line without its newline is one V8 was still writing when the process stopped.
  lines.pop();
  let end = 0;
  for (const [i, line] of lines.entries()) {
    end += Buffer.byteLength(line) + 1;
    if (line === '') continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`${file}:${i + 1}: not a perf map line ('<hex start> <hex size> <name>'): ${JSON.stringify(line.slice(0, 120))}`);
    entries.push({ start: parseInt(m[1]!, 16), size: parseInt(m[2]!, 16), name: m[3]!, end });
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

/** A symbolizer, and where each JavaScript function it named starts (startOf), by the name it gave. */
export type NamingSymbolizer = ((fn: string) => string) & { starts: Map<string, { file: string; line: number }> };

/** The symbolizer over the first `count` entries of a map. */
function symbolizerOver(
  entries: PerfMapEntry[],
  count: number,
  packageOf: PackageOf,
  sourceAt: SourceAt = sourceLookup(),
  enclosingAt: EnclosingAt = enclosingLookup(),
): NamingSymbolizer {
  const found = new Map<string, string | null>();
  const starts = new Map<string, { file: string; line: number }>();
  const lookup = (address: number): string | null => {
    for (let i = count - 1; i >= 0; i--) {
      const e = entries[i]!;
      if (address >= e.start && address < e.start + e.size) {
        const name = readableName(e.name, packageOf, sourceAt, enclosingAt);
        const start = startOf(e.name, packageOf);
        if (start) starts.set(name, start);
        return name;
      }
    }
    return null;
  };
  const symbolize = (fn: string) => {
    const m = ADDRESS.exec(fn);
    if (!m) return fn;
    const hex = m[1]!;
    if (!found.has(hex)) found.set(hex, lookup(parseInt(hex, 16)));
    const name = found.get(hex);
    return name === null || name === undefined ? fn : `${name}${m[2]}`;
  };
  return Object.assign(symbolize, { starts });
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
  const sourceAt = sourceLookup();
  const enclosingAt = enclosingLookup();
  const mapOf = (pid: string) => {
    if (!maps.has(pid)) {
      const file = perfMapFile(dumpDir, Number(pid));
      maps.set(pid, existsSync(file) ? readPerfMap(readFileSync(file, 'utf8'), file) : null);
    }
    return maps.get(pid)!;
  };
  return (dumpText) => {
    const pid = PID.exec(dumpText)?.[1];
    const entries = pid === undefined ? null : mapOf(pid);
    if (!entries) return (fn) => fn;
    const length = Number(MAP_LENGTH.exec(dumpText)?.[1] ?? Infinity);
    // Entries end in order: count those written by then.
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (entries[mid]!.end <= length) lo = mid + 1;
      else hi = mid;
    }
    return symbolizerOver(entries, lo, packageOf, sourceAt, enclosingAt);
  };
}

/** The symbolizer for one dump of a bee-js counting run in `dumpDir` (dumpSymbolizers). */
export const dumpSymbolizer = (dumpText: string, dumpDir: string, packageOf: PackageOf = packageLookup()) => dumpSymbolizers(dumpDir, packageOf)(dumpText);
