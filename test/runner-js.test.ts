// The bee-js runner (runners/js) against the runner contract (runners/README.md), black-box: it
// is run as a process and its result file is checked with the zod schema. No Bee node needed.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/spec/load.js';
import { InfoSchema, ResultSchema, type CaseResult, type Result } from '../src/spec/schema.js';
import { effectiveParam, workOf } from '../src/spec/select.js';

const RUNNER = 'runners/js/bin/bee-bench-js.mjs';
const SPEC = 'spec/bench-spec.json';
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

/** Runs the quick profile on the given case globs; returns the validated result. */
async function runCases(globs: string[], env: Record<string, string> = {}): Promise<{ result: Result; stderr: string }> {
  const out = join(tmp(), 'result.json');
  const { code, stderr } = await runner(['run', '--spec', SPEC, ...globs.flatMap((g) => ['--case', g]), '--out', out], env);
  expect(code, stderr).toBe(0);
  return { result: ResultSchema.parse(JSON.parse(readFileSync(out, 'utf8'))), stderr };
}

const byId = (r: Result) => new Map<string, CaseResult>(r.cases.map((c) => [c.id, c]));
const { spec, hash } = loadSpec(SPEC);
const cpuIds = spec.cases.filter((c) => c.kind === 'cpu').map((c) => c.id);
const ENCRYPTED = 'cpu.bmt.encrypted-file-root';

describe('runner-js on every CPU case (quick profile)', () => {
  let first: Result;
  let second: Result;
  beforeAll(async () => {
    // Two runs for digest stability; iterations cut to 2: the assertions are about shape,
    // statuses and digests, not timings.
    [first, second] = [
      (await runCases(['cpu.*'], { BEE_BENCH_ITERS: '2' })).result,
      (await runCases(['cpu.*'], { BEE_BENCH_ITERS: '1' })).result,
    ];
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

  it('records the js-effective param and its work, as the engine computes them', () => {
    for (const c of first.cases) {
      const specCase = spec.cases.find((s) => s.id === c.id)!;
      const param = effectiveParam(specCase.params.quick[0]!, 'js');
      expect(c.param).toEqual(param);
      expect(c.work).toEqual(workOf(specCase, param));
    }
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
    expect(d('cpu.ecdsa.sign-1000')).toBe(d('cpu.identity.create'));
    expect(d('cpu.ecdsa.verify-1000')).toBe(d('cpu.identity.create'));
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
  it.each([
    ['an unknown flag', ['run', '--spec', SPEC, '--bogus', '--out', 'x.json'], /--bogus/],
    ['a missing --out', ['run', '--spec', SPEC], /--out/],
    ['an unknown profile', ['run', '--spec', SPEC, '--profile', 'slow', '--out', 'x.json'], /--profile/],
    ['a glob matching no case', ['run', '--spec', SPEC, '--case', 'cpu.nope.*', '--out', 'x.json'], /cpu\.nope\.\*/],
    ['--bee-url without --batch-id', ['run', '--spec', SPEC, '--bee-url', 'http://127.0.0.1:1633', '--out', 'x.json'], /--batch-id/],
    ['an unknown command', ['bench'], /unknown command/],
  ])('exits 2 on %s, naming it', async (_what, args, message) => {
    const { code, stderr } = await runner(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('exits 2 on a bad spec, naming the field', async () => {
    const { code, stderr } = await runner(['run', '--spec', 'package.json', '--out', out()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad spec .*schema/);
  });

  it.each([
    ['BEE_BENCH_FAULT', 'cpu.*:explode'],
    ['BEE_BENCH_COUNT', 'yes'],
  ])('exits 2 on a malformed hook %s, naming the variable', async (name, value) => {
    const { code, stderr } = await runner(['run', '--spec', SPEC, '--out', out()], { [name]: value });
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(name));
  });

  it('skips net cases without a node, with the documented reason and no network', async () => {
    const { result } = await runCases(['net.stamps.*', 'net.bzz.upload']);
    expect(result.cases.map((c) => c.id)).toEqual(['net.stamps.list', 'net.stamps.concurrent', 'net.bzz.upload']);
    for (const c of result.cases) {
      expect(c).toMatchObject({ status: 'skipped', skip_reason: 'no Bee node given (--bee-url and --batch-id)', samples_ns: [] });
    }
  });
});

describe('runner-js hooks', () => {
  // Three faults (the hook takes one glob at a time), each on a case between two healthy ones.
  const FAULTY = 'cpu.keccak.chunk-hash';
  const CASES = ['cpu.harness.noop', FAULTY, 'cpu.identity.create'];
  // The timeout bounds the hang; the healthy cases need ~1.5 s, so 8 s leaves room on a busy machine.
  const faultRun = async (mode: string) =>
    (await runCases(CASES, { BEE_BENCH_FAULT: `${FAULTY}:${mode}`, BEE_BENCH_ITERS: '2', BEE_BENCH_CASE_TIMEOUT_S: '8' })).result;

  const results: Record<string, Result> = {};
  beforeAll(async () => {
    // One after the other: in parallel they would compete for the CPU and time each other out.
    for (const mode of ['throw', 'hang', 'reject']) results[mode] = await faultRun(mode);
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
    const child = spawn(process.execPath, [RUNNER, 'run', '--spec', SPEC, '--case', 'cpu.harness.noop', '--case', FAULTY, '--out', out], {
      env: { ...process.env, BEE_BENCH_FAULT: `${FAULTY}:hang`, BEE_BENCH_CASE_TIMEOUT_S: '60' },
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

  it('BEE_BENCH_SLOWDOWN spins inside the timed region', async () => {
    const id = 'cpu.keccak.bulk';
    // Sequential: the spin of one run would otherwise slow the other one down.
    const plain = await runCases([id], { BEE_BENCH_ITERS: '3' });
    const slowed = await runCases([id], { BEE_BENCH_ITERS: '3', BEE_BENCH_SLOWDOWN: `${id}:9` });
    const min = (r: Result) => Math.min(...r.cases[0]!.samples_ns);
    // 10x by construction; 3x leaves room for a CPU whose speed swings 2x between the two runs
    // (seen on CI's shared VMs), while a spin outside the timed region would give ~1x.
    expect(min(slowed.result)).toBeGreaterThan(3 * min(plain.result));
  });
});
