// Estimated cycles from callgrind's cache simulation: the parsing of dumps that carry the cache
// events (callgrind's format, with the exclusions the instruction count makes applied to the
// misses too), and a real valgrind run of the js runner's noop case with the simulation on.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_SIM_FLAGS, countingCommand, findCounter, JS_COUNT_FLAGS, JS_CYCLES_FLAGS, parseDump, readDumps } from '../../src/count/callgrind.js';
import type { RunnerCommand } from '../../src/build/builder.js';
import { EVIDENCES } from '../../src/evidence/index.js';
import { estimatedCycles } from '../../runners/js/src/callgrind-costs.mjs';
import { ResultSchema } from '../../src/spec/schema.js';
import { quickPlan } from '../fixtures/spec.js';

const JS: RunnerCommand = { argv: [process.execPath, resolve('runners/js/bin/bee-bench-js.mjs')] };
const tmp = () => mkdtempSync(join(tmpdir(), 'bee-bench-cycles-'));
const EVENTS = 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw';

describe('estimatedCycles', () => {
  it('is Ir + 10 x L1 misses + 100 x last-level misses, and null without cache events', () => {
    const events = EVENTS.slice('events: '.length).split(' ');
    expect(estimatedCycles(events, [1000, 400, 200, 3, 5, 2, 1, 1, 0])).toBe(1000 + 10 * 10 + 100 * 2);
    // A cost vector callgrind shortened (trailing zeros left out).
    expect(estimatedCycles(events, [1000, 400, 200, 3])).toBe(1030);
    expect(estimatedCycles(['Ir'], [1000])).toBeNull();
  });
});

describe('parseDump with cache events', () => {
  // Go's monitor thread (sysmon) with a callee, and the timed code: the excluded function's
  // misses leave the cycles as its instructions leave the count.
  const dump = [
    'desc: Trigger: Client Request: bee-bench 2 5',
    'positions: line',
    EVENTS,
    '',
    'fn=(1) main.work',
    '10 700 300 100 2 4 1 1 2',
    'cfn=(2) runtime.mallocgc',
    'calls=1 20',
    '20 100 50 20 0 1',
    'fn=(2)',
    '30 100 50 20 0 1',
    'fn=(3) runtime.sysmon',
    '40 50 20 10 5 5 5 1 1 1',
    'cfn=(4) runtime.retake',
    'calls=3 50',
    '* 30 10 0 0 2 0 0 1',
    'fn=(4)',
    '50 30 10 0 0 2 0 0 1',
    'totals: 880 380 130 7 12 6 2 4 1',
    '',
  ].join('\n');

  it('reads the cycles of what the count keeps, the wall-clock functions and their callees left out', () => {
    // Kept: main.work (700 Ir; L1 2+4+1, LL 1+2+0) and the mallocgc it called (100 Ir; L1 0+1).
    // Out: sysmon's own (50; L1 15, LL 3) and retake's (30; L1 2, LL 1), so 880 - 80 = 800 Ir.
    const cycles = 800 + 10 * (7 + 1) + 100 * 3;
    expect(parseDump(dump)).toEqual({ unit: 2, step: 5, instructions: 800, cycles });
  });

  it("leaves V8's heap management's misses out with its instructions", () => {
    const v8 = [
      'desc: Trigger: Client Request: bee-bench 0 1 perf-map=120',
      'positions: line',
      EVENTS,
      'fn=(1) Builtins_KeccakF',
      '0 9000 10 10 1 40',
      'fn=(2) void v8::internal::Scavenger::ScavengePage(v8::internal::MemoryChunk*)',
      '0 500 200 100 3 60 20 2 30 10',
      'totals: 9500 210 110 4 100 20 2 30 10',
    ].join('\n');
    expect(parseDump(v8)).toEqual({ unit: 0, step: 1, instructions: 9000, cycles: 9000 + 10 * (1 + 40) });
  });

  it('gives no cycles for a dump without cache events, and readDumps none for its step', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'callgrind.out.9.1'), `desc: Trigger: Client Request: bee-bench 0 2\n${EVENTS}\ntotals: 1000 0 0 1 2 3 0 0 1\n`);
    writeFileSync(join(dir, 'callgrind.out.9.2'), `desc: Trigger: Client Request: bee-bench-spin 0 2\n${EVENTS}\ntotals: 10\n`);
    writeFileSync(join(dir, 'callgrind.out.9.3'), 'desc: Trigger: Client Request: bee-bench 1 2\nevents: Ir\ntotals: 500\n');
    expect(parseDump(readFileSync(join(dir, 'callgrind.out.9.3'), 'utf8'))).toEqual({ unit: 1, step: 2, instructions: 500 });
    // A step's spin is added to its cycles as to its count.
    expect(readDumps(dir, 'cycles')).toEqual(new Map([[0, [1000 + 60 + 100 + 10]]]));
    expect(readDumps(dir)).toEqual(
      new Map([
        [0, [1010]],
        [1, [500]],
      ]),
    );
  });
});

describe('countingCommand with the cache simulation', () => {
  it('simulates a fixed cache geometry, not the host CPU', () => {
    const argv = countingCommand({ argv: ['bee-bench-rs'] }, 'rs', '/d', { cacheSim: true }).argv;
    expect(argv).toEqual(expect.arrayContaining([...CACHE_SIM_FLAGS]));
    expect(CACHE_SIM_FLAGS.filter((f) => /^--(I1|D1|LL)=\d+,\d+,64$/.test(f))).toHaveLength(3);
    expect(countingCommand({ argv: ['bee-bench-rs'] }, 'rs', '/d').argv).not.toContain('--cache-sim=yes');
  });

  it("runs bee-js with its cycles flags and tells the runner, leaving plain counting's as they were", () => {
    const cycles = countingCommand({ argv: ['node', 'bee-bench-js.mjs'] }, 'js', '/d', { cacheSim: true });
    const node = cycles.argv.indexOf('node');
    expect(cycles.argv.slice(node + 1, node + 1 + JS_CYCLES_FLAGS.length)).toEqual([...JS_CYCLES_FLAGS]);
    // Semi-spaces the worker's loading fits in, in place of --predictable-gc-schedule's (which would
    // override them), the optimizing compiler off until the runner's worker turns it on.
    expect(JS_CYCLES_FLAGS).not.toContain('--predictable-gc-schedule');
    // And a heap that grows 300% after the runner's collection before each region, so that no
    // old-generation marking starts inside one.
    expect(JS_CYCLES_FLAGS).toEqual(
      expect.arrayContaining(['--max-semi-space-size=32', '--min-semi-space-size=32', '--no-turbofan', '--hash-seed=1', '--heap-growing-percent=300']),
    );
    expect(cycles.env).toMatchObject({ BEE_BENCH_CACHE_SIM: '1', UV_THREADPOOL_SIZE: '1', BEE_BENCH_COUNT: '1' });
    const plain = countingCommand({ argv: ['node', 'bee-bench-js.mjs'] }, 'js', '/d');
    expect(plain.argv).toEqual(expect.arrayContaining([...JS_COUNT_FLAGS]));
    expect(plain.argv).not.toContain('--no-turbofan');
    expect(plain.env).not.toHaveProperty('BEE_BENCH_CACHE_SIM');
    expect(countingCommand({ argv: ['bee-bench-rs'] }, 'rs', '/d', { cacheSim: true }).env).not.toHaveProperty('BEE_BENCH_CACHE_SIM');
  });
});

describe('which clients the cycles evidence judges', () => {
  it('judges all three clients where valgrind is, as the counts do', async () => {
    const counter = await findCounter();
    for (const runner of ['js', 'go', 'rs'] as const) {
      expect(await EVIDENCES.cycles.unavailable(runner)).toBe(counter.counter ? null : counter.reason);
      expect(await EVIDENCES.cycles.unavailable(runner)).toBe(await EVIDENCES.instructions.unavailable(runner));
    }
  });
});

describe("the cycles evidence's quantum", () => {
  it('keeps an almost empty step one cache line apart from flagging, and a real row at the floor', () => {
    const judge = EVIDENCES.cycles.judge(0.005);
    // bee-go's noop across processes: 8,129 or 8,239 (one line missed in both levels, 10 + 100).
    expect(judge([8129], [8129], [8239]).verdict).toBe('~');
    expect(judge([8129], [8129], [8239]).threshold).toBeCloseTo(220 / 8129, 9);
    // Counts have no quantum: the same figures as instructions are a change.
    expect(EVIDENCES.instructions.judge(0.005)([8129], [8129], [8239]).verdict).toBe('regression');
    // A real row: 1% more of 635.8 M cycles is flagged at the 0.5% floor.
    expect(judge([635_811_157], [635_811_157], [642_169_269])).toMatchObject({ threshold: 0.005, verdict: 'regression' });
  });
});

describe('the cycles evidence under valgrind', { timeout: 240_000 }, () => {
  it('counts each iteration of the noop case with its cache events, cycles at least its instructions', async () => {
    const found = await findCounter();
    if (!found.counter) throw new Error(`these tests need valgrind: ${found.reason}`);
    const keep = tmp();
    const out = join(tmp(), 'cycles.json');
    // The noop twice, as two units: bee-js's cycles processes run each unit in a node of its own.
    const plan = quickPlan('js', ['cpu.harness.noop']);
    const twice = { ...plan, units: [plan.units[0]!, { ...plan.units[0]!, unit: 1 }] };
    const run = await EVIDENCES.cycles.run(JS, { runner: 'js', plan: twice, out, timeoutMs: 60_000, iterations: 2, keep });
    expect(run.problems).toEqual([]);
    const result = ResultSchema.parse(run.result);
    expect(result.cases).toHaveLength(2);
    const noop = result.cases[0]!;
    expect(result.cases[1]!.cycles).toHaveLength(2);
    expect(noop.cycles).toHaveLength(2);
    expect(noop.instructions).toHaveLength(2);
    noop.cycles!.forEach((c, i) => expect(c).toBeGreaterThanOrEqual(noop.instructions![i]!));
    // The dumps themselves carry the cache events, with misses in a region run cold.
    const dumps = readdirSync(keep)
      .filter((f) => f.startsWith('callgrind.out.'))
      .map((f) => readFileSync(join(keep, f), 'utf8'))
      .filter((d) => /Client Request: bee-bench 0 /.test(d));
    expect(dumps.length).toBe(2);
    for (const d of dumps) expect(d).toMatch(/^events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw$/m);
    // One process per unit: each unit's dumps come from a pid of their own.
    const pidOf = (unit: number) =>
      new Set(
        readdirSync(keep)
          .filter((f) => new RegExp(`Client Request: bee-bench ${unit} `).test(readFileSync(join(keep, f), 'utf8')))
          .map((f) => f.split('.')[2]),
      );
    expect([...pidOf(0)]).toHaveLength(1);
    expect([...pidOf(1)]).toHaveLength(1);
    expect(pidOf(0)).not.toEqual(pidOf(1));
    // No perf map or V8 code log: nothing reads names from the cycles' dumps, and V8's loggers
    // would write (and allocate) inside the regions.
    expect(readdirSync(keep).filter((f) => !f.startsWith('callgrind.out.'))).toEqual([]);
    expect(noop.cycles!.some((c, i) => c > noop.instructions![i]!)).toBe(true);
    // The record attaches only the cycles to a wall-time result (of one unit: the two are the same case).
    const one = { ...result, cases: [noop] };
    const wall = { ...one, cases: one.cases.map(({ cycles: _c, instructions: _i, ...c }) => c) };
    const attached = EVIDENCES.cycles.attach(wall, one);
    expect(attached.cases[0]!.cycles).toEqual(noop.cycles);
    expect(attached.cases[0]!.instructions).toBeUndefined();
  });

  it("repeats bee-js's manifest lookups across processes: its malloc arena drained before the region", async () => {
    const found = await findCounter();
    if (!found.counter) throw new Error(`these tests need valgrind: ${found.reason}`);
    // The quick unit as a cycles run measures it, twice: two cycles processes of the same case.
    // Before the runner drained the arena (runners/js/src/arena.mjs) such processes counted up to
    // 0.11% apart in instructions, all of it in glibc's malloc; drained, 0.0009%
    // (docs/calibration.md). Not a smaller size: with less warmup work the optimizing compiler
    // still runs inside the region, and its work follows where its zones lie.
    const quick = quickPlan('js', ['cpu.manifest.lookup-large']);
    const plan = { ...quick, units: [quick.units[0]!, { ...quick.units[0]!, unit: 1 }] };
    const run = await EVIDENCES.cycles.run(JS, { runner: 'js', plan, out: join(tmp(), 'cycles.json'), timeoutMs: 200_000 });
    expect(run.problems).toEqual([]);
    const [a, b] = ResultSchema.parse(run.result).cases.map((c) => ({ instructions: c.instructions![0]!, cycles: c.cycles![0]! }));
    expect(Math.abs(a!.instructions / b!.instructions - 1)).toBeLessThan(3e-5);
    // Cycles keep a spread the drain does not remove (where the arena's top and V8's pages lie):
    // 0.083% at most in the calibration's pool, up to 0.1% between two processes here; the bound
    // is about twice that.
    expect(Math.abs(a!.cycles / b!.cycles - 1)).toBeLessThan(2e-3);
  }, 480_000);
});
