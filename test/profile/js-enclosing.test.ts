// The named function an anonymous JavaScript function is written in (src/profile/js-enclosing.ts),
// which bee-js's callbacks are listed under: declarations, methods, constructors, accessors and
// `const f = () => …`; an anonymous function inside another is the outer named one's; one at a
// module's top level has none.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enclosingLookup } from '../../src/profile/js-enclosing.js';

const dir = mkdtempSync(join(tmpdir(), 'bee-bench-enclosing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOURCE = [
  'export function calculateBmtRootHash(input) {', // 1
  '  const segments = input.map(segment => segment.slice());', // 2
  '  return reduce(segments, (a, b) => [a, b].map(x => x));', // 3
  '}',
  'class Bytes {',
  '  constructor(b) { this.b = b.map(x => x); }', // 6
  '  get length() { return this.b.filter(x => x).length; }', // 7
  '  toHex() { return this.b.map(x => x.toString(16)); }', // 8
  '}',
  'const hexOf = (b) => b.map(x => x);', // 10
  'export const top = [1, 2].map(x => x);', // 11
  '/* a { brace in a comment */ const s = "}"; function tail() { return [s].map(x => `${x}}`); }', // 12
].join('\n');

describe('enclosingLookup', () => {
  const file = join(dir, 'bmt.js');
  writeFileSync(file, SOURCE);
  const at = enclosingLookup();
  const col = (line: number, text: string) => SOURCE.split('\n')[line - 1]!.indexOf(text) + 1;

  it('names the function a callback is written in, as V8 names functions', () => {
    expect(at(file, 2, col(2, 'segment =>'))).toBe('calculateBmtRootHash');
    expect(at(`file://${file}`, 3, col(3, '(a, b) =>'))).toBe('calculateBmtRootHash');
    expect(at(file, 3, col(3, 'x => x'))).toBe('calculateBmtRootHash');
    expect(at(file, 6, col(6, 'x => x'))).toBe('Bytes');
    expect(at(file, 7, col(7, 'x => x'))).toBe('get length');
    expect(at(file, 8, col(8, 'x => x'))).toBe('toHex');
    expect(at(file, 10, col(10, 'x => x'))).toBe('hexOf');
    expect(at(file, 12, col(12, 'x => `'))).toBe('tail');
  });

  it('counts lines as V8 does, whatever breaks them (\\r\\n, \\r, U+2028), and reads a copy of a script at another path alike', () => {
    const lines = ['function outer(a) {', '  return a.map(x => x);', '}', 'function other(b) {', '  return b.map(y => y);', '}'];
    const text = `${lines[0]}\r\n${lines[1]}\r${lines[2]}\u2028${lines[3]}\n${lines[4]}\r\n${lines[5]}`;
    const crlf = join(dir, 'crlf.js');
    writeFileSync(crlf, text);
    expect(at(crlf, 2, lines[1]!.indexOf('x =>') + 1)).toBe('outer');
    expect(at(crlf, 5, lines[4]!.indexOf('y =>') + 1)).toBe('other');
    // A position past the script's last line is in no function.
    expect(at(crlf, 7, 1)).toBeNull();
    // base's and head's builds hold the same package at two paths: both read, each by its own lines.
    const copy = join(dir, 'copy-of-crlf.js');
    writeFileSync(copy, text);
    expect(at(copy, 5, lines[4]!.indexOf('y =>') + 1)).toBe('other');
  });

  it('has none for a callback at the top level, a file it cannot read or parse, or a relative path', () => {
    expect(at(file, 11, col(11, 'x => x'))).toBeNull();
    expect(at(join(dir, 'missing.js'), 1, 1)).toBeNull();
    const broken = join(dir, 'broken.js');
    writeFileSync(broken, 'function f( {');
    expect(at(broken, 1, 1)).toBeNull();
    expect(at('node:internal/x', 1, 1)).toBeNull();
  });
});
