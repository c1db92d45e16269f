// A row's compact profile: the head of each of its lists (own cost, the client's functions with
// outside callees folded in, allocation sites), small enough for a push run to keep beside its
// history record. An alert diffs two of them (the last good run's and the alerting run's) with the
// same difference as a PR (diff.ts diffLists), so the issue shows the comment's lists.
import { diffLists, sideLists, type SideLists } from './diff.js';
import type { RowProfile } from './row-profile.js';
import { COMPACT_CAPS, CompactProfileSchema, type CompactProfile, type ProfileDiff } from './schema.js';

/** The `n` largest of `m` at or above `floor`, and below what nothing was kept. */
function head(m: ReadonlyMap<string, number>, floor: number, n: number): { kept: Array<[string, number]>; cut: number } {
  const above = [...m].filter(([, v]) => v >= floor).sort((a, b) => b[1] - a[1]);
  const kept = above.slice(0, n);
  return { kept, cut: above.length > n ? kept.at(-1)![1] : floor };
}

/** The row's compact profile (COMPACT_CAPS), validated. */
export function compactProfile(p: RowProfile, row: { caseId: string; label: string }): CompactProfile {
  const lists = sideLists(p);
  const floor = COMPACT_CAPS.share * p.total;
  const self = head(lists.self, floor, COMPACT_CAPS.self);
  const own = head(new Map([...lists.own].map(([fn, l]) => [fn, l.cost])), floor, COMPACT_CAPS.own);
  // A site is kept from one call per iteration: the difference lists a site by its change in calls.
  const allocations = head(lists.allocations, 1, COMPACT_CAPS.allocations);
  return CompactProfileSchema.parse({
    caseId: row.caseId,
    label: row.label,
    runner: p.runner,
    total: p.total,
    iterations: p.iterations,
    cut: { self: self.cut, own: own.cut, allocations: allocations.cut },
    self: self.kept.map(([name, v]) => ({ name, self: v })),
    own: own.kept.map(([name, cost]) => {
      const l = lists.own.get(name)!;
      const via = head(l.via, 0, COMPACT_CAPS.via).kept.map(([callee, ir]) => ({ name: callee, ir }));
      return { name, cost, inclusive: l.inclusive, estimated: l.estimated, via };
    }),
    allocations: allocations.kept.map(([name, calls]) => ({ name, calls })),
  });
}

/** A compact profile's lists, for the difference. */
function compactLists(c: CompactProfile): SideLists {
  return {
    runner: c.runner,
    total: c.total,
    iterations: c.iterations,
    self: new Map(c.self.map((l) => [l.name, l.self])),
    own: new Map(
      c.own.map((l) => [l.name, { cost: l.cost, inclusive: l.inclusive, estimated: l.estimated ?? 0, via: new Map(l.via.map((v) => [v.name, v.ir])) }]),
    ),
    allocations: new Map(c.allocations.map((l) => [l.name, l.calls])),
    cut: c.cut,
  };
}

/**
 * Head against base from two runs' compact profiles of one row. A function one side did not keep
 * counts as 0 there (it was under that side's cut) and is not marked new or gone.
 */
export function diffCompact(base: CompactProfile, head: CompactProfile): ProfileDiff {
  return diffLists(compactLists(base), compactLists(head), { caseId: head.caseId, label: head.label });
}
