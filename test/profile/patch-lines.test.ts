// The patch set's line check (bench/lib/profile-lines.ts): where a change's expected source line
// ranks among the moved lines a row's diff.json lists (the first client function's top line, a
// lower rank, another function's), an inlined helper named by its line's function, and what it
// says for bee-js (function starts only) and for lists without lines.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineLanding, namesFunction, readDiff } from '../../bench/lib/profile-lines.js';
import type { ProfileDiff } from '../../src/profile/schema.js';

const work = mkdtempSync(join(tmpdir(), 'bee-bench-patch-lines-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Own = ProfileDiff['own'][number];
const fn = (name: string, change: number, extra: Partial<Own> = {}): Own => ({
  name,
  base: 1e6,
  head: 1e6 + change,
  inclusiveBase: 2e6,
  inclusiveHead: 2e6 + change,
  via: [],
  ...extra,
});
const line = (file: string, n: number, change: number, fnName?: string) => ({
  file,
  line: n,
  base: 100,
  head: 100 + change,
  ...(fnName ? { function: fnName } : {}),
});
const diff = (runner: ProfileDiff['runner'], own: Own[]): ProfileDiff => ({
  caseId: 'cpu.keccak.chunk-hash',
  label: 'chunk-hash',
  runner,
  total: { base: 1e9, head: 1.03e9 },
  iterations: { base: 2, head: 2 },
  self: [],
  own,
  allocations: null,
});
const BMT = 'pkg/swarm/bmt.go';

describe('lineLanding', () => {
  it('finds the expected line first in the first client function', () => {
    const d = diff('go', [fn('swarm.calculateBMTRoot', 5e7, { lines: [line(BMT, 80, 4e7, 'calculateBMTRoot'), line(BMT, 79, 1e7, 'calculateBMTRoot')] })]);
    const got = lineLanding(d, { file: BMT, line: 80, function: 'swarm.calculateBMTRoot' });
    expect(got).toEqual({ topIsExpected: true, topNamesFunction: true, text: 'found, 1st (pkg/swarm/bmt.go:80 in calculateBMTRoot)' });
  });

  it("gives the expected line's rank and the line that came first", () => {
    const d = diff('go', [fn('swarm.calculateBMTRoot', 5e7, { lines: [line(BMT, 79, 3e7), line(BMT, 80, 1.6e7)] })]);
    const got = lineLanding(d, { file: BMT, line: 80, function: 'swarm.calculateBMTRoot' });
    expect(got.topIsExpected).toBe(false);
    expect(got.text).toBe('found, 2nd; top: pkg/swarm/bmt.go:79');
  });

  it("finds it in a later function's lines, or says it is not listed", () => {
    const d = diff('go', [
      fn('swarm.calculateBMTRoot', 5e7, { lines: [line(BMT, 79, 3e7)] }),
      fn('swarm.CalculateChunkAddress', 1e6, { lines: [line(BMT, 52, 1e6)] }),
    ]);
    expect(lineLanding(d, { file: BMT, line: 52, function: 'swarm.CalculateChunkAddress' }).text).toBe(
      'found, 1st of `swarm.CalculateChunkAddress` (client function 2); top: pkg/swarm/bmt.go:79',
    );
    expect(lineLanding(d, { file: BMT, line: 53, function: 'swarm.CalculateChunkAddress' }).text).toBe('not listed; top: pkg/swarm/bmt.go:79');
  });

  it("names an inlined helper by its line's function, though its line differs", () => {
    // Go inlines cloneSegment into calculateBMTRoot: the top line is the helper's, named by it.
    const d = diff('go', [fn('swarm.calculateBMTRoot', 5e7, { lines: [line(BMT, 31, 4e7, 'cloneSegment'), line(BMT, 90, 1e7, 'calculateBMTRoot')] })]);
    const got = lineLanding(d, { file: BMT, line: 32, function: 'swarm.cloneSegment' });
    expect(got).toMatchObject({ topIsExpected: false, topNamesFunction: true });
    // The function it was inlined into does not name the helper.
    expect(namesFunction('calculateBMTRoot', 'swarm.cloneSegment')).toBe(false);
  });

  it("counts a closure written in the helper as the helper's (bee-rs names it after its declaring function)", () => {
    expect(namesFunction('bmt_root::{closure#1}', 'bee::swarm::bmt::bmt_root')).toBe(true);
    expect(namesFunction('calculate_chunk_address', 'bee::swarm::bmt::bmt_root')).toBe(false);
    expect(namesFunction(undefined, 'bee::swarm::bmt::bmt_root')).toBe(false);
  });

  it('says bee-js has no line positions and gives the first function its start', () => {
    const d = diff('js', [
      fn('log2Reduce @cafe-utility', 4e6, { start: { file: 'cafe-utility/module.mjs', line: 1201 } }),
      fn('calculateBmtRootHash @ethersphere/bee-js/dist/mjs/chunk/bmt.js', 1e6, { start: { file: '@ethersphere/bee-js/dist/mjs/chunk/bmt.js', line: 14 } }),
    ]);
    const got = lineLanding(d, { file: 'dist/mjs/chunk/bmt.js', line: 20, function: 'calculateBmtRootHash @ethersphere/bee-js/dist/mjs/chunk/bmt.js' });
    expect(got).toEqual({
      topIsExpected: false,
      topNamesFunction: false,
      text: 'no line positions (V8 gives them for optimized code only); `log2Reduce` starts at cafe-utility/module.mjs:1201; the change is at dist/mjs/chunk/bmt.js:20',
    });
  });

  it('says a list without lines has none', () => {
    const d = diff('rs', [fn('bee::swarm::bmt::calculate_chunk_address', 4e7)]);
    expect(lineLanding(d, { file: 'src/swarm/bmt.rs', line: 80, function: 'bee::swarm::bmt::bmt_root' }).text).toBe('no lines in this profile');
  });
});

describe('readDiff', () => {
  it('reads a diff.json through its schema and names the file when it is missing or wrong', () => {
    const d = diff('go', [fn('swarm.calculateBMTRoot', 5e7, { lines: [line(BMT, 80, 4e7)] })]);
    writeFileSync(join(work, 'diff.json'), JSON.stringify(d));
    expect(readDiff(work)).toEqual(d);
    expect(() => readDiff(join(work, 'nowhere'))).toThrow(/nowhere\/diff\.json: missing/);
    writeFileSync(join(work, 'diff.json'), JSON.stringify({ ...d, own: [{ name: 'x' }] }));
    expect(() => readDiff(work)).toThrow(/diff\.json: own\.0\./);
  });
});
