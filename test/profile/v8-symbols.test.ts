// bee-js's JIT code by name: the symbolizer on perf-map text, and on a real dump and map of the
// js runner (runners/js, set up by `npm run test:setup`) counted under real valgrind.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunnerCommand } from '../../src/build/builder.js';
import { countingCommand, findCounter, parseDump } from '../../src/count/callgrind.js';
import { countingPlan, countRunner } from '../../src/run/count.js';
import { invokeRunner } from '../../src/run/invoke.js';
import { loadSpec } from '../../src/spec/load.js';
import { resolvePlan } from '../../src/spec/plan.js';
import { dumpTotal, sumCosts } from '../../runners/js/src/callgrind-costs.mjs';
import { splitContext } from '../../src/profile/callgrind-read.js';
import {
  collectPerfMaps,
  dumpSymbolizer,
  dumpSymbolizers,
  isAddress,
  parsePerfMap,
  readablePath,
  symbolizerFor,
  v8PerfMapPath,
  type PackageOf,
} from '../../src/profile/v8-symbols.js';

const noPackages: PackageOf = () => null;

describe('symbolizerFor', () => {
  const map = [
    '34061c80 2000 JS:*parseSource node:internal/deps/cjs-module-lexer/lexer:85:22',
    '34061c80 800 JS:*log2Reduce file:///b/js-1/node_modules/cafe-utility/index.js:2024:20',
    '34063e80 b1c JS:^Bytes file:///b/js-1/node_modules/@ethersphere/bee-js/dist/mjs/utils/bytes.js:7:14',
    '34064cc0 230 JS:~ /b/js-1/node_modules/cafe-utility/index.js:2038:21',
    '18c4680 aa0 Builtin:RecordWriteSaveFP',
    '3a42b5e0 40 RegExp:[0-9a-f]+',
    '',
  ].join('\n');
  const name = symbolizerFor([map], noPackages);

  it('names an address by the newest code that covered it, tier marker and column dropped', () => {
    expect(name('0x0000000034061c80')).toBe('log2Reduce cafe-utility/index.js');
    expect(name('0x0000000034062500')).toBe('parseSource node:internal/deps/cjs-module-lexer/lexer');
    expect(name('0x0000000034063e94')).toBe('Bytes @ethersphere/bee-js/dist/mjs/utils/bytes.js');
  });

  it('says where each JavaScript function it named starts, the only position V8 gives (none for builtins)', () => {
    const named = symbolizerFor([map], noPackages);
    const fn = named('0x0000000034061c80');
    named('0x0000000034063e94');
    named('0x00000000018c4700');
    expect(named.starts.get(fn)).toEqual({ file: 'cafe-utility/index.js', line: 2024 });
    expect(named.starts.get('Bytes @ethersphere/bee-js/dist/mjs/utils/bytes.js')).toEqual({ file: '@ethersphere/bee-js/dist/mjs/utils/bytes.js', line: 7 });
    expect(named.starts.has('Builtins_RecordWriteSaveFP')).toBe(false);
  });

  it("keeps callgrind's recursion level", () => {
    expect(name("0x0000000034061c80'2")).toBe("log2Reduce cafe-utility/index.js'2");
  });

  it('gives an anonymous function whose file is not there its line and column, a builtin its embedded name, other code its V8 name', () => {
    expect(name('0x0000000034064cc0')).toBe('(anonymous) cafe-utility/index.js:2038:21');
    expect(name('0x00000000018c4700')).toBe('Builtins_RecordWriteSaveFP');
    expect(name('0x000000003a42b5e0')).toBe('RegExp:[0-9a-f]+');
  });

  it('names a function alike when a change above it moved its line: anonymous ones by the start of their source', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-v8-symbols-'));
    const base = join(dir, 'base.js');
    const head = join(dir, 'head.js');
    writeFileSync(base, 'function f() {\n  return g(x, (a, b) => a + b);\n}\n');
    writeFileSync(head, 'function f() {\n  const y = x.map(s => s);\n  return g(y, (a, b) => a + b);\n}\n');
    const at = (file: string, line: number, column: number) => `34061c80 80 JS:*f ${file}:1:1\n34062000 80 JS:~ ${file}:${line}:${column}\n`;
    const [b, h] = [symbolizerFor([at(base, 2, 15)], noPackages), symbolizerFor([at(head, 3, 15)], noPackages)];
    // ... and by the named function it is written in, which folding lists a callback's cost under.
    expect(b('0x0000000034062000')).toBe(`(anonymous) ${base} «(a, b) => a + b);» in f`);
    expect(h('0x0000000034062000').replace(head, base)).toBe(b('0x0000000034062000'));
    expect(h('0x0000000034061c80')).toBe(`f ${head}`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves symbols and uncovered addresses as they are', () => {
    expect(name('Builtins_CreateTypedArray')).toBe('Builtins_CreateTypedArray');
    expect(name('0x0000000007c86aa0')).toBe('0x0000000007c86aa0');
    expect(isAddress(name('0x0000000007c86aa0'))).toBe(true);
  });

  it('names a linked checkout by its package.json, so base and head read alike', () => {
    const packageOf: PackageOf = (dir) => (dir.startsWith('/src/bee-js') ? { name: '@ethersphere/bee-js', dir: '/src/bee-js' } : null);
    expect(readablePath('file:///src/bee-js/dist/mjs/chunk/bmt.js', packageOf)).toBe('@ethersphere/bee-js/dist/mjs/chunk/bmt.js');
    expect(readablePath('/b/js-2/node_modules/@ethersphere/bee-js/dist/mjs/chunk/bmt.js', packageOf)).toBe('@ethersphere/bee-js/dist/mjs/chunk/bmt.js');
    expect(readablePath('node:internal/main', packageOf)).toBe('node:internal/main');
  });

  it('reads only complete lines: a last line without its newline was still being written', () => {
    expect(parsePerfMap('34061c80 800 JS:*f /a.js:1:1\n34062480 2')).toEqual([{ start: 0x34061c80, size: 0x800, name: 'JS:*f /a.js:1:1' }]);
  });

  it("reads each dump with its process's map as far as it was written then: V8 reuses addresses", () => {
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-v8-symbols-'));
    const first = '34061c80 800 JS:*parseSource node:internal/deps/cjs-module-lexer/lexer:85:22\n';
    writeFileSync(join(dir, 'perf-7.map'), `${first}34061c80 800 JS:*log2Reduce /b/node_modules/cafe-utility/index.js:2024:20\n`);
    const dump = (length: number) => `pid: 7\ndesc: Trigger: Client Request: bee-bench 0 1 perf-map=${length}\n`;
    const forDump = dumpSymbolizers(dir, noPackages);
    expect(forDump(dump(first.length))('0x0000000034061c80')).toBe('parseSource node:internal/deps/cjs-module-lexer/lexer');
    expect(forDump(dump(first.length + 10))('0x0000000034061c80')).toBe('parseSource node:internal/deps/cjs-module-lexer/lexer');
    expect(dumpSymbolizer(dump(10_000), dir, noPackages)('0x0000000034061c80')).toBe('log2Reduce cafe-utility/index.js');
    // Another process's dump, with no map here, keeps its addresses.
    expect(forDump('pid: 8\n')('0x0000000034061c80')).toBe('0x0000000034061c80');
  });

  it('rejects a line that is not a perf map line, naming it', () => {
    expect(() => parsePerfMap('34061c80 800 JS:*f /a.js:1:1\nnot a line\n', 'perf-7.map')).toThrow(/perf-7\.map:2: not a perf map line/);
  });
});

describe('counting with names', () => {
  it("reads a dump marked with its perf map's length, and leaves V8's loggers out of the count with their callees", () => {
    const dump = [
      'pid: 7',
      'desc: Trigger: Client Request: bee-bench 3 2 perf-map=4096',
      'events: Ir',
      'fn=(1) 0x0000000034061c80',
      '0 5000',
      'cfn=(2) v8::internal::Compiler::LogFunctionCompilation(v8::internal::Isolate*)',
      'calls=1 0',
      '0 700',
      'fn=(2)',
      '0 100',
      'cfn=(3) v8::internal::CodeEventLogger::CodeCreateEvent(v8::internal::LogEventListener::CodeTag)',
      'calls=1 0',
      '0 600',
      'fn=(3)',
      '0 150',
      'cfn=(4) v8::internal::LinuxPerfBasicLogger::LogRecordedBuffer(char const*, int)',
      'calls=1 0',
      '0 450',
      'fn=(4)',
      '0 50',
      'cfn=(5) fprintf',
      'calls=1 0',
      '0 400',
      'fn=(5)',
      '0 400',
      'totals: 5700',
      '',
    ].join('\n');
    // Out: CodeEventLogger's 150, LinuxPerfBasicLogger's 50 and the fprintf they called, 400; the
    // compiler's own 100 stays, as does the JIT code's 5000.
    expect(parseDump(dump)).toEqual({ unit: 3, step: 2, instructions: 5100 });
  });
});

describe('bee-js under callgrind, named', () => {
  const JS: RunnerCommand = { argv: [process.execPath, resolve('runners/js/bin/bee-bench-js.mjs')] };
  const { spec, hash } = loadSpec(resolve('spec/bench-spec.json'));
  const planFor = (cases: string[]) => resolvePlan({ spec, specHash: hash, runner: 'js', profile: 'quick', cases });
  const counter = async () => {
    const found = await findCounter();
    if (!found.counter) throw new Error(`these tests need valgrind: ${found.reason}; install it with 'npm run test:tools' (as root)`);
    return found.counter;
  };
  // Perf maps in V8's folder whose process has exited: what a counting run must not leave behind.
  const leftMaps = () =>
    readdirSync(dirname(v8PerfMapPath(0)))
      .map((f) => /^perf-(\d+)\.map$/.exec(f)?.[1])
      .filter((pid): pid is string => pid !== undefined && !existsSync(`/proc/${pid}`));

  it('names at least 90% of a real row by function, the row found by its JavaScript names, and leaves no map behind', { timeout: 300_000 }, async () => {
    await counter();
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-v8-symbols-'));
    const plan = countingPlan(planFor(['cpu.keccak.chunk-hash']), 1);
    const inv = await invokeRunner(countingCommand(JS, 'js', dir), { plan, out: join(dir, 'result.json'), timeoutMs: 240_000 });
    const maps = collectPerfMaps(dir);
    expect(inv.problem).toBeUndefined();
    expect(maps).toHaveLength(1);
    const pid = Number(/perf-(\d+)\.map$/.exec(maps[0]!)![1]);
    expect(existsSync(v8PerfMapPath(pid))).toBe(false);
    // Nor the V8 log that --perf-basic-prof turns on, in the working folder.
    expect(readdirSync('.').filter((f) => f.endsWith(`-${pid}-v8.log`))).toEqual([]);

    const dumps = readdirSync(dir)
      .filter((f) => f.startsWith('callgrind.out.'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .filter((d) => /^desc: Trigger: Client Request: bee-bench \d+ \d+ perf-map=\d+$/m.test(d));
    expect(dumps).toHaveLength(1);
    const dump = dumps[0]!;
    const name = dumpSymbolizer(dump, dir);
    const total = dumpTotal(dump)!;
    // The counting runs record caller context (`fn'caller'…`): the function is the name's first part.
    const fnOf = (raw: string) => splitContext(raw).fn;
    const unnamedBefore = sumCosts(dump, (fn, callee) => callee === null && isAddress(fnOf(fn)));
    const unnamed = sumCosts(dump, (fn, callee) => callee === null && isAddress(name(fnOf(fn))));
    // Without the map most of the row is JIT code known by address only; with it, almost none.
    expect(unnamedBefore / total).toBeGreaterThan(0.5);
    expect(unnamed / total).toBeLessThan(0.1);
    const keccak = sumCosts(dump, (fn, callee) => callee === null && name(fnOf(fn)).startsWith('keccakPermutate cafe-utility/index.js'));
    expect(keccak / total).toBeGreaterThan(0.5);

    // The engine's counting run collects the map too, also of a run that counts no JIT code.
    const before = new Set(leftMaps());
    const run = await countRunner(JS, {
      runner: 'js',
      plan: planFor(['cpu.harness.noop']),
      counter: await counter(),
      out: join(dir, 'noop.json'),
      timeoutMs: 60_000,
      iterations: 1,
    });
    expect(run.problems).toEqual([]);
    expect(leftMaps().filter((pid) => !before.has(pid))).toEqual([]);
  });
});
