// V8's code log (src/profile/v8-log.ts) and what the profiles make of it: source positions inside
// bee-js's JIT code, and a bee-js callback V8 inlined into a library's code charged to the bee-js
// function. The fixture is a real node 20 log (`node --log-code --logfile=v8.log
// --no-logfile-per-isolate main.js` on test/fixtures/v8-log's three scripts laid out as
// node_modules/some-lib/index.js and node_modules/@ethersphere/bee-js/bmt.js; the lines about
// those scripts kept, their folder written `/app/`), so V8's own format is what is read.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JS_COUNT_FLAGS, JS_NAMING_FLAGS } from '../../src/count/callgrind.js';
import { lineKey, readDumpProfile } from '../../src/profile/callgrind-read.js';
import { sideLists } from '../../src/profile/diff.js';
import { foldIntoClient } from '../../src/profile/fold.js';
import { rowProfile } from '../../src/profile/row-profile.js';
import {
  CODE_CREATION_LINE,
  CODE_SOURCE_INFO_LINE,
  CodeCreation,
  CodeSourceInfo,
  codeAt,
  framesAt,
  parseV8Log,
  scriptLines,
  unescapeV8,
} from '../../src/profile/v8-log.js';
import { dumpSymbolizers, v8PerfMapPath } from '../../src/profile/v8-symbols.js';

const FIXTURES = resolve('test/fixtures/v8-log');
const LOG = readFileSync(join(FIXTURES, 'inlined-callback.v8.log'), 'utf8');
// In the fixture: log2Reduce's optimized code (TurboFan, `*`) and its baseline code (`^`).
const OPTIMIZED = { address: 0x7f10fafc8a00, size: 1896 };
const BASELINE = { address: 0x7f10fafc84c0, size: 668 };

/** The fixture's scripts as the run had them, under `dir` (node_modules/…), and its log pointing there. */
function layOut(dir: string): string {
  mkdirSync(join(dir, 'node_modules', 'some-lib'), { recursive: true });
  mkdirSync(join(dir, 'node_modules', '@ethersphere', 'bee-js'), { recursive: true });
  cpSync(join(FIXTURES, 'some-lib.js'), join(dir, 'node_modules', 'some-lib', 'index.js'));
  cpSync(join(FIXTURES, 'bee-js-bmt.js'), join(dir, 'node_modules', '@ethersphere', 'bee-js', 'bmt.js'));
  cpSync(join(FIXTURES, 'main.js'), join(dir, 'main.js'));
  return LOG.replaceAll('/app/', `${dir}/`);
}

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'bee-bench-v8log-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('parseV8Log on a real node 20 log', () => {
  const log = parseV8Log(LOG, 'inlined-callback.v8.log');

  it('reads each script with its lines, escapes undone', () => {
    const bmt = [...log.scripts.values()].find((s) => s.name.endsWith('@ethersphere/bee-js/bmt.js'));
    expect(scriptLines(bmt!)).toHaveLength(11);
    expect(unescapeV8('a\\x2C b\\nc\\\\d\\u00e9')).toBe('a, b\nc\\dé');
  });

  it('gives the inlining stack of an instruction of optimized code, innermost first', () => {
    const got = codeAt([log], OPTIMIZED.address, OPTIMIZED.size, 0);
    expect(got?.code.name).toBe('log2Reduce /app/node_modules/some-lib/index.js:2:20');
    expect(got?.code.inlinings).toEqual([expect.objectContaining({ name: ' /app/node_modules/@ethersphere/bee-js/bmt.js:4:31', parent: -1 })]);
    const code = got!.code;
    // Code offset 67: log2Reduce's `while (xs.length > 1)` (some-lib line 4).
    expect(framesAt(log, code, 67)).toEqual([{ name: code.name, script: '/app/node_modules/some-lib/index.js', line: 4 }]);
    // Code offset 300: the bee-js callback's `a.slice()` (bmt.js line 5), called from log2Reduce's line 6.
    expect(framesAt(log, code, 300)).toEqual([
      { name: ' /app/node_modules/@ethersphere/bee-js/bmt.js:4:31', script: '/app/node_modules/@ethersphere/bee-js/bmt.js', line: 5 },
      { name: code.name, script: '/app/node_modules/some-lib/index.js', line: 6 },
    ]);
    expect(framesAt(log, code, 351)[0]?.line).toBe(6);
  });

  it('has no per-instruction positions for baseline code', () => {
    expect(codeAt([log], BASELINE.address, BASELINE.size, 0)).toBeNull();
  });

  it('names the file and line of a malformed line, and skips a line V8 was still writing', () => {
    const broken = `${LOG}code-source-info,0x7f10fafc8a00,83,114,305,C0O114X9,,\n`;
    expect(() => parseV8Log(broken, 'v8.log')).toThrow(
      /^v8\.log:40: malformed V8 log line \(code-source-info\): field 6: positions as C<code offset>O<script offset>/,
    );
    expect(() => parseV8Log(`${LOG}code-creation,JS,13,1,0xzz`, 'v8.log')).not.toThrow();
    expect(() => parseV8Log(`${LOG}code-creation,JS,13,1,0xzz,4,f\n`, 'v8.log')).toThrow(/v8\.log:40: .*field 5/);
  });

  it('checks a line by its pattern exactly as its schema does: every real line, and each altered at every place', () => {
    // The patterns stand in for the schemas on lines that pass (the schema names the field of one that does not).
    const agree = (line: string) => {
      const f = line.split(',');
      const byPattern = f[0] === 'code-creation' ? CODE_CREATION_LINE.test(line) : CODE_SOURCE_INFO_LINE.test(line);
      const bySchema = f[0] === 'code-creation' ? CodeCreation.safeParse(f.slice(0, 7)).success : CodeSourceInfo.safeParse(f).success;
      return byPattern === bySchema ? null : `${byPattern ? 'pattern' : 'schema'} alone accepts ${JSON.stringify(line)}`;
    };
    const real = LOG.split('\n').filter((l) => /^code-(?:creation|source-info),/.test(l));
    expect(real.length).toBeGreaterThan(20);
    expect(real.every((l) => (l.startsWith('code-creation,') ? CODE_CREATION_LINE : CODE_SOURCE_INFO_LINE).test(l))).toBe(true);
    const disagreements: string[] = [];
    for (const line of real) {
      const altered = [`${line},`, `${line}x`, line.replace(/,[^,]*$/, '')];
      for (let i = 0; i < line.length; i++) {
        for (const c of [',', '-', 'x', 'X', 'S', 's', 'C', 'O', 'I', 'F', 'g', '9', ' ']) altered.push(line.slice(0, i) + c + line.slice(i + 1));
        altered.push(line.slice(0, i) + line.slice(i + 1));
      }
      for (const a of altered) if (/^code-(?:creation|source-info),/.test(a)) disagreements.push(agree(a) ?? '');
    }
    expect(disagreements.filter(Boolean)).toEqual([]);
  });

  it("reads what node writes now (this machine's node, the counting flags: no script sources, the files are read)", () => {
    const dir = tempDir();
    layOut(dir);
    const run = spawnSync(
      process.execPath,
      [...JS_COUNT_FLAGS, ...JS_NAMING_FLAGS, `--logfile=${join(dir, 'v8.log')}`, '--no-logfile-per-isolate', 'main.js'],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    // --perf-basic-prof's map: V8's fixed place, not left behind.
    if (run.pid) rmSync(v8PerfMapPath(run.pid), { force: true });
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(join(dir, 'v8.log'), 'utf8');
    expect(text).not.toMatch(/^script-source,/m);
    const fresh = parseV8Log(text, 'v8.log');
    const optimized = [...fresh.codes.values()].flat().filter((c) => c.name.startsWith('log2Reduce ') && c.tier === '*');
    expect(optimized.length).toBeGreaterThan(0);
    // The callback is inlined into log2Reduce's optimized code and its instructions placed at its lines.
    const c = optimized.find((o) => o.inlinings.some((i) => i.name.includes('@ethersphere/bee-js/bmt.js:4:31')));
    expect(c).toBeDefined();
    const lines = new Set(
      c!.positions
        .map((p) => framesAt(fresh, c!, p.pc)[0])
        .filter((f) => f?.script?.endsWith('bmt.js'))
        .map((f) => f!.line),
    );
    expect([...lines].sort()).toEqual(expect.arrayContaining([5]));
  });
});

describe('a bee-js callback inlined into library code, in a dump', () => {
  const dir = tempDir();
  const pid = 4242;
  writeFileSync(join(dir, `isolate-0x1d426e00-${pid}-v8.log`), layOut(dir));
  const map = [
    `${BASELINE.address.toString(16)} ${BASELINE.size.toString(16)} JS:^log2Reduce ${dir}/node_modules/some-lib/index.js:2:20`,
    `${OPTIMIZED.address.toString(16)} ${OPTIMIZED.size.toString(16)} JS:*log2Reduce ${dir}/node_modules/some-lib/index.js:2:20`,
    // The callback's own optimized code (from before V8 inlined it).
    `7f10fafc8840 158 JS:* ${dir}/node_modules/@ethersphere/bee-js/bmt.js:4:31`,
    '',
  ].join('\n');
  writeFileSync(join(dir, `perf-${pid}.map`), map);
  const at = (pc: number) => `0x${(OPTIMIZED.address + pc).toString(16)}`;
  const F = `0x0000${OPTIMIZED.address.toString(16)}`;
  // One iteration: log2Reduce's own code (offset 67), the inlined callback (offset 300) and its call into a builtin.
  const dump = [
    'version: 1',
    'creator: callgrind-3.19.0',
    `pid: ${pid}`,
    'cmd: node main.js',
    'part: 1',
    `desc: Trigger: Client Request: bee-bench 0 0 perf-map=${Buffer.byteLength(map)}`,
    'positions: instr line',
    'events: Ir',
    'ob=(1) ???',
    'fl=(1) ???',
    `fn=(1) ${F}`,
    `${at(67)} 0 100`,
    `${at(300)} 0 30`,
    'cob=(2) /usr/bin/node',
    'cfi=(2) ???',
    'cfn=(2) Builtins_TypedArrayPrototypeSlice',
    'calls=2 0x18c4680 0',
    `${at(300)} 0 500`,
    'ob=(2)',
    'fl=(2)',
    'fn=(2)',
    '0x18c4680 0 500',
    'totals: 630',
    '',
  ].join('\n');
  const dumpFile = join(dir, `callgrind.out.${pid}.1`);
  writeFileSync(dumpFile, dump);
  const bmt = join(dir, 'node_modules', '@ethersphere', 'bee-js', 'bmt.js');

  it('charges the callback its instructions and its calls, exactly, and keeps the total', () => {
    const d = readDumpProfile(dump, dumpSymbolizers(dir)(dump));
    const host = 'log2Reduce some-lib/index.js';
    const charged = [...d.self.keys()].find((f) => f.endsWith(' [inlined in log2Reduce]'));
    expect(charged).toMatch(/^\(anonymous\) @ethersphere\/bee-js\/bmt\.js «\(a, b\) => \{» in rootHash \[inlined in log2Reduce\]$/);
    expect(d.self.get(host)).toBe(100);
    expect(d.self.get(charged!)).toBe(30);
    expect(d.edges.get(charged!)?.get('Builtins_TypedArrayPrototypeSlice')).toEqual({ calls: 2, ir: 500 });
    expect(d.edges.get(host)?.has('Builtins_TypedArrayPrototypeSlice')).toBe(false);
    // log2Reduce's inclusive cost is unchanged: the charged code is a call of its own.
    expect(d.edges.get(host)?.get(charged!)).toEqual({ calls: 0, ir: 530 });
    expect(d.lines.get(charged!)?.get(lineKey(bmt, 5))).toEqual({ self: 30, calls: new Map([['Builtins_TypedArrayPrototypeSlice', 500]]), frame: 'rootHash' });
    // No position in the client's source: the library's own instructions have no line.
    expect(d.lines.get(host)).toBeUndefined();
  });

  it("places bee-js's own optimized code at its lines without charging it elsewhere; a library's own instructions have no client line", () => {
    const sym = dumpSymbolizers(dir)(dump);
    // Code offset 43 of the callback's own code: `const left = a.slice()` (bmt.js line 5).
    expect(sym.positions?.('0x00007f10fafc8840', 0x7f10fafc8840 + 43)).toEqual({ file: bmt, line: 5, function: 'rootHash' });
    expect(sym.positions?.(F, OPTIMIZED.address + 67)).toBeNull();
    // Baseline code: no positions per instruction.
    expect(sym.positions?.(`0x0000${BASELINE.address.toString(16)}`, BASELINE.address + 8)).toBeNull();
  });

  it('lists it under the bee-js function it is written in, with its line', () => {
    const p = rowProfile('js', [dumpFile], { forDump: dumpSymbolizers(dir) });
    expect(p.total).toBe(630);
    const folded = foldIntoClient(p);
    expect(folded.get('rootHash @ethersphere/bee-js/bmt.js')?.cost).toBe(530);
    expect([...folded.keys()].some((f) => f.startsWith('log2Reduce'))).toBe(false);
    const lists = sideLists(p);
    expect([...(lists.lines?.get('rootHash @ethersphere/bee-js/bmt.js')?.cost ?? [])]).toEqual([['@ethersphere/bee-js/bmt.js:5', 530]]);
  });
});
