// The resolved plan: the spec's rules applied once, by the engine, for every runner
// (runners/README.md "Command line"), and `bee-bench plan` printing it.
import { describe, expect, it } from 'vitest';
import { runCli } from './cli/run-cli.js';
import { InputError } from '../src/spec/errors.js';
import { hooksFromEnv } from '../src/spec/hooks.js';
import { loadSpec } from '../src/spec/load.js';
import { applyHooks, planOf, PlanSchema, resolvePlan } from '../src/spec/plan.js';
import { editedSpecFile, SPEC_FILE } from './fixtures/spec.js';

const { spec, hash } = loadSpec(SPEC_FILE);

/** The CLI with `env` added to the environment for the call (the hooks are read from it). */
async function cli(args: string[], env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await runCli(args);
  } finally {
    process.env = saved;
  }
}

describe('resolvePlan', () => {
  const js = resolvePlan({ spec, specHash: hash, runner: 'js', profile: 'quick', cases: ['cpu.keccak.*'] });
  const rs = resolvePlan({ spec, specHash: hash, runner: 'rs', profile: 'quick', cases: ['cpu.keccak.*'] });

  it('numbers the selected cases and params in spec order and validates', () => {
    expect(PlanSchema.parse(js)).toEqual(js);
    expect(js.units.map((u) => [u.unit, u.id])).toEqual([
      [0, 'cpu.keccak.chunk-hash'],
      [1, 'cpu.keccak.parallel'],
      [2, 'cpu.keccak.bulk'],
    ]);
    expect(js.spec_hash).toBe(hash);
    expect(js.fixtures.chunk_payload_bytes).toBe(spec.fixtures.chunk_payload_bytes);
  });

  it("merges the runner's per_runner values, pins the digest input and multiplies the work", () => {
    const declared = spec.cases.find((c) => c.id === 'cpu.keccak.chunk-hash')!.params.quick[0]!;
    const [jsUnit, rsUnit] = [js.units[0]!, rs.units[0]!];
    expect(jsUnit.param.count).toBe(declared.per_runner!.js!.count);
    expect(rsUnit.param.count).toBe(declared.count);
    expect(jsUnit.param).not.toHaveProperty('per_runner');
    expect(jsUnit.digest).toEqual({ form: 'sha256-concat', param: { ...jsUnit.param, ...declared.digest_with } });
    expect(rsUnit.digest!.param).toEqual(jsUnit.digest!.param);
    expect(jsUnit.work).toEqual({ ops: Number(jsUnit.param.count), bytes: Number(jsUnit.param.count) * Number(jsUnit.param.chunk_bytes) });
    expect(jsUnit).toMatchObject({ warmup: spec.profiles.quick.warmup.cpu, iters: spec.profiles.quick.iters, timeout_s: spec.profiles.quick.case_timeout_s });
    expect(js.units[1]!.parallel).toBe(true);
  });

  it('leaves large params out unless asked', () => {
    const all = (large: boolean) => resolvePlan({ spec, specHash: hash, runner: 'rs', profile: 'full', large }).units.length;
    expect(all(true)).toBeGreaterThan(all(false));
  });

  it('sets each hook on the units its glob matches, and only there', () => {
    const hooks = hooksFromEnv({
      BEE_BENCH_FAULT: 'cpu.keccak.bulk:hang',
      BEE_BENCH_SLOWDOWN: 'cpu.keccak.*:0.1',
      BEE_BENCH_ALLOC: 'cpu.keccak.parallel:0.01',
      BEE_BENCH_ITERS: '2',
      BEE_BENCH_CASE_TIMEOUT_S: '1.5',
    });
    const hooked = applyHooks(js, hooks);
    expect(hooked.units.map((u) => [u.fault, u.slowdown, u.alloc_extra])).toEqual([
      [undefined, 0.1, undefined],
      [undefined, 0.1, 0.01],
      ['hang', 0.1, undefined],
    ]);
    expect(hooked.units.every((u) => u.iters === 2 && u.timeout_s === 1.5)).toBe(true);
    expect(PlanSchema.safeParse(hooked).success).toBe(true);
  });

  it('names the variable of a malformed hook', () => {
    expect(() => hooksFromEnv({ BEE_BENCH_FAULT: 'cpu.*:explode' })).toThrow(/BEE_BENCH_FAULT.*throw, hang, reject/);
    expect(() => hooksFromEnv({ BEE_BENCH_SLOWDOWN: 'cpu.*' })).toThrow(InputError);
    expect(() => hooksFromEnv({ BEE_BENCH_ITERS: '2.5' })).toThrow(/BEE_BENCH_ITERS/);
  });

  it('keeps unit numbers in a part of the plan, and refuses numbers that do not increase', () => {
    const part = planOf(js, (u) => u.id !== 'cpu.keccak.parallel');
    expect(part.units.map((u) => u.unit)).toEqual([0, 2]);
    const swapped = { ...js, units: [js.units[1], js.units[0]] };
    expect(PlanSchema.safeParse(swapped).error?.issues[0]?.path).toEqual(['units', 1, 'unit']);
    expect(PlanSchema.safeParse({ ...js, units: [{ ...js.units[0], extra: 1 }] }).success).toBe(false);
  });
});

describe('bee-bench plan', () => {
  it('prints the plan of one runner as JSON, hooks from the environment included', async () => {
    const r = await cli(['plan', '--runner', 'go', '--case', 'cpu.identity.*'], { BEE_BENCH_FAULT: 'cpu.identity.create:throw' });
    expect(r.code).toBe(0);
    const plan = PlanSchema.parse(JSON.parse(r.stdout));
    expect(plan.runner).toBe('go');
    expect(plan.units.map((u) => [u.id, u.fault])).toEqual([['cpu.identity.create', 'throw']]);
  });

  // Before plans, the Go and Rust runners refused such a spec with exit 2 and the JS runner ran it.
  it.each([
    ['an unknown group', (s: any) => (s.cases[0].group = 'no-such-group'), /cases\[0\]\.group: unknown group "no-such-group"/],
    [
      'a per_runner without digest_with',
      (s: any) => delete s.cases.find((c: any) => c.id === 'cpu.keccak.chunk-hash').params.quick[0].digest_with,
      /digest_with: per_runner scales "count"/,
    ],
  ])('rejects a spec with %s once, naming the file and field', async (_, edit, message) => {
    const file = editedSpecFile(edit);
    const r = await cli(['plan', '--runner', 'js', '--spec', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(message);
  });

  it('needs exactly one runner', async () => {
    expect((await cli(['plan'])).stderr).toMatch(/plan needs exactly one --runner/);
  });
});
