// Caller context (callgrind's --separate-callers): a runtime function shared by two client
// functions is charged to the one whose calls ran it, where splitting the shared frame by its
// callers' calls would give each half; and callgrind's context names read back into functions.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countingCommand } from '../../src/count/callgrind.js';
import { readDumpProfile, splitContext } from '../../src/profile/callgrind-read.js';
import { diffProfiles } from '../../src/profile/diff.js';
import { foldIntoClient } from '../../src/profile/fold.js';
import { rowProfile } from '../../src/profile/row-profile.js';

const M = 'github.com/ethswarm-tools/bee-go/pkg/swarm';
const F = `${M}.F`;
const G = `${M}.G`;

/**
 * main -> F and main -> G, each calling runtime.growslice (the shared frame) as often with the
 * same inclusive cost; under it F's calls run memmove (`copyCost`) and G's run memclr (`clrCost`).
 * `context`: names as --separate-callers=2 writes them.
 */
function dump(copyCost: number, clrCost: number, context: boolean): string {
  const c = (fn: string, ...callers: string[]) => (context ? [fn, ...callers].join("'") : fn);
  const grow = (caller: string) => c('runtime.growslice', caller, 'main');
  return [
    'desc: Trigger: Client Request: bee-bench 0 0',
    'positions: line',
    'events: Ir',
    '',
    `fn=${c('main')}`,
    '1 10',
    `cfn=${c(F, 'main')}`,
    'calls=1 0',
    `1 ${100 + 25 + copyCost}`,
    `cfn=${c(G, 'main')}`,
    'calls=1 0',
    `1 ${100 + 25 + clrCost}`,
    `fn=${c(F, 'main')}`,
    '2 100',
    `cfn=${grow(F)}`,
    'calls=10 0',
    `2 ${25 + copyCost}`,
    `fn=${c(G, 'main')}`,
    '3 100',
    `cfn=${grow(G)}`,
    'calls=10 0',
    `3 ${25 + clrCost}`,
    `fn=${grow(F)}`,
    '4 25',
    `cfn=${c('runtime.memmove', 'runtime.growslice', F)}`,
    'calls=10 0',
    `4 ${copyCost}`,
    `fn=${grow(G)}`,
    '4 25',
    `cfn=${c('runtime.memclrNoHeapPointers', 'runtime.growslice', G)}`,
    'calls=10 0',
    `4 ${clrCost}`,
    `fn=${c('runtime.memmove', 'runtime.growslice', F)}`,
    `5 ${copyCost}`,
    `fn=${c('runtime.memclrNoHeapPointers', 'runtime.growslice', G)}`,
    `6 ${clrCost}`,
    '',
  ].join('\n');
}

/** Without context the two growslice lines are one function: merge them as callgrind would write it. */
const profileOfDump = (text: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'bee-bench-ctx-'));
  const file = join(dir, 'callgrind.out.1');
  writeFileSync(file, text);
  return rowProfile('go', [file]);
};

describe('caller context', () => {
  it('asks callgrind for caller context in every counting run: four callers, two for bee-js', () => {
    const argv = (runner: 'go' | 'rs' | 'js') => countingCommand({ argv: ['runner'] }, runner, '/d').argv;
    expect(argv('go')).toContain('--separate-callers=4');
    expect(argv('rs')).toContain('--separate-callers=4');
    expect(argv('js')).toContain('--separate-callers=2');
  });

  it('splits callgrind’s context names at the quotes outside brackets', () => {
    expect(splitContext("dfs_traversal.part.0'2'_dl_sort_maps'_dl_fini")).toEqual({
      fn: 'dfs_traversal.part.0',
      level: 2,
      callers: ['_dl_sort_maps', '_dl_fini'],
    });
    expect(splitContext("<bee::Chunk<'a> as core::clone::Clone>::clone'bee::f")).toEqual({
      fn: "<bee::Chunk<'a> as core::clone::Clone>::clone",
      level: 1,
      callers: ['bee::f'],
    });
    expect(splitContext("a'3")).toEqual({ fn: 'a', level: 3, callers: [] });
    expect(splitContext('plain')).toEqual({ fn: 'plain', level: 1, callers: [] });
  });

  it('reads a context dump into the same functions and calls as a plain one', () => {
    const p = readDumpProfile(dump(1000, 10, true));
    expect(Object.fromEntries(p.self)).toEqual({
      main: 10,
      [F]: 100,
      [G]: 100,
      'runtime.growslice': 50,
      'runtime.memmove': 1000,
      'runtime.memclrNoHeapPointers': 10,
    });
    expect(p.edges.get(F)?.get('runtime.growslice')).toEqual({ calls: 10, ir: 1025 });
    expect(p.contexts.chain.get([`runtime.memmove`, 'runtime.growslice', F].join('\u0001'))).toEqual(['runtime.memmove', 'runtime.growslice', F]);
  });

  it('charges a shared frame’s callee to the client function whose calls ran it, exactly', () => {
    // Plain dump: growslice is one node, so F and G share memmove by their calls' instructions.
    const plain = foldIntoClient(profileOfDump(dump(1000, 10, false)));
    const withContext = foldIntoClient(profileOfDump(dump(1000, 10, true)));
    expect(withContext.get(F)).toMatchObject({ cost: 100 + 25 + 1000, estimated: 0 });
    expect(withContext.get(G)).toMatchObject({ cost: 100 + 25 + 10, estimated: 0 });
    expect(withContext.get(F)!.via.get('runtime.memmove')).toBe(1000);
    expect(withContext.get(G)!.via.has('runtime.memmove')).toBe(false);
    // Without the context both are a proportional estimate, and memmove leaks into G.
    expect(plain.get(G)!.via.get('runtime.memmove') ?? 0).toBeGreaterThan(0);
    expect(plain.get(F)!.estimated).toBeGreaterThan(0);
  });

  it('lists the changed function with the whole change, and says what is estimated', () => {
    const d = diffProfiles(profileOfDump(dump(1000, 10, true)), profileOfDump(dump(5000, 10, true)), { caseId: 'x', label: 'q' });
    expect(d.own[0]).toMatchObject({ name: 'swarm.F', base: 1125, head: 5125, estimatedBase: 0, estimatedHead: 0 });
    expect(d.own.some((l) => l.name === 'swarm.G')).toBe(false);
  });
});

/**
 * A closure's cost in the function it is written in: `outer` passes `closure` to a library
 * function (`lib`, outside the client) that calls it back `calls` times; `other` is a client
 * function called by `lib` too, which must keep its own cost.
 */
function closureDump(runner: 'go' | 'rs' | 'js', outer: string, closure: string, other: string, closureCost: number): string {
  const lib = { go: 'sort.insertionSort_func', rs: 'core::slice::sort::insertion_sort', js: 'Builtins_ArrayMap' }[runner];
  return [
    'desc: Trigger: Client Request: bee-bench 0 0',
    'positions: line',
    'events: Ir',
    '',
    'fn=main',
    '1 10',
    `cfn=${outer}`,
    'calls=1 0',
    `1 ${100 + 20 + closureCost + 30}`,
    `fn=${outer}`,
    '2 100',
    `cfn=${lib}`,
    'calls=1 0',
    `2 ${20 + closureCost + 30}`,
    `fn=${lib}`,
    '3 20',
    `cfn=${closure}`,
    'calls=8 0',
    `3 ${closureCost}`,
    `cfn=${other}`,
    'calls=1 0',
    '3 30',
    `fn=${closure}`,
    `4 ${closureCost}`,
    `fn=${other}`,
    '5 30',
    '',
  ].join('\n');
}

describe('closures', () => {
  const profileOf = (runner: 'go' | 'rs' | 'js', text: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-closure-'));
    writeFileSync(join(dir, 'callgrind.out.1'), text);
    return rowProfile(runner, [join(dir, 'callgrind.out.1')]);
  };

  it('lists a Go closure, a Rust closure and a JavaScript callback under the function they are written in', () => {
    const cases = [
      { runner: 'go' as const, outer: F, closure: `${F}.func1`, other: G },
      {
        runner: 'rs' as const,
        outer: 'bee::swarm::bmt::bmt_root::h0123456789abcdef',
        closure: 'bee::swarm::bmt::bmt_root::{{closure}}::hfedcba9876543210',
        other: 'bee::swarm::bmt::keccak256::h00000000000000aa',
      },
      {
        runner: 'js' as const,
        outer: 'calculateBmtRootHash @ethersphere/bee-js/dist/mjs/chunk/bmt.js',
        closure: '(anonymous) @ethersphere/bee-js/dist/mjs/chunk/bmt.js «segment => { const copy = new Uint8Arra…» in calculateBmtRootHash',
        other: 'log2Reduce cafe-utility/index.js',
      },
    ];
    for (const c of cases) {
      const folded = foldIntoClient(profileOf(c.runner, closureDump(c.runner, c.outer, c.closure, c.other, 800)));
      // The library's own 20 and the closure's 800 are the outer function's; the other client function keeps its 30.
      expect(folded.get(c.outer), c.runner).toMatchObject({ cost: 100 + 20 + 800 });
      expect(folded.get(c.outer)!.via.get(c.closure), c.runner).toBe(800);
      expect(folded.has(c.closure), c.runner).toBe(false);
      expect(folded.get(c.other)?.cost, c.runner).toBe(30);
    }
  });

  it('lists a closure whose enclosing function does not run under that function’s name, and leaves other functions alone', () => {
    const folded = foldIntoClient(profileOf('go', closureDump('go', `${M}.H`, `${F}.func2.1`, G, 500)));
    expect(folded.get(F)).toMatchObject({ cost: 500 });
    expect(folded.get(`${M}.H`)).toMatchObject({ cost: 120 });
    const js = foldIntoClient(profileOf('js', closureDump('js', 'f a/b.js', '(anonymous) a/b.js «x => x»', 'g a/b.js', 5)));
    expect(js.size).toBe(0); // not the client's files: nothing listed
  });
});
