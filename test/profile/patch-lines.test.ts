// The patch set's line check (bench/lib/profile-lines.ts): from a row's two profile files, the line
// of the changed file whose instructions rose most, matched by its text (an insertion shifts the
// lines below it), with calls counted at the calling line and inlined code at its own file
// (`fi=`/`fe=`); a profile with no line records says so (null).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineCosts, movedLines } from '../../bench/lib/profile-lines.js';

const work = mkdtempSync(join(tmpdir(), 'bee-bench-patch-lines-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const BASE_SRC = ['func f(p []byte) {', '\tsegments := make([][]byte, n)', '\thash(segments)', '}', 'func clone(s []byte) []byte {', '\treturn s', '}'];
// Head: a loop inserted above `segments` (lines 2-4), so every line below moved down by three.
const HEAD_SRC = [
  'func f(p []byte) {',
  '\tfor _, b := range p {',
  '\t\tsum ^= b',
  '\t}',
  '\tsegments := make([][]byte, n)',
  '\thash(segments)',
  '}',
  'func clone(s []byte) []byte {',
  '\treturn s',
  '}',
];

const dump = (lines: string[]) => ['# callgrind format', 'version: 1', 'positions: line', 'events: Ir', '', ...lines, ''].join('\n');

function sides(head: string[], base: string[]): string {
  const dir = join(work, `row-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'callgrind.out.base'), dump(base));
  writeFileSync(join(dir, 'callgrind.out.head'), dump(head));
  return dir;
}

describe('movedLines', () => {
  const base = join(work, 'base');
  const head = join(work, 'head');
  mkdirSync(join(base, 'pkg'), { recursive: true });
  mkdirSync(join(head, 'pkg'), { recursive: true });
  writeFileSync(join(base, 'pkg', 'bmt.go'), BASE_SRC.join('\n'));
  writeFileSync(join(head, 'pkg', 'bmt.go'), HEAD_SRC.join('\n'));

  it('finds the inserted line, not the lines an insertion moved down', () => {
    const dir = sides(
      // head: the loop's line costs 5000; `hash(segments)` (now line 6) calls out with the same 900 as before.
      [
        'fl=(1) /build/x/pkg/bmt.go',
        'fn=(1) swarm.f',
        '1 10',
        '3 5000',
        '+2 100',
        'cfn=(2) swarm.hash',
        'calls=1 0',
        '6 900',
        'fl=(2) /usr/lib/go/runtime/malloc.go',
        'fn=(3) runtime.mallocgc',
        '10 70000',
      ],
      [
        'fl=(1) /build/y/pkg/bmt.go',
        'fn=(1) swarm.f',
        '1 10',
        '2 100',
        'cfn=(2) swarm.hash',
        'calls=1 0',
        '3 900',
        'fl=(2) /usr/lib/go/runtime/malloc.go',
        'fn=(3) runtime.mallocgc',
        '10 10',
      ],
    );
    const moved = movedLines(dir, { base, head }, 'pkg/bmt.go')!;
    expect(moved[0]).toMatchObject({ line: 3, text: 'sum ^= b', change: 5000 });
    // `segments := …` (base line 2, head line 5) and the call line kept their cost: not moved.
    expect(moved.map((l) => l.line)).toEqual([3]);
  });

  it('counts inlined code at its own file and line (fi=/fe=)', () => {
    const text = dump(['fl=(1) /b/pkg/bmt.go', 'fn=(1) swarm.f', '1 10', 'fi=(2) /b/pkg/clone.go', '9 400', 'fe=(1)', '+1 5']);
    const costs = lineCosts(text)!;
    expect(costs.get('/b/pkg/clone.go')?.get(9)).toBe(400);
    expect(costs.get('/b/pkg/bmt.go')?.get(10)).toBe(5);
  });

  it('says a profile without line records has none', () => {
    const dir = sides(['fl=(1) /b/pkg/bmt.go', 'fn=(1) swarm.f', '0 5010'], ['fl=(1) /b/pkg/bmt.go', 'fn=(1) swarm.f', '0 110']);
    expect(movedLines(dir, { base, head }, 'pkg/bmt.go')).toBeNull();
  });
});
