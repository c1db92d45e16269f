// Head against base for one row: where the instructions went (functions by change in their own
// cost), which of the client's functions got dearer (callees outside the client folded in), and
// which allocation sites call the allocator more or less often. The result is data for the
// report (schema.ts): display names, figures per iteration, lists cut to LIST_LENGTH. Each side is
// first read into its lists (sideLists): a whole profile's, or a compact one from the history.
import type { Runner } from '../spec/schema.js';
import { NOISE_FLOOR, TOLERANCE_SPREADS } from '../verdict/steps.js';
import { allocationSites, foldIntoClient, listedUnder } from './fold.js';
import { displayName } from './names.js';
import type { RowProfile } from './row-profile.js';
import type { ProfileDiff, SelfLine } from './schema.js';
import { clientSourceLines, movedLines, type SourceLines } from './source-lines.js';

/** Lines kept per list: the comment shows the first five, the files have every function. */
export const LIST_LENGTH = 20;
/** Callees named after a client function's change. */
const VIA_NAMES = 3;

/**
 * A function's change is listed when it reaches the count verdict's noise floor, 0.05% of the
 * row: below it the row's own count does not resolve a change either. Two bee-go processes of
 * one build move single runtime functions by up to 0.007% of a row (stack growth, the scheduler)
 * and shift up to 0.017% between the client functions sharing a runtime callee (mallocgc's cost
 * per call varies, and a shared callee is split by calls); bee-rs repeats to the instruction.
 */
export const LISTED_SHARE = NOISE_FLOOR;

/**
 * A listed client function's source line is shown when its change reaches this share of the row
 * (a fifth of a function's floor: the function passed its own, its lines split it), and with a
 * second base process only when beyond both as the lists' lines are.
 */
export const LINE_SHARE = LISTED_SHARE / 5;

/** A site's change in calls is listed when it reaches this share of the row's calls into the allocator. */
export const ALLOCATION_SHARE = 1e-3;

/**
 * With a second base process, a line is listed only when head is beyond both base processes by its
 * floor, and its change is at least this many times what the line moves between the two (the count
 * verdict's TOLERANCE_SPREADS, per function). bee-js needs it: a process's allocator and heap slow
 * paths land on whichever function is running, so single functions move up to 0.05% of a row
 * between two processes of one build while the row's count moves 0.0005-0.016% (docs/profiles.md).
 */
export const AA_SPREADS = TOLERANCE_SPREADS;

/**
 * Top `n` of `lines` by the size of their change, largest first; none under `floor`, and with
 * `again` (the line's figure in the second base process) none within the base processes' noise.
 */
function top<T extends { base: number; head: number }>(lines: T[], floor: number, again?: (l: T) => number, n = LIST_LENGTH): T[] {
  const least = Math.max(floor, 0.5);
  const beyond = (l: T) => {
    if (Math.abs(l.head - l.base) < least) return false;
    if (!again) return true;
    const a = again(l);
    return (
      Math.sign(l.head - a) === Math.sign(l.head - l.base) && Math.abs(l.head - a) >= least && Math.abs(l.head - l.base) >= AA_SPREADS * Math.abs(a - l.base)
    );
  };
  return lines
    .filter(beyond)
    .sort((a, b) => Math.abs(b.head - b.base) - Math.abs(a.head - a.base))
    .slice(0, n);
}

const keys = (a: Map<string, unknown>, b: Map<string, unknown>) => [...new Set([...a.keys(), ...b.keys()])];

/**
 * One side of a difference, by display name: a whole row profile (sideLists) or a compact one a run
 * kept in the history (compact.ts). `cut`: a compact profile kept nothing below these amounts, so a
 * function missing there is not known to be new or gone (it counts as 0 and is not marked).
 */
export interface SideLists {
  runner: Runner;
  total: number;
  iterations: number;
  /** Own instructions per iteration. */
  self: Map<string, number>;
  /** The client's functions: callees outside the client folded in (cost), the inclusive cost, and the folded callees' shares. */
  own: Map<string, { cost: number; inclusive: number; via: Map<string, number>; estimated: number; start?: { file: string; line: number } }>;
  /** Calls into the allocator per iteration, by allocation site. */
  allocations: Map<string, number>;
  /** The client functions' cost by source line (source-lines.ts); absent where none was kept (a compact profile). */
  lines?: Map<string, SourceLines> | null;
  cut: { self: number; own: number; allocations: number } | null;
}

/** Adds `amount` under `key` (two symbols can show under one name: Go's ABI wrappers). */
const add = (m: Map<string, number>, key: string, amount: number) => m.set(key, (m.get(key) ?? 0) + amount);

/** A whole profile's lists under display names. */
export function sideLists(p: RowProfile): SideLists {
  const name = (fn: string) => displayName(p.runner, fn);
  const self = new Map<string, number>();
  for (const f of p.functions.values()) add(self, name(f.name), f.self);
  const own: SideLists['own'] = new Map();
  for (const [fn, f] of foldIntoClient(p)) {
    const line = own.get(name(fn)) ?? { cost: 0, inclusive: 0, via: new Map<string, number>(), estimated: 0 };
    line.cost += f.cost;
    line.estimated += f.estimated;
    line.inclusive += p.functions.get(fn)?.inclusive ?? 0;
    const start = p.functions.get(fn)?.start;
    if (start && !line.start) line.start = start;
    for (const [callee, ir] of f.via) add(line.via, name(callee), ir);
    own.set(name(fn), line);
  }
  const allocations = new Map<string, number>();
  for (const [fn, calls] of allocationSites(p)) add(allocations, name(fn), calls);
  const lines = new Map<string, SourceLines>();
  for (const [fn, l] of clientSourceLines(p)) {
    // bee-js: a callback's lines, and those of bee-js code V8 inlined into another package's
    // code, are listed with the function they are written in, as their cost is (fold.ts).
    const under = name(p.runner === 'js' ? listedUnder(p.runner, fn) : fn);
    const had = lines.get(under);
    if (!had) lines.set(under, { ...l, cost: new Map(l.cost) });
    else for (const [id, ir] of l.cost) had.cost.set(id, (had.cost.get(id) ?? 0) + ir);
  }
  return { runner: p.runner, total: p.total, iterations: p.iterations, self, own, allocations, lines, cut: null };
}

/** Head against base; `baseAgain`, a second process of base, keeps what moves between the two out of the lists. */
export function diffProfiles(base: RowProfile, head: RowProfile, row: { caseId: string; label: string }, baseAgain?: RowProfile | null): ProfileDiff {
  return diffLists(sideLists(base), sideLists(head), row, baseAgain ? sideLists(baseAgain) : undefined);
}

/** Head against base, from each side's lists (and a second base process's, when there is one). */
export function diffLists(base: SideLists, head: SideLists, row: { caseId: string; label: string }, again?: SideLists): ProfileDiff {
  const floor = LISTED_SHARE * Math.max(base.total, head.total);
  const calls = (s: SideLists) => [...s.allocations.values()].reduce((sum, n) => sum + n, 0);
  const allocationFloor = ALLOCATION_SHARE * Math.max(calls(base), calls(head));
  // new / gone only where the other side kept everything: a compact side may have left it out.
  const status = (inBase: boolean, inHead: boolean) =>
    !inBase && base.cut === null ? { status: 'new' as const } : !inHead && head.cut === null ? { status: 'gone' as const } : {};
  const selfLines: SelfLine[] = keys(base.self, head.self).map((fn) => ({
    name: fn,
    base: base.self.get(fn) ?? 0,
    head: head.self.get(fn) ?? 0,
    ...status(base.self.has(fn), head.self.has(fn)),
  }));
  const own = keys(base.own, head.own).map((fn) => {
    const b = base.own.get(fn);
    const h = head.own.get(fn);
    const change = (h?.cost ?? 0) - (b?.cost ?? 0);
    const via = keys(b?.via ?? new Map(), h?.via ?? new Map())
      .map((callee) => ({ callee, d: (h?.via.get(callee) ?? 0) - (b?.via.get(callee) ?? 0) }))
      .filter((v) => Math.round(v.d) !== 0 && Math.sign(v.d) === Math.sign(change))
      .sort((x, y) => Math.abs(y.d) - Math.abs(x.d))
      .slice(0, VIA_NAMES)
      .map((v) => v.callee);
    // Moved source lines, where both sides kept lines and the function has any (not JIT code).
    const lines =
      base.lines && head.lines && (base.lines.has(fn) || head.lines.has(fn))
        ? { lines: movedLines(base.lines.get(fn), head.lines.get(fn), LINE_SHARE * Math.max(base.total, head.total), AA_SPREADS, again?.lines?.get(fn)) }
        : {};
    return {
      name: fn,
      base: b?.cost ?? 0,
      head: h?.cost ?? 0,
      inclusiveBase: b?.inclusive ?? 0,
      inclusiveHead: h?.inclusive ?? 0,
      estimatedBase: b?.estimated ?? 0,
      estimatedHead: h?.estimated ?? 0,
      via,
      ...lines,
      // bee-js: where V8 says the function starts (head's, else base's), its only source position.
      ...((h?.start ?? b?.start) ? { start: h?.start ?? b?.start } : {}),
      ...status(Boolean(b), Boolean(h)),
    };
  });
  const allocations = keys(base.allocations, head.allocations).map((fn) => ({
    name: fn,
    base: base.allocations.get(fn) ?? 0,
    head: head.allocations.get(fn) ?? 0,
  }));
  return {
    caseId: row.caseId,
    label: row.label,
    runner: head.runner,
    total: { base: base.total, head: head.total },
    iterations: { base: base.iterations, head: head.iterations },
    self: top(selfLines, floor, again && ((l) => again.self.get(l.name) ?? 0)),
    own: top(own, floor, again && ((l) => again.own.get(l.name)?.cost ?? 0)),
    // Calls: a site's change must reach ALLOCATION_SHARE of the row's (bee-go moved a site by 1.3
    // calls in 6,000 between identical processes under callgrind; bee-js sites of V8's interpreter
    // by 0.5-1 call in 14,000-50,000, as a GC lands in one iteration or another), and one call per
    // iteration: code that allocates more does so in every iteration, where a slow path's
    // occasional call averages to a fraction (bee-js `identity.create`'s `modInverse`, 3.7 and 3.2
    // calls per iteration in two processes, in a row of a few hundred).
    allocations: top(allocations, Math.max(allocationFloor, 1), again && ((l) => again.allocations.get(l.name) ?? 0)),
  };
}
