// The run's first-line ETA against the real time, on the machine it runs on, whatever its load: two real
// `bee-bench run`s of bee-js on a fresh build cache. The first builds the runner and keeps what its
// build, its cases and its own overhead took (src/build/timings.ts, with the cache); the second's
// estimate rests on those figures alone, and must be within 1.5x of its real time either way.
// Estimate and real time of both runs are printed (and kept in test-artifacts/eta.json).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'bee-bench-eta-real-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** "1 min 05 s" / "40 s" -> ms. */
function clockMs(text: string): number {
  const m = /^(?:(\d+) min )?(\d+) s$/.exec(text.trim());
  if (!m) throw new Error(`not a clock: ${text}`);
  return (Number(m[1] ?? 0) * 60 + Number(m[2])) * 1000;
}

/** One `bee-bench run` in its own process: the ETA its first line gives, and how long it really took. */
async function timedRun(): Promise<{ estimateMs: number; realMs: number; code: number | null; stderr: string }> {
  const args = [join(ROOT, 'src/cli.ts'), 'run', '--runner', 'js', '--case', 'cpu.*', '--size', 'quick', '--out', join(tmp, 'out')];
  const t0 = performance.now();
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), args, {
    cwd: tmp,
    env: { ...process.env, BEE_BENCH_CACHE: join(tmp, 'cache') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  const realMs = performance.now() - t0;
  const plan = /^run: .* · ETA (.+)$/m.exec(stderr);
  if (!plan) throw new Error(`no plan line in:\n${stderr}`);
  return { estimateMs: clockMs(plan[1]!), realMs, code, stderr };
}

describe('the ETA of a second run, learned from the machine', () => {
  it('is within 1.5x of its real time, learned from the first run', async () => {
    const first = await timedRun();
    expect(first.code, first.stderr).toBe(0);
    const second = await timedRun();
    expect(second.code, second.stderr).toBe(0);
    const figures = { first, second, ratio: second.realMs / second.estimateMs };
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    writeFileSync(
      join(ROOT, 'test-artifacts', 'eta.json'),
      `${JSON.stringify({ first: { estimateMs: first.estimateMs, realMs: first.realMs }, second: { estimateMs: second.estimateMs, realMs: second.realMs } }, null, 2)}\n`,
    );
    console.log(
      `ETA: first run estimated ${first.estimateMs} ms, took ${Math.round(first.realMs)} ms; second estimated ${second.estimateMs} ms, took ${Math.round(second.realMs)} ms (real/estimate ${figures.ratio.toFixed(2)})`,
    );
    expect(second.stderr).toMatch(/builds js cached/);
    expect(figures.ratio).toBeLessThanOrEqual(1.5);
    expect(figures.ratio).toBeGreaterThanOrEqual(1 / 1.5);
  }, 900_000);
});
