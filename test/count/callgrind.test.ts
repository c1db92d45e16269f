// Counting under real valgrind: the js runner (runners/js, set up by `npm run test:setup`) run
// by countRunner exactly as the engine runs it, on the cheapest real case, with two iterations.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildRunner, parseSource } from '../../src/build/index.js';
import { countingCommand, findCounter, JS_COUNT_FLAGS, parseDump, readDumps } from '../../src/count/callgrind.js';
import { collectPerfMaps } from '../../src/profile/v8-symbols.js';
import type { RunnerCommand } from '../../src/build/builder.js';
import { EVIDENCES } from '../../src/evidence/index.js';
import { countRunner } from '../../src/run/count.js';
import { v8HeapCost } from '../../runners/js/src/callgrind-costs.mjs';
import { invokeRunner } from '../../src/run/invoke.js';
import { ResultSchema, type Counter } from '../../src/spec/schema.js';
import { quickPlan, spec } from '../fixtures/spec.js';
import { caseResult, result } from '../report/fixtures.js';
import { clientsAmong, testClients } from '../clients.js';

const JS: RunnerCommand = { argv: [process.execPath, resolve('runners/js/bin/bee-bench-js.mjs')] };
const tmp = () => mkdtempSync(join(tmpdir(), 'bee-bench-count-'));

async function counter(): Promise<Counter> {
  const found = await findCounter();
  if (!found.counter)
    throw new Error(`these tests need valgrind: ${found.reason}; install it with 'npm run test:tools' (as root) or 'sudo apt-get install -y valgrind'`);
  return found.counter;
}

function count(cases: string[], extra: { env?: Record<string, string>; timeoutMs?: number } = {}) {
  return counter().then((c) =>
    countRunner(JS, {
      runner: 'js',
      plan: quickPlan('js', cases),
      counter: c,
      out: join(tmp(), 'count.json'),
      timeoutMs: extra.timeoutMs ?? 60_000,
      iterations: 2,
      ...(extra.env ? { env: extra.env } : {}),
    }),
  );
}

describe('parseDump', () => {
  it('reads the iteration named by the trigger and its total', () => {
    expect(parseDump('version: 1\ndesc: Trigger: Client Request: bee-bench 4 2\nevents: Ir\nsummary: 0\ntotals: 123456\n')).toEqual({
      unit: 4,
      step: 2,
      instructions: 123456,
    });
    expect(parseDump('desc: Trigger: Program termination\ntotals: 99\n')).toBeNull();
  });
});

describe('parseDump: wall-clock functions', () => {
  // Shaped as callgrind writes it with --compress-strings: a name in full the first time, (id) after.
  const dump = [
    'desc: Trigger: Client Request: bee-bench 2 5',
    'positions: line',
    'events: Ir',
    '',
    'fn=(1) main.work',
    '10 700',
    'cfn=(2) runtime.mallocgc',
    'calls=1 20',
    '20 100',
    'fn=(2)',
    '30 100',
    'fn=(3) runtime.sysmon',
    '40 50',
    '+1 7',
    'cfn=(4) runtime.retake',
    'calls=3 50',
    '* 30',
    "cfn=(5) runtime.sysmon'2",
    'calls=1 40',
    '* 11',
    'fn=(4)',
    '50 30',
    'fn=(5)',
    '40 11',
    'fn=(6) runtime.findRunnable',
    '60 20',
    'cfn=(7) runtime.stealWork',
    'calls=2 61',
    '* 15',
    'fn=(7)',
    '61 15',
    'totals: 933',
    '',
  ].join('\n');

  it("takes Go's monitor thread and idle scheduler out of the count, callees included, and nothing else", () => {
    // Self costs: main.work 700, mallocgc 100, sysmon 57, retake 30, sysmon'2 11, findRunnable
    // 20, stealWork 15 (933 in all). Out: everything under sysmon (57 + its call into retake 30 +
    // sysmon'2's own 11; the call from sysmon into sysmon'2 is not taken twice) and under
    // findRunnable (20 + 15); in: main.work and the mallocgc it called.
    expect(parseDump(dump)).toEqual({ unit: 2, step: 5, instructions: 800 });
  });
});

describe("parseDump: V8's heap management", () => {
  // Names as callgrind demangles them from node 20: return types first, templates with their visitor.
  const dump = [
    'desc: Trigger: Client Request: bee-bench 0 1',
    'positions: line',
    'events: Ir',
    '',
    'fn=(1) Builtins_KeccakF',
    '0 9000',
    'cfn=(2) v8::internal::Runtime_AllocateInYoungGeneration(int, unsigned long*, v8::internal::Isolate*)',
    'calls=1 0',
    '0 900',
    'fn=(2)',
    '0 40',
    'cfn=(3) v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace, v8::internal::GarbageCollectionReason, v8::GCCallbackFlags)',
    'calls=1 0',
    '0 860',
    'fn=(3)',
    '0 60',
    'cfn=(4) void v8::internal::Scavenger::ScavengePage(v8::internal::MemoryChunk*)',
    'calls=1 0',
    '0 800',
    'fn=(4)',
    '0 500',
    'cfn=(5) void v8::internal::BodyDescriptorBase::IteratePointers<v8::internal::YoungGenerationMarkingVisitor>(v8::internal::HeapObject, int, int, v8::internal::YoungGenerationMarkingVisitor*)',
    'calls=1 0',
    '0 200',
    'cfn=(6) heap::base::Stack::IteratePointersUntilMarker(heap::base::StackVisitor*) const',
    'calls=1 0',
    '0 100',
    'fn=(5)',
    '0 200',
    'fn=(6)',
    '0 100',
    'fn=(7) v8::internal::Factory::NewByteArray(int, v8::internal::AllocationType)',
    '0 77',
    'totals: 9977',
    '',
  ].join('\n');

  it('leaves the collector out and keeps the code that allocated, runtime entries included', () => {
    // Out: CollectGarbage 60, ScavengePage 500, the marking visitor 200, heap::base 100 (860).
    // In: the JIT code 9000, the runtime entry's own 40, the factory's 77.
    expect(parseDump(dump)).toEqual({ unit: 0, step: 1, instructions: 9117 });
    expect(v8HeapCost(dump)).toBe(860);
  });
});

describe('readDumps', () => {
  it("adds a step's count-mode slowdown spin to its iteration and orders steps", () => {
    const dir = tmp();
    const dump = (name: string, trigger: string, total: number) =>
      writeFileSync(join(dir, name), `desc: Trigger: Client Request: ${trigger}\ntotals: ${total}\n`);
    dump('callgrind.out.7.1', 'bee-bench 0 3', 1000);
    dump('callgrind.out.7.2', 'bee-bench-spin 0 3', 6);
    dump('callgrind.out.7.3', 'bee-bench-spin 0 3', 4);
    dump('callgrind.out.7.4', 'bee-bench 0 2', 900);
    dump('callgrind.out.7.5', 'bee-bench 1 2', 5);
    expect(readDumps(dir)).toEqual(
      new Map([
        [0, [900, 1010]],
        [1, [5]],
      ]),
    );
  });
});

describe('countingCommand', () => {
  it('wraps the runner in callgrind with instrumentation off until the runner asks, and V8 made deterministic for js', () => {
    const cmd = countingCommand({ argv: ['node', 'bee-bench-js.mjs'] }, 'js', '/dumps');
    expect(cmd.argv.slice(0, 3)).toEqual(['valgrind', '--tool=callgrind', '--instr-atstart=no']);
    expect(cmd.argv).toContain('--callgrind-out-file=/dumps/callgrind.out.%p');
    // valgrind's own ==pid== lines go to a log file when one is given, not to the console.
    expect(cmd.argv.some((a) => a.startsWith('--log-file='))).toBe(false);
    const logged = countingCommand({ argv: ['node', 'bee-bench-js.mjs'] }, 'js', '/dumps', { logFile: '/out/valgrind-js.log' });
    expect(logged.argv.slice(0, logged.argv.indexOf('node'))).toContain('--log-file=/out/valgrind-js.log');
    expect(cmd.argv.slice(cmd.argv.indexOf('node'))).toEqual([
      'node',
      '--single-threaded',
      '--predictable',
      '--predictable-gc-schedule',
      '--hash-seed=1',
      '--random-seed=1',
      // JIT code named in the dumps (src/profile/v8-symbols.ts), unless asked not to, and V8's
      // code log beside the dumps (source lines, src/profile/v8-log.ts).
      '--perf-basic-prof',
      '--log-code',
      '--no-log-source-code',
      '--no-short-builtin-calls',
      '--logfile=/dumps/v8.log',
      'bee-bench-js.mjs',
    ]);
    // Instruction addresses for every runner: bee-js's JIT code is placed by them.
    expect(cmd.argv.slice(0, cmd.argv.indexOf('node'))).toEqual(expect.arrayContaining(['--dump-line=yes', '--dump-instr=yes']));
    const unnamed = countingCommand({ argv: ['node', 'bee-bench-js.mjs'] }, 'js', '/dumps', { names: false });
    expect(unnamed.argv.slice(unnamed.argv.indexOf('node'))).toEqual(['node', ...JS_COUNT_FLAGS, 'bee-bench-js.mjs']);
    expect(cmd.env?.BEE_BENCH_COUNT).toBe('1');
    expect(cmd.env?.BEE_BENCH_COUNT_DIR).toBe('/dumps');
    expect(countingCommand({ argv: ['bee-bench-go'] }, 'go', '/d').env).toMatchObject({ GODEBUG: 'asyncpreemptoff=1', GOGC: 'off', GOMAXPROCS: '1' });
    expect(countingCommand({ argv: ['bee-bench-rs'] }, 'rs', '/d').env).toMatchObject({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' });
    expect(cmd.env?.GLIBC_TUNABLES).toBeUndefined();
  });
});

describe('countRunner under valgrind', { timeout: 240_000 }, () => {
  it('counts the timed region of each CPU iteration and never a net case', async () => {
    const run = await count(['cpu.harness.noop', 'net.stamps.list']);
    expect(run.problems).toEqual([]);
    const result = ResultSchema.parse(run.result);
    expect(result.counter).toMatchObject({ tool: 'callgrind', version: expect.stringMatching(/^valgrind-3\./) });
    expect(result.cases.map((c) => c.id)).toEqual(['cpu.harness.noop']);
    const noop = result.cases[0]!;
    expect(noop.instructions).toHaveLength(2);
    // An empty operation: the clock reads and the hooks' own calls, far below a whole process
    // (node's start-up alone is hundreds of millions of instructions).
    for (const n of noop.instructions!) expect(n).toBeGreaterThan(0);
    for (const n of noop.instructions!) expect(n).toBeLessThan(5_000_000);
  });

  it('names the case when the runner dumped no count, and the process when it was killed', async () => {
    const unbracketed = await count(['cpu.harness.noop'], { env: { BEE_BENCH_COUNT: '0' } });
    expect(unbracketed.problems).toEqual([expect.stringMatching(/^cpu\.harness\.noop empty: no instruction count was dumped/)]);
    expect(unbracketed.result?.cases[0]?.instructions).toBeUndefined();
    const killed = await count(['cpu.harness.noop'], { timeoutMs: 50 });
    expect(killed.problems).toEqual([expect.stringMatching(/^js under callgrind: runner killed after its budget/)]);
  });
});

// BEE_BENCH_SLOWDOWN while counting: each step's count grows by the fraction of its own count
// (runners/README.md), in every runner. Checked inside one process (its iteration dump against
// its spin dump), since the case's count itself moves a little between processes (README's A/A
// spreads). bee-go joins when BEE_GO_PATH names a checkout.
const slowed = testClients().tested;

describe.each(slowed)('a 1% slowdown while counting ($runner)', { timeout: 900_000 }, ({ runner, source }) => {
  it("adds 1.00-1.003% of each step's own count, which the engine adds to the step", async () => {
    const { command } = await buildRunner({ runner, source: parseSource(source), log: () => {} });
    const dir = tmp();
    const inv = await invokeRunner(countingCommand(command, runner, dir), {
      plan: quickPlan(runner, ['cpu.keccak.chunk-hash']),
      out: join(dir, 'result.json'),
      timeoutMs: 600_000,
      env: { BEE_BENCH_ITERS: '2', BEE_BENCH_SLOWDOWN: 'cpu.keccak.*:0.01' },
    });
    collectPerfMaps(dir);
    expect(inv.problem).toBeUndefined();
    const dumps = readdirSync(dir)
      .filter((f) => f.startsWith('callgrind.out.'))
      .map((f) => readFileSync(join(dir, f), 'utf8'));
    // A step's spin may be several dumps (each topping up the last): their sum is the spin.
    const total = (trigger: string) => {
      // bee-js marks each dump with its perf map's length (src/profile/v8-symbols.ts).
      const found = dumps.filter((d) => new RegExp(`^desc: Trigger: Client Request: ${trigger}(?: perf-map=\\d+)?$`, 'm').test(d));
      expect(found.length, trigger).toBeGreaterThan(0);
      return found.reduce((sum, d) => sum + parseDump(d)!.instructions, 0);
    };
    const warmup = spec.profiles.quick.warmup.cpu;
    const steps = [warmup, warmup + 1];
    // The runner sizes its spin from the count the engine reads (for bee-js, V8's heap management
    // left out): a few thousand instructions over at most. Sized from the raw total, bee-js's
    // share would be ~1.008% (the case's heap share is ~0.8%). bee-go sizes from the raw total
    // of its dumps, and the engine takes Go's wall-clock functions (sysmon, the idle scheduler) out
    // of every dump, the spins' included: the share reads a little low. Since the runner aligns the
    // allocator before each counted region (runners/go/harness/count/align.go) it reads
    // 0.009989-0.009991 (a 15.45 M spin against a 15.47 M target of a 1.547 G step), so the bound is
    // 0.002 points under 1%.
    for (const step of steps) {
      const share = total(`bee-bench-spin 0 ${step}`) / total(`bee-bench 0 ${step}`);
      expect(share).toBeGreaterThanOrEqual(runner === 'go' ? 0.00998 : 0.01);
      expect(share).toBeLessThanOrEqual(0.01003);
    }
    // Node's own heap functions are the ones V8_HEAP_FUNCTION names (a rename would count them again).
    if (runner === 'js') expect(Math.min(...dumps.filter((d) => d.includes('Client Request: bee-bench 0 ')).map(v8HeapCost))).toBeGreaterThan(0);
    expect(readDumps(dir).get(0)).toEqual(steps.map((s) => total(`bee-bench 0 ${s}`) + total(`bee-bench-spin 0 ${s}`)));
  });
});

// Two processes count an empty operation to the instruction: nothing outside the timed code
// (a runtime thread waking, an allocator arena of another thread) lands in a region.
const settled = clientsAmong(['rs', 'go']);

describe.each(settled)('counts that repeat ($runner)', { timeout: 900_000 }, ({ runner, source }) => {
  // This caught bee-go's dump name formatted inside the region and a preemption already due when
  // a region opened (runners/go/harness/count: Stop, Start).
  it('gives the same count of the noop case at every step of two processes', async () => {
    const { command } = await buildRunner({ runner, source: parseSource(source), log: () => {} });
    const c = await counter();
    const once = () =>
      countRunner(command, {
        runner,
        plan: quickPlan(runner, ['cpu.harness.noop']),
        counter: c,
        out: join(tmp(), 'count.json'),
        timeoutMs: 120_000,
        iterations: 6,
      });
    const [a, b] = await Promise.all([once(), once()]);
    const counts = [a, b].map((r) => r.result!.cases[0]!.instructions!);
    expect(counts[0]).toHaveLength(6);
    // The last step may differ from the others (the harness's end of case), the same way in both.
    expect(new Set(counts[0]!.slice(0, 5)).size).toBe(1);
    expect(counts[1]).toEqual(counts[0]);
  });
});

describe('findCounter', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });
  it('says why counting is unavailable when valgrind is missing', async () => {
    process.env.PATH = tmp();
    const found = await findCounter();
    expect(found.counter).toBeNull();
    expect(found).toMatchObject({ reason: expect.stringMatching(/valgrind is not installed/) });
  });
});

describe('the instructions evidence attaching counts', () => {
  it('copies counts onto the wall-time result by case and label, keeping its samples', () => {
    const param = { label: 'quick' };
    const wall = result('js', [
      caseResult({ id: 'cpu.keccak.bulk', param, samples_ns: [5, 6] }),
      caseResult({ id: 'net.stamps.list', param, samples_ns: [7] }),
    ]);
    const counted = result('js', [caseResult({ id: 'cpu.keccak.bulk', param, samples_ns: [9e9, 9e9], instructions: [1000, 1001] })], undefined, {
      counter: { tool: 'callgrind', version: 'valgrind-3.19.0' },
    });
    const merged = ResultSchema.parse(EVIDENCES.instructions.attach(wall, counted));
    expect(merged.counter?.version).toBe('valgrind-3.19.0');
    expect(merged.cases[0]!.samples_ns).toEqual([5, 6]);
    expect(merged.cases[0]!.instructions).toEqual([1000, 1001]);
    expect(merged.cases[1]!.instructions).toBeUndefined();
  });
});
