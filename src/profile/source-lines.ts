// Source lines of a client function: where in its source its instructions went, from the dumps'
// line records (callgrind-read.ts `lines`). A line's cost is the function's own instructions there
// plus the calls made from there into code outside the client (the allocator, memcpy, the
// runtime), as the client list folds them (fold.ts) but exactly by call site. A line in code
// rustc or Go inlined into the function carries the inlined code's own file and line. Paths are
// shown from the client's source root (`src/swarm/bmt.rs`, `pkg/swarm/bmt.go`), dependencies
// from their crate or module, never as a path of the machine. Base and head are compared by the
// line's place in the source: when both sides' files can be read and differ, lines are matched
// through a line diff of the two texts, so an inserted line shows as the moved one and the lines
// below it are not all renumbered changes.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { childEnv } from '../child/env.js';
import type { Runner } from '../spec/schema.js';
import { splitLineKey, type LineCost } from './callgrind-read.js';
import { isClientOwn } from './names.js';
import type { RowProfile } from './row-profile.js';
import { packageLookup, readablePath } from './v8-symbols.js';

/** Moved lines kept per client function in diff.json (the comment shows the first three). */
export const LINES_PER_FUNCTION = 5;
/** Longest file path shown. */
export const PATH_CHARS = 160;

const GO_CLIENT = /^github\.com\/ethswarm-tools\/bee-go(?:@[^/]+)?\//;

/** One side's cost by source line of a client function: shown path, line, instructions per iteration. */
export interface SourceLines {
  /** Instructions per iteration by `path:line` key (lineId). */
  cost: Map<string, number>;
  /** Each shown path's text where it could be read (for matching lines across base and head), else null. */
  texts: Map<string, string | null>;
  /** The function holding a line where the binary's inlined frames named it (inlinedFrames), by lineId. */
  named?: Map<string, string>;
  runner: Runner;
}

export const lineId = (path: string, line: number): string => `${path}:${line}`;
const splitLineId = (id: string) => {
  const at = id.lastIndexOf(':');
  return { path: id.slice(0, at), line: Number(id.slice(at + 1)) };
};

const cut = (s: string) => (s.length > PATH_CHARS ? `…${s.slice(s.length - PATH_CHARS + 1)}` : s);

/** The nearest folder at or above `dir` holding `file`, or null. */
function rootWith(dir: string, file: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, file))) return d;
    if (dirname(d) === d) return null;
  }
}

/**
 * A source file as shown and where it can be read. rs: the bee-rs crate's files from its root
 * (`src/swarm/bmt.rs`, found by its Cargo.toml), the standard library's from `library/`, other
 * crates' as `crate-version/…`. go: `-trimpath` already writes module paths; bee-go's are shown
 * from its module root, read from the checkout the build's go.mod replaces it with (the runner's
 * binary is an object of the dump) or from the module cache.
 */
export function sourceFile(
  runner: Runner,
  written: string,
  objects: ReadonlySet<string>,
  modCache: () => string | null,
): { shown: string; path: string | null; own: boolean } {
  if (runner === 'js') return jsSourceFile(written);
  // valgrind puts the compilation folder before a relative name: `./` for -trimpath's.
  const raw = written.replace(/^(?:\.\/)+/, '');
  if (runner === 'go') {
    const m = GO_CLIENT.exec(raw);
    if (!m) return { shown: cut(raw), path: null, own: false };
    const rest = raw.slice(m[0].length);
    for (const o of objects) {
      const goMod = join(dirname(o), 'go.mod');
      if (!existsSync(goMod)) continue;
      const replaced = /^replace\s+github\.com\/ethswarm-tools\/bee-go\b.*=>\s*(\S+)\s*$/m.exec(readFileSync(goMod, 'utf8'))?.[1];
      if (replaced) return { shown: cut(rest), path: join(replaced, rest), own: true };
    }
    const cache = modCache();
    return { shown: cut(rest), path: cache && raw.includes('@') ? join(cache, raw) : null, own: true };
  }
  const std = /\/rustc\/[0-9a-f]+\/(library\/.*)$/.exec(raw);
  if (std) return { shown: cut(std[1]!), path: null, own: false };
  if (!raw.startsWith('/')) return { shown: cut(raw), path: null, own: false };
  const root = rootWith(dirname(raw), 'Cargo.toml');
  if (!root) return { shown: cut(basename(raw)), path: null, own: false };
  const manifest = readFileSync(join(root, 'Cargo.toml'), 'utf8');
  const isClient = /^\s*name\s*=\s*"bee-rs"\s*$/m.test(manifest);
  const rel = relative(root, raw);
  return { shown: cut(isClient ? rel : `${basename(root)}/${rel}`), path: raw, own: isClient };
}

/** bee-js's and cafe-utility's scripts: the client's (names.ts). */
const JS_CLIENT = /^(?:@ethersphere\/bee-js|cafe-utility)\//;
const jsPackages = packageLookup();

/**
 * bee-js: a script as V8's code log names it (an absolute path, a `file://` URL, `node:…`), shown
 * from its package as function names show it (`@ethersphere/bee-js/dist/mjs/chunk/bmt.js`,
 * `cafe-utility/index.js`; v8-symbols.ts readablePath), a script in no package by its file name.
 */
function jsSourceFile(written: string): { shown: string; path: string | null; own: boolean } {
  const plain = written.startsWith('file://') ? decodeURIComponent(written.slice('file://'.length)) : written;
  const readable = readablePath(plain, jsPackages);
  const shown = readable.startsWith('/') ? basename(readable) : readable;
  return { shown: cut(shown), path: plain.startsWith('/') ? plain : null, own: JS_CLIENT.test(readable) };
}

/** Go's module cache as go finds it without asking go: GOMODCACHE, else GOPATH's first entry, else ~/go (pkg/mod). */
let goModCache: string | null | undefined;
function moduleCache(): string | null {
  if (goModCache === undefined) {
    const env = process.env.GOMODCACHE ?? (process.env.GOPATH ? join(process.env.GOPATH.split(':')[0]!, 'pkg', 'mod') : null);
    goModCache = env ?? (process.env.HOME ? join(process.env.HOME, 'go', 'pkg', 'mod') : null);
  }
  return goModCache;
}

/** A source place: a file as the line tables write it, a line, and the function the line is in. */
interface Frame {
  file: string;
  line: number;
  function: string;
}

/**
 * The frames each instruction address was inlined through, innermost first (binutils'
 * `addr2line -i -f -C`, one run per object for every address asked): where the line tables give
 * only the innermost place (`library/alloc/src/alloc.rs:95`), this finds the client's line the
 * inlined code came from and the function it is in. Addresses are the object's own (callgrind
 * writes them so for the runner's binary, position-independent or not). Empty where addr2line
 * is missing or fails: the innermost place stands.
 */
export function inlinedFrames(object: string, addresses: readonly number[]): Map<number, Frame[]> {
  const out = new Map<number, Frame[]>();
  if (addresses.length === 0 || !existsSync(object)) return out;
  let text: string;
  try {
    text = execFileSync('addr2line', ['-i', '-f', '-C', '-a', '-e', object], {
      input: addresses.map((a) => `0x${a.toString(16)}`).join('\n'),
      encoding: 'utf8',
      maxBuffer: 256 << 20,
      stdio: ['pipe', 'pipe', 'ignore'],
      env: childEnv(),
    });
  } catch {
    return out;
  }
  let frames: Frame[] | null = null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^0x[0-9a-f]+$/.test(l)) {
      out.set(parseInt(l, 16), (frames = []));
      continue;
    }
    const place = /^(.*):(\d+)(?: \(discriminator \d+\))?$/.exec(lines[i + 1] ?? '');
    if (frames && l !== '' && place) {
      if (place[1] !== '??' && Number(place[2]) > 0) frames.push({ function: l, file: place[1]!, line: Number(place[2]) });
      i++;
    }
  }
  return out;
}

/** Levels of outside callees searched for the client's own source lines (code inlined into them). */
const SURFACE_DEPTH = 4;

/** Where a profile's lines are in the client's source (placer), made once per profile. */
interface Placer {
  isClient: (fn: string) => boolean;
  /** A line as the client's source holds it: itself, or the client's line its code was inlined from (with that function's name). */
  place: (key: string, l: LineCost) => { src: { shown: string; own: boolean }; line: number; function?: string };
  /** The shown files' texts, where they could be read. */
  texts: Map<string, string | null>;
}
const placers = new WeakMap<RowProfile, Placer>();

/**
 * The profile's lines placed in the client's source. Lines outside it that have an address are
 * traced through their inlined frames to the client's line they came from, where there is one
 * (the innermost frame in the client's source); only the client's functions and the outside
 * callees they reach within SURFACE_DEPTH are asked (one addr2line per object).
 */
export function placer(p: RowProfile): Placer {
  const known = placers.get(p);
  if (known) return known;
  const files = new Map<string, { shown: string; path: string | null; own: boolean }>();
  const texts = new Map<string, string | null>();
  const client = new Map<string, boolean>();
  const isClient = (fn: string) => client.get(fn) ?? client.set(fn, isClientOwn(p.runner, fn, p.functions.get(fn)?.file ?? '')).get(fn)!;
  const fileOf = (file: string) => {
    let src = files.get(file);
    if (!src) files.set(file, (src = sourceFile(p.runner, file, p.objects, moduleCache)));
    if (!texts.has(src.shown)) texts.set(src.shown, readText(src.path));
    return src;
  };
  const reached = new Set<string>();
  let level = [...p.functions.keys()].filter(isClient);
  for (let depth = 0; depth <= SURFACE_DEPTH && level.length > 0; depth++) {
    for (const fn of level) reached.add(fn);
    level = level.flatMap((fn) => [...(p.edges.get(fn)?.keys() ?? [])]).filter((fn) => !reached.has(fn) && !isClient(fn));
  }
  const asked = new Map<string, Set<number>>();
  // bee-js: JIT code is placed from V8's code log when read; node's binary has no inlined frames to ask for.
  if (p.runner !== 'js')
    for (const fn of reached)
      for (const [key, l] of p.functions.get(fn)?.lines ?? [])
        if (l.at && !fileOf(splitLineKey(key).file).own) asked.set(l.at.object, (asked.get(l.at.object) ?? new Set()).add(l.at.address));
  const traced = new Map<string, Map<number, Frame[]>>([...asked].map(([object, addresses]) => [object, inlinedFrames(object, [...addresses])]));
  const place: Placer['place'] = (key, l) => {
    const { file, line } = splitLineKey(key);
    const src = fileOf(file);
    // bee-js: the function V8's code log says holds the line.
    if (l.frame) return { src, line, function: l.frame };
    if (src.own || !l.at) return { src, line };
    for (const frame of traced.get(l.at.object)?.get(l.at.address) ?? []) {
      const inner = fileOf(frame.file);
      if (inner.own) return { src: inner, line: frame.line, function: frame.function };
    }
    return { src, line };
  };
  const made = { isClient, place, texts };
  placers.set(p, made);
  return made;
}

/**
 * The client functions' cost by source line, by function as the profile names it: own
 * instructions at the line, plus calls from it into functions outside the client. Where such a
 * callee holds lines of the client's own source (a client closure inlined into a library's generic
 * code: bee-rs's BMT closure inside `<Map<I,F> as Iterator>::fold`), those lines come up to the
 * calling function, in proportion to the calls' share of the callee's cost, through up to
 * SURFACE_DEPTH outside callees; the rest of the call stays at its call site. Functions without
 * line records (JIT code, a dump without lines) have none.
 */
export function clientSourceLines(p: RowProfile): Map<string, SourceLines> {
  const out = new Map<string, SourceLines>();
  const { isClient, place, texts } = placer(p);
  // An outside function's whole cost split into the client's source lines it holds (its own and
  // its outside callees', scaled) and what runs in client functions it calls; the rest is neither.
  const under = new Map<string, { lines: Map<string, number>; client: number }>();
  // Lines whose function the inlined frames named (addr2line), by lineId.
  const named = new Map<string, string>();
  const surfaced = (fn: string, depth: number, path: Set<string>): { lines: Map<string, number>; client: number } => {
    const known = under.get(fn);
    if (known) return known;
    const found = { lines: new Map<string, number>(), client: 0 };
    const f = p.functions.get(fn);
    if (!f || depth > SURFACE_DEPTH || path.has(fn)) return found;
    const next = new Set(path).add(fn);
    for (const [key, l] of f.lines) {
      const { src, line, function: inlined } = place(key, l);
      if (inlined) named.set(lineId(src.shown, line), inlined);
      // A line of the client's source: its own cost and its calls out are that line's.
      let here = src.own ? l.self : 0;
      for (const [callee, c] of l.calls) {
        if (isClient(callee)) {
          found.client += c;
          continue;
        }
        if (src.own) {
          here += c;
          continue;
        }
        const whole = p.functions.get(callee)?.inclusive ?? 0;
        if (whole <= 0) continue;
        const below = surfaced(callee, depth + 1, next);
        const share = Math.min(1, c / whole);
        for (const [id, ir] of below.lines) found.lines.set(id, (found.lines.get(id) ?? 0) + ir * share);
        found.client += below.client * share;
      }
      if (here !== 0) found.lines.set(lineId(src.shown, line), (found.lines.get(lineId(src.shown, line)) ?? 0) + here);
    }
    if (depth === 1) under.set(fn, found);
    return found;
  };
  for (const f of p.functions.values()) {
    if (f.lines.size === 0 || !isClient(f.name)) continue;
    const cost = new Map<string, number>();
    const add = (id: string, ir: number) => cost.set(id, (cost.get(id) ?? 0) + ir);
    for (const [key, l] of f.lines) {
      const { src, line, function: inlined } = place(key, l);
      const here = lineId(src.shown, line);
      if (inlined) named.set(here, inlined);
      let ir = l.self;
      for (const [callee, c] of l.calls) {
        if (isClient(callee)) continue;
        const whole = p.functions.get(callee)?.inclusive ?? 0;
        const below = whole > 0 ? surfaced(callee, 1, new Set([f.name])) : { lines: new Map<string, number>(), client: 0 };
        const share = whole > 0 ? Math.min(1, c / whole) : 0;
        let rest = c - below.client * share;
        for (const [id, ir2] of below.lines) {
          add(id, ir2 * share);
          rest -= ir2 * share;
        }
        ir += Math.max(0, rest);
      }
      if (ir !== 0) add(here, ir);
    }
    for (const [id, ir] of cost) if (Math.abs(ir) < 1e-9) cost.delete(id);
    if (cost.size > 0) out.set(f.name, { cost, texts, named, runner: p.runner });
  }
  return out;
}

function readText(path: string | null): string | null {
  if (!path) return null;
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Files longer than this (after their common head and tail) are matched by line number only. */
const MATCH_LINES = 4000;

/**
 * Base line -> head line for the lines the two texts share (a longest common subsequence of the
 * lines between their common head and tail); lines of base not in head are absent.
 */
export function matchLines(base: string, head: string): Map<number, number> | null {
  const a = base.split('\n');
  const b = head.split('\n');
  const map = new Map<number, number>();
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) map.set(start + 1, ++start);
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) map.set(endA--, endB--);
  const n = endA - start;
  const m = endB - start;
  if (n > MATCH_LINES || m > MATCH_LINES) return null;
  // lcs[i][j]: the longest common subsequence of a[start+i..endA) and b[start+j..endB).
  const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[start + i] === b[start + j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[start + i] === b[start + j]) map.set(start + ++i, start + ++j);
    else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) i++;
    else j++;
  }
  return map;
}

/**
 * One moved line of a client function, numbered as head numbers it; `baseLine` where base numbered
 * it otherwise; `only` where one side's source has no such line (an edited or inserted line is
 * `head`'s only, the line it replaced `base`'s only, numbered as base numbers it).
 */
export interface MovedLine {
  file: string;
  line: number;
  /** The function whose source holds the line (enclosingFunction), where the source was read. */
  function?: string;
  baseLine?: number;
  only?: 'base' | 'head';
  base: number;
  head: number;
}

type Placed = Omit<MovedLine, 'base' | 'head'> & { ir: number };

/** A function's declaration line: Go's `func (r T) name(`, Rust's `pub(crate) async fn name<`. */
const DECLARATION: Partial<Record<Runner, RegExp>> = {
  go: /^func\s+(?:\([^)]*\)\s*)?([\p{L}_][\p{L}\p{N}_]*)/u,
  rs: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*fn\s+([\p{L}_][\p{L}\p{N}_]*)/u,
};
/** How far above a line its declaration is looked for. */
const DECLARATION_REACH = 400;

/**
 * The function whose source holds `line` of `text`: the nearest declaration above it (Go's
 * `func`, Rust's `fn`; a closure's line is its enclosing function's). A line of a listed function
 * that lies in another function's source is code inlined into it (rustc, Go's inliner): this names
 * it by its own function, from the source, where the binary's line tables give the line only.
 */
export function enclosingFunction(runner: Runner, text: string, line: number): string | undefined {
  const decl = DECLARATION[runner];
  if (!decl) return undefined;
  const lines = text.split('\n');
  for (let i = Math.min(line, lines.length) - 1; i >= Math.max(0, line - DECLARATION_REACH); i--) {
    const m = decl.exec(lines[i]!);
    if (m) return m[1];
  }
  return undefined;
}

/**
 * Each side's lines placed in head's numbering: where both sides' texts were read and differ,
 * through matchLines; identical or unreadable texts as numbered. Keyed by place, so a base and a
 * head line at one place meet; a side's line the other source lacks has a place of its own.
 */
function placed(base: SourceLines, head: SourceLines): { base: Map<string, Placed>; head: Map<string, Placed> } {
  const maps = new Map<string, { toHead: Map<number, number>; inHead: Set<number> } | null>();
  const mapOf = (path: string) => {
    if (!maps.has(path)) {
      const bt = base.texts.get(path);
      const ht = head.texts.get(path);
      const m = bt && ht && bt !== ht ? matchLines(bt, ht) : null;
      maps.set(path, m && { toHead: m, inHead: new Set(m.values()) });
    }
    return maps.get(path)!;
  };
  // `text`: a side's source and the line's number there, to name the function holding it.
  const put = (into: Map<string, Placed>, key: string, p: Placed, text: { side: SourceLines; line: number }) => {
    const had = into.get(key);
    if (had) return into.set(key, { ...had, ir: had.ir + p.ir });
    const source = text.side.texts.get(p.file);
    const declared = source ? enclosingFunction(text.side.runner, source, text.line) : undefined;
    const inlined = text.side.named?.get(lineId(p.file, text.line));
    // The line tables name a closure by itself (`{closure#1}`): its declaring function goes first.
    const fn = inlined?.startsWith('{') && declared ? `${declared}::${inlined}` : (inlined ?? declared);
    return into.set(key, fn ? { ...p, function: fn } : p);
  };
  const out = { base: new Map<string, Placed>(), head: new Map<string, Placed>() };
  for (const [id, ir] of head.cost) {
    const { path, line } = splitLineId(id);
    const m = mapOf(path);
    put(
      out.head,
      m && !m.inHead.has(line) ? `+${id}` : id,
      { file: path, line, ...(m && !m.inHead.has(line) ? { only: 'head' as const } : {}), ir },
      { side: head, line },
    );
  }
  for (const [id, ir] of base.cost) {
    const { path, line } = splitLineId(id);
    const m = mapOf(path);
    const to = m ? m.toHead.get(line) : line;
    if (to === undefined) put(out.base, `-${id}`, { file: path, line, only: 'base', ir }, { side: base, line });
    else put(out.base, lineId(path, to), { file: path, line: to, ...(to !== line ? { baseLine: line } : {}), ir }, { side: base, line });
  }
  return out;
}

/**
 * The lines of one client function whose cost moved, head against base, largest first, at most
 * LINES_PER_FUNCTION; none under `floor` instructions, and with `again` (a second base process)
 * none that moved as much between the two base processes (diff.ts's rule for the lists).
 */
export function movedLines(base: SourceLines | undefined, head: SourceLines | undefined, floor: number, spreads: number, again?: SourceLines): MovedLine[] {
  const empty: SourceLines = { cost: new Map(), texts: new Map(), runner: (head ?? base)?.runner ?? 'rs' };
  const h = head ?? empty;
  const b = placed(base ?? empty, h);
  const a = again ? placed(again, h).base : null;
  const lines: Array<MovedLine & { again: number }> = [];
  for (const key of new Set([...b.head.keys(), ...b.base.keys()])) {
    const hl = b.head.get(key);
    const bl = b.base.get(key);
    const { ir: _ir, ...where } = (hl ?? bl)!;
    lines.push({
      ...where,
      ...(bl?.baseLine !== undefined ? { baseLine: bl.baseLine } : {}),
      base: bl?.ir ?? 0,
      head: hl?.ir ?? 0,
      again: a?.get(key)?.ir ?? 0,
    });
  }
  const least = Math.max(floor, 0.5);
  return lines
    .filter((l) => {
      const d = l.head - l.base;
      if (Math.abs(d) < least) return false;
      if (!a) return true;
      return Math.sign(l.head - l.again) === Math.sign(d) && Math.abs(l.head - l.again) >= least && Math.abs(d) >= spreads * Math.abs(l.again - l.base);
    })
    .sort((x, y) => Math.abs(y.head - y.base) - Math.abs(x.head - x.base))
    .slice(0, LINES_PER_FUNCTION)
    .map(({ again: _again, ...l }) => l);
}

/**
 * A profile's source files as shown (sourceFile), cached per file: what the written callgrind
 * file names them (callgrind-write.ts), so it carries no path of the machine. '' stays ''.
 */
export function shownFiles(p: Pick<RowProfile, 'runner' | 'objects'>): (raw: string) => string {
  const cache = new Map<string, string>();
  return (raw) => {
    if (raw === '' || raw === '???') return raw;
    let s = cache.get(raw);
    if (s === undefined) cache.set(raw, (s = sourceFile(p.runner, raw, p.objects, moduleCache).shown));
    return s;
  };
}
