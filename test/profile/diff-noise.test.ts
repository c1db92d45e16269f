// The lists' rule with a second base process (src/profile/diff.ts): a line is listed only when
// head is beyond both base processes by the floor, in one direction, and moved at least
// AA_SPREADS times what it moved between them; allocation sites against the row's calls.
import { describe, expect, it } from 'vitest';
import { AA_SPREADS, diffLists, LISTED_SHARE, type SideLists } from '../../src/profile/diff.js';

const TOTAL = 1e9;
const floor = LISTED_SHARE * TOTAL;

/** One side: own costs by function, the same as the client's folded costs, and allocation calls. */
function side(self: Record<string, number>, allocations: Record<string, number> = {}): SideLists {
  return {
    runner: 'js',
    total: TOTAL,
    iterations: 5,
    self: new Map(Object.entries(self)),
    own: new Map(Object.entries(self).map(([fn, cost]) => [fn, { cost, inclusive: cost, via: new Map(), estimated: 0 }])),
    allocations: new Map(Object.entries(allocations)),
    cut: null,
  };
}
const row = { caseId: 'cpu.manifest.hash', label: 'quick' };
const names = (d: ReturnType<typeof diffLists>) => ({
  self: d.self.map((l) => l.name),
  own: d.own.map((l) => l.name),
  allocations: d.allocations!.map((l) => l.name),
});

describe('lists with a second base process', () => {
  it('leaves out a line that moved as far between the two base processes', () => {
    const base = side({ moved: 1e8, noisy: 1e8 });
    const again = side({ moved: 1e8, noisy: 1e8 + floor });
    const head = side({ moved: 1e8 + 2 * floor, noisy: 1e8 + 2 * floor });
    expect(names(diffLists(base, head, row))).toEqual({ self: ['moved', 'noisy'], own: ['moved', 'noisy'], allocations: [] });
    expect(names(diffLists(base, head, row, again))).toEqual({ self: ['moved'], own: ['moved'], allocations: [] });
  });

  it(`lists a change of ${AA_SPREADS} times the base processes' move, beyond both, and not one between them`, () => {
    const aa = floor / 2;
    const base = side({ enough: 1e8, short: 1e8, between: 1e8 });
    const again = side({ enough: 1e8 + aa, short: 1e8 + aa, between: 1e8 + 4 * floor });
    const head = side({ enough: 1e8 + AA_SPREADS * aa + floor, short: 1e8 + AA_SPREADS * aa - 1, between: 1e8 + 2 * floor });
    // `short` is beyond the floor but under three A/A moves; `between` lies between the two base processes.
    expect(names(diffLists(base, head, row, again)).self).toEqual(['enough']);
  });

  it("lists an allocation site by the row's calls into the allocator, not its own", () => {
    const base = side({}, { busy: 50_000, rare: 1 });
    const head = side({}, { busy: 50_000, rare: 2 });
    // +1 call is 100% of `rare` but 0.002% of the row's calls: an A/A moves V8's sites that far.
    expect(names(diffLists(base, head, row)).allocations).toEqual([]);
    expect(names(diffLists(base, side({}, { busy: 50_100, rare: 1 }), row)).allocations).toEqual(['busy']);
  });
});
