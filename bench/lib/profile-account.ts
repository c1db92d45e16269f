// How a row's difference, head against base, spreads over its functions: for the measured checks
// of docs/profiles.md (bench/profile-check.ts) and the bee-js profile test. The product's lists
// (src/profile/diff.ts) cut at the noise floor; this looks at every function.
import { foldIntoClient } from '../../src/profile/fold.js';
import { displayName } from '../../src/profile/names.js';
import type { RowProfile } from '../../src/profile/row-profile.js';
import { isAddress } from '../../src/profile/v8-symbols.js';

export interface ProfileAccount {
  /** Instructions per iteration, by side. */
  total: { base: number; head: number };
  /** The function whose own instructions moved most, and by how much (signed). */
  largestSelf: { name: string; change: number };
  /** The client function whose folded cost (outside callees folded in) moved most. */
  largestOwn: { name: string; change: number };
  /**
   * The client's functions by folded change, largest rise first (the comment's second list, uncut),
   * with the part of the change split by proportion (callees whose recorded callers reach no client function).
   */
  own: Array<{ name: string; change: number; estimated: number }>;
  /** Of the summed |change| of every function's own instructions, the share under a name (not an address). */
  namedShare: number;
  /** The client's functions' summed folded change over the row's change: how much of it they explain. */
  ownShare: number;
}

const keys = (a: Map<string, unknown>, b: Map<string, unknown>) => [...new Set([...a.keys(), ...b.keys()])];

export function accountFor(base: RowProfile, head: RowProfile): ProfileAccount {
  const name = (fn: string) => displayName(head.runner, fn);
  const self = keys(base.functions, head.functions).map((fn) => ({
    fn,
    change: (head.functions.get(fn)?.self ?? 0) - (base.functions.get(fn)?.self ?? 0),
  }));
  const moved = self.reduce((s, l) => s + Math.abs(l.change), 0);
  const named = self.filter((l) => !isAddress(l.fn)).reduce((s, l) => s + Math.abs(l.change), 0);
  const fb = foldIntoClient(base);
  const fh = foldIntoClient(head);
  const own = keys(fb, fh)
    .map((fn) => ({
      name: name(fn),
      change: (fh.get(fn)?.cost ?? 0) - (fb.get(fn)?.cost ?? 0),
      estimated: (fh.get(fn)?.estimated ?? 0) - (fb.get(fn)?.estimated ?? 0),
    }))
    .sort((a, b) => b.change - a.change);
  const largest = <T extends { change: number }>(xs: T[]) =>
    xs.reduce<T | null>((m, x) => (m === null || Math.abs(x.change) > Math.abs(m.change) ? x : m), null);
  const s = largest(self);
  const o = largest(own);
  const rowChange = head.total - base.total;
  return {
    total: { base: base.total, head: head.total },
    largestSelf: s ? { name: name(s.fn), change: s.change } : { name: '', change: 0 },
    largestOwn: o ? { name: o.name, change: o.change } : { name: '', change: 0 },
    own,
    namedShare: moved > 0 ? named / moved : 1,
    ownShare: rowChange !== 0 ? own.reduce((sum, l) => sum + l.change, 0) / rowChange : 0,
  };
}

/**
 * The six ways to take base, head and second base from three processes of one build: an A/A three
 * times over, for the lists' rule with a second base process (src/profile/diff.ts).
 */
export function aaOrderings<T>([x, y, z]: readonly [T, T, T]): Array<[base: T, head: T, again: T]> {
  return [
    [x, y, z],
    [y, x, z],
    [x, z, y],
    [z, x, y],
    [y, z, x],
    [z, y, x],
  ];
}
