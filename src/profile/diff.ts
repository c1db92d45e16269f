// Head against base for one row: where the instructions went (functions by change in their own
// cost), which of the client's functions got dearer (callees outside the client folded in), and
// which allocation sites call the allocator more or less often. The result is data for the
// report (schema.ts): display names, figures per iteration, lists cut to LIST_LENGTH.
import type { Runner } from '../spec/schema.js';
import { NOISE_FLOOR } from '../verdict/steps.js';
import { allocationSites, foldIntoClient } from './fold.js';
import { displayName } from './names.js';
import type { RowProfile } from './row-profile.js';
import type { ProfileDiff, SelfLine } from './schema.js';

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

/** A site's change in calls is listed when it reaches this share of its calls. */
export const ALLOCATION_SHARE = 1e-3;

/** Top `n` of `lines` by the size of their change, largest first; none under `floor`. */
function top<T extends { base: number; head: number }>(lines: T[], floor: (l: T) => number, n = LIST_LENGTH): T[] {
  return lines
    .filter((l) => Math.abs(l.head - l.base) >= Math.max(floor(l), 0.5))
    .sort((a, b) => Math.abs(b.head - b.base) - Math.abs(a.head - a.base))
    .slice(0, n);
}

const keys = (a: Map<string, unknown>, b: Map<string, unknown>) => [...new Set([...a.keys(), ...b.keys()])];

export function diffProfiles(base: RowProfile, head: RowProfile, row: { caseId: string; label: string }): ProfileDiff {
  const runner: Runner = head.runner;
  const name = (fn: string) => displayName(runner, fn);
  const floor = LISTED_SHARE * Math.max(base.total, head.total);
  const selfLines: SelfLine[] = keys(base.functions, head.functions).map((fn) => {
    const b = base.functions.get(fn);
    const h = head.functions.get(fn);
    return { name: name(fn), base: b?.self ?? 0, head: h?.self ?? 0, ...(b ? {} : { status: 'new' as const }), ...(h ? {} : { status: 'gone' as const }) };
  });
  const foldedBase = foldIntoClient(base);
  const foldedHead = foldIntoClient(head);
  const own = keys(foldedBase, foldedHead).map((fn) => {
    const b = foldedBase.get(fn);
    const h = foldedHead.get(fn);
    const change = h && b ? h.cost - b.cost : (h?.cost ?? 0) - (b?.cost ?? 0);
    const via = keys(b?.via ?? new Map(), h?.via ?? new Map())
      .map((callee) => ({ callee, d: (h?.via.get(callee) ?? 0) - (b?.via.get(callee) ?? 0) }))
      .filter((v) => Math.round(v.d) !== 0 && Math.sign(v.d) === Math.sign(change))
      .sort((x, y) => Math.abs(y.d) - Math.abs(x.d))
      .slice(0, VIA_NAMES)
      .map((v) => name(v.callee));
    return {
      name: name(fn),
      base: b?.cost ?? 0,
      head: h?.cost ?? 0,
      inclusiveBase: base.functions.get(fn)?.inclusive ?? 0,
      inclusiveHead: head.functions.get(fn)?.inclusive ?? 0,
      via,
      ...(b ? {} : { status: 'new' as const }),
      ...(h ? {} : { status: 'gone' as const }),
    };
  });
  const sitesBase = allocationSites(base);
  const sitesHead = allocationSites(head);
  const allocations = keys(sitesBase, sitesHead).map((fn) => ({ name: name(fn), base: sitesBase.get(fn) ?? 0, head: sitesHead.get(fn) ?? 0 }));
  return {
    caseId: row.caseId,
    label: row.label,
    runner,
    total: { base: base.total, head: head.total },
    iterations: { base: base.iterations, head: head.iterations },
    self: top(selfLines, () => floor),
    own: top(own, () => floor),
    // Calls: a site's change must reach ALLOCATION_SHARE of its calls (bee-go moved a site by
    // 1.3 calls in 6,000 between identical processes under callgrind).
    allocations: top(allocations, (l) => ALLOCATION_SHARE * Math.max(l.base, l.head)),
  };
}
