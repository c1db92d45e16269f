// The A/B table's figures agree with its verdict on a real run whose load changes half-way:
// busy processes start after the third of six rounds, so each side's round medians straddle
// two load levels. head / base of the figures must still be the change, and the comment must say
// in one line that the load moved.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderAbComment } from '../../src/report/render/ab-comment.js';
import { pairRows } from '../../src/run/pairs.js';
import { runRounds } from '../../src/run/rounds.js';
import { loadSpec } from '../../src/spec/load.js';
import { resolvePlan } from '../../src/spec/plan.js';
import { judgePaired, loadShift } from '../../src/verdict/index.js';
import { wallOf } from '../../src/verdict/index.js';

const SPEC = join(process.cwd(), 'spec', 'bench-spec.json');
const { spec, hash } = loadSpec(SPEC);
const js = { argv: [process.execPath, join(process.cwd(), 'runners', 'js', 'bin', 'bee-bench-js.mjs')] };
const ROUNDS = 6;
// Busy processes, one per process already runnable (at least six), each in a session of its own:
// with the kernel's autogroup scheduling a session shares the CPU as one, so busy loops started in
// the test's own session slowed the runner's iterations by only 1.3x; one session each takes the
// runner's share down whatever else the machine runs (CI shares its 2 cores).
const runnable = () => Number(/ (\d+)\//.exec(readFileSync('/proc/loadavg', 'utf8'))?.[1] ?? 1);
const hogs: ChildProcess[] = [];
const stopHogs = () => hogs.splice(0).forEach((h) => h.kill('SIGKILL'));
afterAll(stopHogs);

describe('a real A/B whose load changes half-way', () => {
  it('shows head / base equal to the change on every row, and the load note', async () => {
    const outcome = await runRounds(
      { base: js, head: js },
      {
        plan: resolvePlan({ spec, specHash: hash, runner: 'js', profile: 'quick', cases: ['cpu.keccak.chunk-hash', 'cpu.identity.create'] }),
        rounds: ROUNDS,
        outDir: mkdtempSync(join(tmpdir(), 'bee-bench-load-')),
        caseBudgetMs: 120_000,
        runBudgetMs: 900_000,
        env: { base: { BEE_BENCH_ITERS: '3' }, head: { BEE_BENCH_ITERS: '3' } },
        log: (line) => {
          // After the last case of round 4: the second half runs beside the busy processes.
          if (line.startsWith(`round ${ROUNDS / 2}/${ROUNDS} cpu.identity.create`) && hogs.length === 0) {
            const n = Math.max(6, runnable());
            for (let i = 0; i < n; i++) hogs.push(spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore', detached: true }));
          }
        },
      },
    );
    stopHogs();
    const paired = pairRows(outcome);
    const rows = judgePaired(paired, spec, { alpha: 0.02, threshold: 0.02 });
    const ok = rows.filter((r) => r.status === 'ok');
    expect(ok).toHaveLength(2);
    for (const r of ok) expect(wallOf(r)?.headMedianNs! / wallOf(r)?.baseMedianNs!).toBeCloseTo(wallOf(r)?.ratio!, 12);
    const load = loadShift(paired);
    expect(load).not.toBeNull();
    const md = renderAbComment({
      title: 'bee-bench: js base → head',
      marker: 'bee-bench:js',
      runner: 'js',
      baseLabel: 'registry',
      headLabel: 'registry',
      rows,
      alpha: 0.02,
      threshold: 0.02,
      rounds: outcome.roundsDone,
      profile: 'quick',
      env: { host: 'linux/x86_64', clientBase: 'bee-js', clientHead: 'bee-js', specHash: hash, wallTimeMs: outcome.elapsedMs, loadShift: load! },
    });
    expect(md.match(/machine's load moved/g)).toHaveLength(1);
  }, 900_000);
});
