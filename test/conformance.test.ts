// Every runner, against the one contract: the command line (exit codes, info, unknown globs),
// the result schema on the quick CPU profile, and cross-client agreement of every deterministic
// digest. bee-go joins when BEE_GO_PATH names a checkout (the test does not depend on which
// modules the Go module proxy serves).
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRunner, parseSource, type BuiltRunner } from '../src/build/index.js';
import { invokeRunner } from '../src/run/invoke.js';
import type { Plan } from '../src/spec/plan.js';
import { InfoSchema, type Result, type Runner } from '../src/spec/schema.js';
import { testClients } from './clients.js';
import { hash, quickPlan, spec, SPEC_FILE as SPEC } from './fixtures/spec.js';

const exec = promisify(execFile);
const tmp = () => mkdtempSync(join(tmpdir(), 'bee-bench-conf-'));
// Usage errors must exit before writing anything; a real path keeps a broken runner harmless.
const OUT_UNUSED = join(tmp(), 'never-written.json');

const wanted = testClients().tested;

const built = new Map<Runner, BuiltRunner>();
const results = new Map<Runner, Result>();

const writePlan = (plan: unknown): string => {
  const file = join(tmp(), 'plan.json');
  writeFileSync(file, JSON.stringify(plan));
  return file;
};
const otherRunner = (r: Runner): Runner => (r === 'js' ? 'rs' : 'js');
const badIters = (p: Plan) => ({ ...p, units: p.units.map((u) => ({ ...u, iters: 0 })) });
const UNIT_NUMBERS = [7, 19];
const renumbered = (p: Plan): Plan => ({ ...p, units: p.units.map((u, i) => ({ ...u, unit: UNIT_NUMBERS[i]! })) });

async function call(b: BuiltRunner, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [exe, ...prefix] = b.command.argv;
  try {
    const { stdout, stderr } = await exec(exe!, [...prefix, ...args], { maxBuffer: 16 << 20 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

beforeAll(async () => {
  for (const w of wanted) {
    const b = await buildRunner({ runner: w.runner, source: parseSource(w.source), log: () => {} });
    built.set(w.runner, b);
    const inv = await invokeRunner(b.command, {
      // Digests and statuses do not depend on iteration counts; keep the suite short.
      plan: quickPlan(w.runner, ['cpu.*'], { iters: 1 }),
      out: join(tmp(), `${w.runner}.json`),
      timeoutMs: 600_000,
    });
    expect(inv.problem, `${w.runner}: ${inv.problem}`).toBeUndefined();
    results.set(w.runner, inv.result!);
  }
});

describe.each(wanted.map((w) => w.runner))('runner %s keeps the contract', (runner) => {
  it('writes a complete, schema-valid result of the quick CPU profile', () => {
    const r = results.get(runner)!;
    expect(r.runner).toBe(runner);
    expect(r.spec).toEqual({ hash, profile: 'quick' });
    expect(r.finished_at).not.toBeNull();
    expect(r.bee).toBeNull();
    const cpu = spec.cases.filter((c) => c.kind === 'cpu').map((c) => c.id);
    expect(r.cases.map((c) => c.id)).toEqual(cpu);
    for (const c of r.cases) {
      if (c.id === 'cpu.bmt.encrypted-file-root') {
        expect(c.status).toBe('skipped');
        expect(c.skip_reason).toMatch(/encrypt/);
      } else {
        expect(c.status, `${c.id}: ${c.error ?? ''}`).toBe('ok');
        expect(c.samples_ns).toHaveLength(1);
        expect(c.warmup).toBe(spec.profiles.quick.warmup.cpu);
      }
    }
  });

  it('answers info with its client identity', async () => {
    const out = await call(built.get(runner)!, ['info']);
    expect(out.code).toBe(0);
    const info = InfoSchema.parse(JSON.parse(out.stdout));
    expect(info.runner).toBe(runner);
    expect(info.client.source).toBe(runner === 'go' ? 'path' : 'registry');
  });

  it.each([
    [(_: string) => ['run', '--spec', SPEC, '--out', OUT_UNUSED], /--plan/],
    [(p: string) => ['run', '--plan', p], /--out/],
    [(p: string) => ['run', '--plan', p, '--out', OUT_UNUSED, '--bogus'], /bogus/],
    [(p: string) => ['run', '--plan', p, '--out', OUT_UNUSED, '--bee-url', 'http://127.0.0.1:1633'], /batch-id/],
    [(_: string) => ['run', '--plan', '/nonexistent/plan.json', '--out', OUT_UNUSED], /plan/],
    [(_: string) => ['run', '--plan', writePlan({ ...quickPlan(runner, ['cpu.harness.noop']), runner: otherRunner(runner) }), '--out', OUT_UNUSED], /runner/],
    [(_: string) => ['run', '--plan', writePlan(badIters(quickPlan(runner, ['cpu.harness.noop']))), '--out', OUT_UNUSED], /units\[0\]\.iters/],
  ])('exits 2 naming the problem for %s', async (args, message) => {
    const out = await call(built.get(runner)!, args(writePlan(quickPlan(runner, ['cpu.harness.noop']))));
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(message);
  });

  it('skips net cases without a Bee node, naming why', async () => {
    const inv = await invokeRunner(built.get(runner)!.command, {
      plan: quickPlan(runner, ['net.stamps.*']),
      out: join(tmp(), 'net.json'),
      timeoutMs: 120_000,
    });
    expect(inv.problem).toBeUndefined();
    for (const c of inv.result!.cases) {
      expect(c.status).toBe('skipped');
      expect(c.skip_reason).toMatch(/no Bee node given/);
    }
  });

  describe('takes turns on BEE_BENCH_PACE_FD', () => {
    const UNITS = ['cpu.harness.noop', 'cpu.identity.create'];
    const ITERS = 3;
    const steps = spec.profiles.quick.warmup.cpu + ITERS;
    const HOLD_MS = 40;

    /** Runs UNITS paced by a test engine that answers each `ready` after HOLD_MS (or lets go early). */
    async function paced(letGoAfter = Infinity) {
      const lines: string[] = [];
      const inv = await invokeRunner(built.get(runner)!.command, {
        // Unit numbers as a shard's plan has them (neither from 0 nor contiguous): the lines name them.
        plan: renumbered(quickPlan(runner, UNITS, { iters: ITERS })),
        out: join(tmp(), 'paced.json'),
        timeoutMs: 120_000,
        pace: (channel) => {
          createInterface({ input: channel, crlfDelay: Infinity }).on('line', (line) => {
            lines.push(line);
            if (lines.length === letGoAfter) channel.end();
            else if (lines.length < letGoAfter) setTimeout(() => channel.write('g'), HOLD_MS);
          });
        },
      });
      expect(inv.problem).toBeUndefined();
      return { lines, inv };
    }

    it('announces every warmup and timed iteration, then waits for its byte', async () => {
      const { lines, inv } = await paced();
      const want = UNITS.flatMap((_, i) => Array.from({ length: steps }, (_, step) => `ready ${UNIT_NUMBERS[i]} ${step}`));
      expect(lines).toEqual(want);
      // It waited HOLD_MS for each of its turns: the waits are real.
      expect(inv.outcome.elapsedMs).toBeGreaterThan(want.length * HOLD_MS);
      for (const c of inv.result!.cases) expect(c).toMatchObject({ status: 'ok', samples_ns: expect.any(Array) });
      expect(inv.result!.cases.map((c) => c.samples_ns.length)).toEqual([ITERS, ITERS]);
    });

    it('runs on by itself once the engine lets go', async () => {
      const { lines, inv } = await paced(2);
      expect(lines.slice(0, 2)).toEqual([`ready ${UNIT_NUMBERS[0]} 0`, `ready ${UNIT_NUMBERS[0]} 1`]);
      expect(inv.result!.cases.map((c) => [c.status, c.samples_ns.length])).toEqual([
        ['ok', ITERS],
        ['ok', ITERS],
      ]);
    });
  });
});

/**
 * Digest divergences that are real client behaviour, checked against Bee itself, and reported in
 * FINDINGS.md. Each must keep diverging exactly like this: when a client changes, this test says
 * so, and the entry goes.
 */
const KNOWN_DIVERGENCES: Record<string, { runner: Runner; why: string }> = {
  'cpu.manifest.hash': {
    runner: 'rs',
    why: 'bee-rs 1.7.0 hash_collection_entries writes no Content-Type/Filename metadata; Bee (tar upload), bee-js and bee-go do',
  },
};

describe('cross-client agreement', () => {
  it('has at least two runners to compare', () => {
    expect(results.size).toBeGreaterThanOrEqual(2);
  });

  it('gives identical digests for every deterministic CPU case', () => {
    const disagreements: string[] = [];
    for (const c of spec.cases.filter((s) => s.digest && s.kind === 'cpu')) {
      const values = new Map<Runner, string | undefined>();
      for (const [runner, r] of results) {
        const entry = r.cases.find((e) => e.id === c.id);
        if (entry?.status === 'ok') values.set(runner, entry.digest);
      }
      const known = KNOWN_DIVERGENCES[c.id];
      const agreeing = new Map([...values].filter(([r]) => r !== known?.runner));
      const distinct = new Set(agreeing.values());
      const show = () => [...values].map(([r, d]) => `${r}=${d ?? '(none)'}`).join(' ');
      if (agreeing.size > 0 && (distinct.size !== 1 || distinct.has(undefined))) disagreements.push(`${c.id}: ${show()}`);
      if (known && values.has(known.runner) && agreeing.size > 0 && distinct.has(values.get(known.runner))) {
        disagreements.push(`${c.id}: ${known.runner} now agrees (${show()}): drop its KNOWN_DIVERGENCES entry (${known.why})`);
      }
    }
    expect(disagreements, disagreements.join('\n')).toEqual([]);
  });
});
