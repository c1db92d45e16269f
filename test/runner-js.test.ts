// The bee-js runner (runners/js) against the runner contract (runners/README.md), black-box: it
// is run as a process on a plan the engine resolved, and its result file is checked with the zod
// schema. No Bee node needed.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, type Fault, type Plan, type PlanHooks } from '../src/spec/plan.js';
import { InfoSchema, ResultSchema, type CaseResult, type Result } from '../src/spec/schema.js';
import { hash, quickPlan, spec, SPEC_FILE as SPEC } from './fixtures/spec.js';

const RUNNER = 'runners/js/bin/bee-bench-js.mjs';
const run = promisify(execFile);
const tmp = () => mkdtempSync(join(tmpdir(), 'bee-bench-runner-js-'));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the runner; never rejects on a non-zero exit. */
async function runner(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [RUNNER, ...args], {
      env: { ...process.env, ...env },
      maxBuffer: 16 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** The quick-profile plan of the given case globs, as `bee-bench plan --runner js` prints it. */

/** Writes a plan (or anything in its place) to a temporary file. */
function planFile(plan: unknown): string {
  const file = join(tmp(), 'plan.json');
  writeFileSync(file, typeof plan === 'string' ? plan : JSON.stringify(plan));
  return file;
}

/** Runs a plan; returns the validated result. */
async function runPlan(plan: Plan, env: Record<string, string> = {}): Promise<{ result: Result; stderr: string }> {
  const out = join(tmp(), 'result.json');
  const { code, stderr } = await runner(['run', '--plan', planFile(plan), '--out', out], env);
  expect(code, stderr).toBe(0);
  return { result: ResultSchema.parse(JSON.parse(readFileSync(out, 'utf8'))), stderr };
}

/** Runs the quick profile on the given case globs with the given hooks. */
const runCases = (globs: string[], hooks: PlanHooks = {}) => runPlan(quickPlan('js', globs, hooks));

const byId = (r: Result) => new Map<string, CaseResult>(r.cases.map((c) => [c.id, c]));
const cpuIds = spec.cases.filter((c) => c.kind === 'cpu').map((c) => c.id);
const ENCRYPTED = 'cpu.bmt.encrypted-file-root';

describe('runner-js on every CPU case (quick profile)', () => {
  let first: Result;
  let second: Result;
  beforeAll(async () => {
    // Two runs for digest stability; iterations cut to 2: the assertions are about shape,
    // statuses and digests, not timings.
    [first, second] = [(await runCases(['cpu.*'], { iters: 2 })).result, (await runCases(['cpu.*'], { iters: 1 })).result];
  });

  it('writes a complete result file for this spec and runner', () => {
    expect(first.runner).toBe('js');
    expect(first.client.name).toBe('@ethersphere/bee-js');
    expect(first.spec).toEqual({ hash, profile: 'quick' });
    expect(first.bee).toBeNull();
    expect(first.finished_at).not.toBeNull();
    expect(first.cases.map((c) => c.id)).toEqual(cpuIds);
  });

  it('runs every CPU case ok except the encrypted chunker, skipped with its reason', () => {
    for (const c of first.cases) {
      if (c.id === ENCRYPTED) {
        expect(c.status).toBe('skipped');
        expect(c.skip_reason).toBe('no offline encrypting chunker in bee-js (encryption lives in the upload path)');
      } else {
        expect(c.status, `${c.id}: ${c.error ?? c.skip_reason}`).toBe('ok');
        expect(c.samples_ns).toHaveLength(2);
        expect(c.warmup).toBe(spec.profiles.quick.warmup.cpu);
        expect(c.peak_rss_bytes).toBeGreaterThan(0);
      }
    }
  });

  it("records each unit's param, work and warmup, in plan order", () => {
    const units = quickPlan('js', ['cpu.*']).units;
    expect(first.cases.map((c) => c.id)).toEqual(units.map((u) => u.id));
    first.cases.forEach((c, i) => {
      expect(c.param).toEqual(units[i]!.param);
      expect(c.work).toEqual(units[i]!.work);
      if (c.status === 'ok') expect(c.warmup).toBe(units[i]!.warmup);
    });
  });

  it('gives every case with a digest a stable digest, run to run', () => {
    const again = byId(second);
    for (const c of first.cases) {
      const specCase = spec.cases.find((s) => s.id === c.id)!;
      if (!specCase.digest || c.status !== 'ok') continue;
      expect(c.digest, c.id).toMatch(/^[0-9a-f]{64}$/);
      expect(again.get(c.id)?.digest, c.id).toBe(c.digest);
    }
  });

  it('agrees with itself where the spec says two cases hash the same output', () => {
    const d = (id: string) => byId(first).get(id)?.digest;
    // sequential and parallel chunk hashing of payloads 0..3
    expect(d('cpu.keccak.parallel')).toBe(d('cpu.keccak.chunk-hash'));
    // signer recovered from signature j = address of key j (j < 4): three routes, one answer
    expect(d('cpu.ecdsa.sign')).toBe(d('cpu.identity.create'));
    expect(d('cpu.ecdsa.verify')).toBe(d('cpu.identity.create'));
  });

  it("hashes keccak.parallel's slices in turn, each worker settled first, in a cycles process: the same addresses", async () => {
    // Natively the counter's requests do nothing; BEE_BENCH_CACHE_SIM takes the pool's cycles path
    // (runInTurn after a settle of every worker, runners/js/src/cases/keccak.mjs).
    const cases = ['cpu.keccak.chunk-hash', 'cpu.keccak.parallel'];
    const { result } = await runPlan(quickPlan('js', cases, { iters: 2 }), { BEE_BENCH_COUNT: '1', BEE_BENCH_CACHE_SIM: '1', BEE_BENCH_COUNT_DIR: tmp() });
    const cycles = byId(result);
    for (const id of cases) expect(cycles.get(id)?.status, cycles.get(id)?.error).toBe('ok');
    expect(cycles.get('cpu.keccak.parallel')?.samples_ns).toHaveLength(2);
    expect(cycles.get('cpu.keccak.parallel')?.digest).toBe(byId(first).get('cpu.keccak.parallel')?.digest);
    expect(cycles.get('cpu.keccak.chunk-hash')?.digest).toBe(byId(first).get('cpu.keccak.chunk-hash')?.digest);
  });
});

describe('runner-js info', () => {
  it('prints runner, client, runtime and host', async () => {
    const { code, stdout } = await runner(['info']);
    expect(code).toBe(0);
    const info = InfoSchema.parse(JSON.parse(stdout));
    expect(info.runner).toBe('js');
    expect(info.client).toMatchObject({ name: '@ethersphere/bee-js', source: 'registry' });
    expect(info.runtime).toBe(`node ${process.version}`);
  });
});

describe('runner-js command line', () => {
  const out = () => join(tmp(), 'result.json');
  const good = () => planFile(quickPlan('js', ['cpu.harness.noop'], { iters: 1 }));

  it.each([
    ['an unknown flag', () => ['run', '--plan', good(), '--bogus', 'x', '--out', out()], /unknown flag --bogus/],
    ['a missing --out', () => ['run', '--plan', good()], /--out is required/],
    ['a missing --plan', () => ['run', '--out', out()], /--plan is required.*bee-bench plan/],
    ['an unreadable plan', () => ['run', '--plan', join(tmp(), 'none.json'), '--out', out()], /--plan: cannot read/],
    ['--bee-url without --batch-id', () => ['run', '--plan', good(), '--bee-url', 'http://127.0.0.1:1633', '--out', out()], /--batch-id/],
    ['an unknown command', () => ['bench'], /unknown command/],
  ])('exits 2 on %s, naming it', async (_what, args, message) => {
    const { code, stderr } = await runner(args());
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it.each([['--spec', SPEC], ['--case', 'cpu.*'], ['--profile', 'quick'], ['--large']])('refuses %s, telling to pass --plan', async (...flag) => {
    const { code, stderr } = await runner(['run', ...flag, '--out', out()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`${flag[0]} is not taken any more: pass --plan FILE, a plan made by bee-bench plan`));
  });

  /** A two-unit plan broken by `edit`. */
  const broken = (edit: (p: Record<string, any>) => void) => {
    const plan = structuredClone(quickPlan('js', ['cpu.harness.noop', 'cpu.keccak.bulk'], { iters: 1 })) as Record<string, any>;
    edit(plan);
    return plan;
  };
  it.each([
    ['not JSON', '{"schema":', /not JSON/],
    ['another schema', broken((p) => (p.schema = 'bee-bench/spec@1')), /schema: must be "bee-bench\/plan@1"/],
    ['another runner', broken((p) => (p.runner = 'go')), /runner: the plan is for the "go" runner, this is "js"/],
    ['a missing field', broken((p) => delete p.units[1].timeout_s), /units\[1\]\.timeout_s: missing/],
    ['a mistyped field', broken((p) => (p.units[1].iters = 0)), /units\[1\]\.iters: must be a positive integer, got 0/],
    ['a bad fraction', broken((p) => (p.units[0].slowdown = '0.1')), /units\[0\]\.slowdown: must be a number, got "0\.1"/],
    ['an unknown fault', broken((p) => (p.units[0].fault = 'explode')), /units\[0\]\.fault: must be "throw" or "hang" or "reject"/],
    ['an unknown field in a unit', broken((p) => (p.units[1].profile = 'quick')), /units\[1\]\.profile: unknown field/],
    ['an unknown top-level field', broken((p) => (p.cases = [])), /^bee-bench-js: bad plan .*: cases: unknown field/m],
    ['a param that is not an object', broken((p) => (p.units[0].param = ['noop'])), /units\[0\]\.param: must be an object/],
    ['a bad digest form', broken((p) => (p.units[1].digest.form = 'raw')), /units\[1\]\.digest\.form/],
    ['an unknown kind', broken((p) => (p.units[1].kind = 'gpu')), /units\[1\]\.kind: must be "cpu" or "net"/],
    ['unit numbers that do not increase', broken((p) => (p.units[1].unit = 0)), /units\[1\]\.unit: unit numbers must increase \(0 then 0\)/],
  ])('exits 2 on a plan with %s, naming the file and field', async (_what, plan, message) => {
    const file = planFile(plan);
    const { code, stderr } = await runner(['run', '--plan', file, '--out', out()]);
    expect(code).toBe(2);
    expect(stderr).toContain(`bad plan ${file}: `);
    expect(stderr).toMatch(message);
  });

  it.each([
    [{ BEE_BENCH_COUNT: 'yes' }, /BEE_BENCH_COUNT: must be 1 or 0/],
    [{ BEE_BENCH_ALLOCS: 'on' }, /BEE_BENCH_ALLOCS: must be 1 or 0/],
    [{ BEE_BENCH_PACE_FD: 'three' }, /BEE_BENCH_PACE_FD: must be a file descriptor number/],
    [{ BEE_BENCH_COUNT: '1', BEE_BENCH_ALLOCS: '1' }, /each measurement runs in its own process/],
  ])('exits 2 on malformed modes %j, naming the variable', async (env, message) => {
    const { code, stderr } = await runner(['run', '--plan', good(), '--out', out()], env);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('skips net cases without a node, with the documented reason and no network', async () => {
    const { result } = await runCases(['net.stamps.*', 'net.bzz.upload']);
    // net.bzz.upload runs twice in the quick profile: plain and at erasure level 4.
    expect(result.cases.map((c) => c.id)).toEqual(['net.stamps.list', 'net.stamps.concurrent', 'net.bzz.upload', 'net.bzz.upload']);
    for (const c of result.cases) {
      expect(c).toMatchObject({ status: 'skipped', skip_reason: 'no Bee node given (--bee-url and --batch-id)', samples_ns: [] });
    }
  });

  it("names the plan's units in the pacing protocol, however they are numbered", async () => {
    // A shard's plan: a subset of the full plan's units, keeping their numbers (here 3 and 8).
    const full = quickPlan('js', ['cpu.*'], { iters: 2 });
    const shard = { ...full, units: full.units.filter((u) => u.unit === 3 || u.unit === 8) };
    expect(shard.units.map((u) => u.unit)).toEqual([3, 8]);
    const out = join(tmp(), 'result.json');
    const child = spawn(process.execPath, [RUNNER, 'run', '--plan', planFile(shard), '--out', out], {
      env: { ...process.env, BEE_BENCH_PACE_FD: '3' },
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    const channel = child.stdio[3] as Duplex;
    const lines: string[] = [];
    createInterface({ input: channel }).on('line', (line) => {
      lines.push(line);
      channel.write('g');
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const steps = (unit: number, n: number) => Array.from({ length: n }, (_, step) => `ready ${unit} ${step}`);
    expect(lines).toEqual(shard.units.flatMap((u) => steps(u.unit, u.warmup + u.iters)));
    const result = ResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(result.cases.map((c) => [c.id, c.status])).toEqual(shard.units.map((u) => [u.id, 'ok']));
  });
});

describe('runner-js hooks', () => {
  // Three faults (the hook takes one glob at a time), each on a case between two healthy ones.
  const FAULTY = 'cpu.keccak.chunk-hash';
  const CASES = ['cpu.harness.noop', FAULTY, 'cpu.identity.create'];
  // The timeout bounds the hang; the healthy cases need ~1.5 s, so 8 s leaves room on a busy machine.
  const faultRun = async (mode: Fault) => (await runCases(CASES, { fault: { glob: FAULTY, mode }, iters: 2, timeoutS: 8 })).result;

  const results: Record<string, Result> = {};
  beforeAll(async () => {
    // One after the other: in parallel they would compete for the CPU and time each other out.
    for (const mode of FAULTS) results[mode] = await faultRun(mode);
  });

  it.each([
    ['throw', /BEE_BENCH_FAULT: injected throw/, 0],
    ['hang', /timed out after 8 s \(in iterations\)/, 0],
    ['reject', /unhandled rejection: .*BEE_BENCH_FAULT: injected rejection/, 2],
  ])('fails only the case that does %s, with the error, keeping its samples', (mode, error, samples) => {
    const cases = byId(results[mode]!);
    expect(cases.get(FAULTY)).toMatchObject({ status: 'failed', error: expect.stringMatching(error) });
    expect(cases.get(FAULTY)!.samples_ns).toHaveLength(samples);
    expect(cases.get('cpu.harness.noop')!.status).toBe('ok');
    expect(cases.get('cpu.identity.create')!.status).toBe('ok');
  });

  it('keeps the finished cases in the file while a later case is still running', async () => {
    const out = join(tmp(), 'result.json');
    const plan = quickPlan('js', ['cpu.harness.noop', FAULTY], { fault: { glob: FAULTY, mode: 'hang' }, timeoutS: 60 });
    const child = spawn(process.execPath, [RUNNER, 'run', '--plan', planFile(plan), '--out', out], {
      stdio: 'ignore',
    });
    try {
      let partial: Result | undefined;
      for (let i = 0; i < 300 && !partial; i++) {
        await new Promise((r) => setTimeout(r, 100));
        if (!existsSync(out)) continue;
        const r = ResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
        if (r.cases.length === 1) partial = r;
      }
      expect(partial?.finished_at).toBeNull();
      expect(partial?.cases[0]).toMatchObject({ id: 'cpu.harness.noop', status: 'ok' });
    } finally {
      child.kill();
    }
  });

  it('a slowdown spins inside the timed region', async () => {
    const id = 'cpu.keccak.bulk';
    // Sequential: the spin of one run would otherwise slow the other one down.
    const plain = await runCases([id], { iters: 3 });
    const slowed = await runCases([id], { iters: 3, slowdown: { glob: id, fraction: 9 } });
    const min = (r: Result) => Math.min(...r.cases[0]!.samples_ns);
    // 10x by construction; 3x leaves room for a CPU whose speed swings 2x between the two runs
    // (seen on CI's shared VMs), while a spin outside the timed region would give ~1x.
    expect(min(slowed.result)).toBeGreaterThan(3 * min(plain.result));
  });
});

describe('runner-js allocation counting (BEE_BENCH_ALLOCS=1)', () => {
  const ALLOCS = { BEE_BENCH_ALLOCS: '1' };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!;
  const bytesOf = (r: Result, id: string) => median(byId(r).get(id)!.alloc_bytes!);

  it("meters known allocations in a case worker under the run's flags, within 1% above their bytes", async () => {
    // The runner's own path: the process starts itself again under the allocation flags, the
    // meter runs in a worker thread with the case workers' limits, each region from a settled heap.
    const src = (file: string) => pathToFileURL(resolve('runners/js/src', file)).href;
    const script = join(tmp(), 'probe.mjs');
    writeFileSync(
      script,
      `import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { ALLOC_WORKER_LIMITS, allocMeter, rerunWithAllocFlags } from '${src('alloc.mjs')}';
import { settleGc } from '${src('gc.mjs')}';
const N = 200;
// Bytes per Uint8Array, and per array of K / 8 numbers: large objects, which V8 accounts at
// their size (smaller young ones also count the tail of a page they did not fit in).
const K = 160_000;
if (isMainThread) {
  const code = await rerunWithAllocFlags(null);
  if (code !== null) process.exit(code);
  new Worker(new URL(import.meta.url), { resourceLimits: ALLOC_WORKER_LIMITS }).on('message', (m) => console.log(JSON.stringify(m)));
} else {
  const meter = await allocMeter();
  const keep = [];
  const measure = (make) => {
    settleGc();
    const bytes = meter.measure(() => { for (let i = 0; i < N; i++) keep.push(make()); });
    keep.length = 0;
    return bytes;
  };
  parentPort.postMessage({
    want: N * K,
    typed: measure(() => new Uint8Array(K)),
    arrays: measure(() => new Array(K / 8).fill(0)),
    nothing: measure(() => undefined),
  });
}
`,
    );
    const { stdout } = await run(process.execPath, [script]);
    const got = JSON.parse(stdout) as { want: number; typed: number; arrays: number; nothing: number };
    for (const key of ['typed', 'arrays'] as const) {
      expect(got[key], key).toBeGreaterThanOrEqual(got.want);
      expect(got[key], key).toBeLessThanOrEqual(got.want * 1.01);
    }
    // 200 pushes into the keeping array: its backing store grows, at most a few KiB.
    expect(got.nothing).toBeLessThan(8192);
  });

  describe('on a plan', () => {
    const CASES = ['cpu.harness.noop', 'cpu.keccak.bulk', 'cpu.manifest.hash', 'net.stamps.list'];
    const BULK = 'cpu.keccak.bulk';
    // Reads its files through fs streams: the row whose bytes moved with how the reads completed.
    const FILES = 'cpu.manifest.hash';
    let plain: Result;
    let again: Result;
    let extra: Result;
    beforeAll(async () => {
      plain = (await runPlan(quickPlan('js', CASES, { iters: 3 }), ALLOCS)).result;
      again = (await runPlan(quickPlan('js', CASES, { iters: 3 }), ALLOCS)).result;
      extra = (await runPlan(quickPlan('js', CASES, { iters: 3, allocExtra: { glob: BULK, fraction: 1 } }), ALLOCS)).result;
    });

    it('records one alloc_bytes per timed iteration of each CPU unit, and how it counted', () => {
      expect(plain.alloc_counter?.method).toMatch(/used_heap_size.*external_memory/);
      for (const c of plain.cases.filter((c) => c.kind === 'cpu')) {
        expect(c.status, c.error).toBe('ok');
        expect(c.alloc_bytes).toHaveLength(c.samples_ns.length);
        expect(c.allocs).toBeUndefined(); // V8 counts no allocations
      }
      expect(byId(plain).get('net.stamps.list')!.alloc_bytes).toBeUndefined();
      // The meter takes its own share off: an empty operation allocates (almost) nothing.
      expect(bytesOf(plain, 'cpu.harness.noop')).toBeLessThan(256);
      expect(bytesOf(extra, 'cpu.harness.noop')).toBeLessThan(256);
      // Keccak over 12.5 MiB of fixture allocates, and the same plan twice gives the same bytes.
      expect(bytesOf(plain, BULK)).toBeGreaterThan(1e6);
      expect(Math.abs(bytesOf(again, BULK) / bytesOf(plain, BULK) - 1)).toBeLessThan(0.005);
    });

    it('gives the same bytes in two processes where the operation waits on file reads: the median the verdict reads, and most iterations', () => {
      // With libuv's four pool threads the two processes' iterations differed by 0.05-0.7%. On a
      // loaded machine one iteration can still differ (0.77% in a first iteration, under a full
      // test run beside valgrind runs: work V8 does while the read waits); the verdict reads each
      // side's median per iteration (src/verdict/allocations.ts), which that one iteration leaves alone.
      const steps = (r: Result) => byId(r).get(FILES)!.alloc_bytes!;
      expect(steps(plain)).toHaveLength(3);
      expect(Math.abs(median(steps(again)) / median(steps(plain)) - 1)).toBeLessThan(1e-4);
      const alike = steps(plain).filter((bytes, i) => Math.abs(steps(again)[i]! / bytes - 1) < 1e-4);
      expect(alike.length).toBeGreaterThanOrEqual(2);
    });

    it("alloc_extra adds that fraction of the operation's bytes", () => {
      expect(bytesOf(extra, BULK) / bytesOf(plain, BULK)).toBeCloseTo(2, 3);
    });
  });
});
