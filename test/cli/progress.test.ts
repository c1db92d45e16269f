// The run's console progress: the three runners' shapes of "case finished" become one line each,
// with done/total over the whole run and an ETA over every step left (builds included); a silent
// step gets a heartbeat; iteration lines are dropped, others pass. Time is injected, not waited for.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clock, runProgress, summarize, type Stage } from '../../src/cli/progress.js';
import { overheadEstimate, planLine, recordStages, runStages } from '../../src/cli/eta.js';
import { buildEstimate, FIRST_BUILD_MS, readTimings, recordBuild } from '../../src/build/timings.js';
import { defaultSpecPath } from '../../src/build/paths.js';

const wall = (runner: Stage['runner'], units: number, estimateMs: number): Stage => ({ runner, kind: 'wall', units, estimateMs });
const build = (runner: Stage['runner'], estimateMs: number): Stage => ({ runner, kind: 'build', units: 1, estimateMs });

describe('run progress', () => {
  it('gives js, rs and go one shape, with done/total and an ETA', () => {
    const out: string[] = [];
    let t = 0;
    const p = runProgress(
      [build('js', 0), wall('js', 1, 10_000), build('rs', 0), wall('rs', 2, 20_000), build('go', 0), wall('go', 1, 10_000)],
      (l) => out.push(l),
      () => t,
    );
    // js: start, then the outcome on its own line
    p.log('[js] [1/2] cpu.keccak.bulk quick ...');
    t = 10_000;
    p.log('[js]   ok: median 50.42 ms, min 38.48 ms over 5 iterations, peak RSS 152 MiB, digest 89f6e8a44741');
    // rs (after a 100 s build that is not case time): start and outcome on one line; or after
    // iteration lines, the head again
    t = 110_000;
    p.log('[rs] [1/2] cpu.keccak.bulk quick ...');
    p.log('[rs]     iteration 1/5: 73.100 ms');
    t = 120_000;
    p.log('[rs] [1/2] cpu.keccak.bulk quick ... ok, 5 iterations, median 73.512 ms');
    t = 130_000;
    p.log('[rs] [2/2] cpu.bmt.file-root quick ... skipped: no offline chunker');
    // go: the outcome after "->"
    t = 140_000;
    p.log('[go] [1/1] cpu.keccak.bulk quick   iteration 1/5: 1.507s');
    p.log('[go] [1/1] cpu.keccak.bulk quick -> ok: median 12.1ms (min 11.9ms, 5 iters), cpu median 12ms');
    p.log('js: build cache hit 88abf834 (registry)');
    expect(out).toEqual([
      '[1/4] js cpu.keccak.bulk quick: ok, median 50.4 ms (5 iterations) · ETA 30 s',
      '[2/4] rs cpu.keccak.bulk quick: ok, median 73.5 ms (5 iterations) · ETA 20 s',
      '[3/4] rs cpu.bmt.file-root quick: skipped: no offline chunker · ETA 10 s',
      '[4/4] go cpu.keccak.bulk quick: ok, median 12.1 ms (5 iterations)',
      'js: build cache hit 88abf834 (registry)',
    ]);
  });

  it('makes a build a step: its own line when it starts, a heartbeat while it is silent, an ETA that counts it', () => {
    const out: string[] = [];
    let t = 0;
    const p = runProgress(
      [build('rs', 240_000), wall('rs', 2, 20_000)],
      (l) => out.push(l),
      () => t,
    );
    expect(p.etaMs()).toBe(260_000);
    p.log("rs: building registry (not in the cache; about 240 s, a first build's time on 2 cores)");
    t = 9_000;
    p.beat(); // silent for less than HEARTBEAT_MS: nothing
    t = 12_000;
    p.beat();
    t = 14_000;
    p.beat(); // a line 2 s ago: nothing
    t = 250_000;
    p.beat(); // past its estimate: said, and the ETA is what is left after it
    t = 300_000;
    p.log('rs: built registry in 300 s (cache miss abc); output in x/build.log');
    p.log('[rs] [1/2] cpu.keccak.bulk quick ...');
    t = 312_000;
    p.beat();
    t = 320_000;
    p.log('[rs] [1/2] cpu.keccak.bulk quick ... ok, 5 iterations, median 73.512 ms');
    t = 330_000;
    p.log('[rs] [2/2] cpu.bmt.file-root quick ... skipped: no offline chunker');
    expect(out).toEqual([
      "rs: building registry (not in the cache; about 240 s, a first build's time on 2 cores) · ETA 4 min 20 s",
      'rs: building, 12 s so far · ETA 4 min 08 s',
      'rs: building, 4 min 10 s so far, over its estimate of 4 min 00 s · ETA 20 s',
      'rs: built registry in 300 s (cache miss abc); output in x/build.log',
      'rs: running cpu.keccak.bulk quick, 12 s so far · ETA 8 s',
      '[1/2] rs cpu.keccak.bulk quick: ok, median 73.5 ms (5 iterations) · ETA 20 s',
      '[2/2] rs cpu.bmt.file-root quick: skipped: no offline chunker',
    ]);
    expect(p.finish()).toEqual([
      { runner: 'rs', kind: 'build', msPerUnit: 300_000 },
      { runner: 'rs', kind: 'wall', msPerUnit: 15_000 },
    ]);
  });

  it('drops the steps of a runner whose build failed from the ETA', () => {
    const out: string[] = [];
    let t = 0;
    const p = runProgress(
      [build('go', 60_000), wall('go', 3, 30_000), wall('rs', 1, 5_000)],
      (l) => out.push(l),
      () => t,
    );
    p.log("go: building /src/bee-go (not in the cache; about 60 s, the last build's time)");
    t = 5_000;
    p.log('go: build failed: boom');
    expect(p.etaMs()).toBe(5_000);
  });

  it('estimates a run from the cache: a cached build is free, the last times are used, a first run gets the defaults', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'bee-bench-eta-'));
    const runners = [{ runner: 'rs' as const, source: { kind: 'registry' as const } }];
    const sel = { runners, specFile: defaultSpecPath(), size: 'quick' as const, cases: ['cpu.*'], measure: ['wall' as const], cacheDir, loadFactor: 1 };
    const first = await runStages(sel);
    expect(first.map((s) => [s.kind, s.units])).toEqual([
      ['build', 1],
      ['wall', first[1]!.units],
    ]);
    expect(first[0]!.estimateMs).toBe(FIRST_BUILD_MS.rs);
    expect(first[1]!.estimateMs).toBeGreaterThan(0);
    expect(buildEstimate(cacheDir, 'rs', 1).from).toBe('first build');
    // Before any build on the machine it runs on: the first build's time, times the square root of the load factor.
    expect(buildEstimate(cacheDir, 'rs', 4).ms).toBe(2 * FIRST_BUILD_MS.rs);
    // What the last run took, kept in the cache, is the next estimate.
    writeFileSync(join(cacheDir, 'timings.json'), JSON.stringify({ builds: { rs: 90_000 } }));
    recordStages(cacheDir, 'quick', [{ runner: 'rs', kind: 'wall', msPerUnit: 2_000 }]);
    expect(readTimings(cacheDir).builds['rs']).toBe(90_000);
    const next = await runStages(sel);
    expect(next.map((s) => s.estimateMs)).toEqual([90_000, 2_000 * first[1]!.units]);
    expect(planLine(next)).toBe(
      `run: builds rs ~1 min 30 s; ${first[1]!.units} case run(s) ~${clock(2_000 * first[1]!.units)} · ETA ${clock(90_000 + 2_000 * first[1]!.units)}`,
    );
    // A build is kept as it took on the machine it runs on, and is the next estimate whatever the load now.
    recordBuild(cacheDir, 'go', 200_000);
    expect(readTimings(cacheDir).builds['go']).toBe(200_000);
    expect(buildEstimate(cacheDir, 'go', 3)).toEqual({ ms: 200_000, from: 'last build', factor: 1 });
    // The run's overhead beyond its steps is kept when every step finished, and joins the next ETA.
    const stages = await runStages(sel);
    recordStages(
      cacheDir,
      'quick',
      [
        { runner: 'rs', kind: 'build', msPerUnit: 90_000 },
        { runner: 'rs', kind: 'wall', msPerUnit: 2_000 },
      ],
      {
        elapsedMs: 90_000 + 2_000 * first[1]!.units + 7_000,
        stages,
      },
    );
    expect(overheadEstimate(cacheDir, 'quick')).toBe(7_000);
    expect(planLine(stages, 7_000)).toContain(`ETA ${clock(90_000 + 2_000 * first[1]!.units + 7_000)}`);
    // A run cut short keeps no overhead.
    recordStages(cacheDir, 'quick', [{ runner: 'rs', kind: 'build', msPerUnit: 90_000 }], { elapsedMs: 1_000_000, stages });
    expect(overheadEstimate(cacheDir, 'quick')).toBe(7_000);
    // A file that is not the store's shape is no history, not a crash.
    writeFileSync(join(cacheDir, 'timings.json'), '{"builds": {"rs": "soon"}}');
    expect(buildEstimate(cacheDir, 'rs', 1)).toEqual({ ms: FIRST_BUILD_MS.rs, from: 'first build', factor: 1 });
  });

  it('has a step per evidence: a deterministic run starts its own on its first line, and one that cannot run here ends at once', () => {
    const out: string[] = [];
    let t = 0;
    const step = (kind: Stage['kind'], estimateMs: number): Stage => ({ runner: 'rs', kind, units: 2, estimateMs });
    const p = runProgress(
      [wall('rs', 2, 20_000), step('instructions', 60_000), step('cycles', 300_000)],
      (l) => out.push(l),
      () => t,
    );
    p.log('[rs] [1/2] cpu.keccak.bulk quick ... ok, 5 iterations, median 73.512 ms');
    p.log('[rs] [2/2] cpu.bmt.file-root quick ... ok, 5 iterations, median 10.000 ms');
    t = 20_000;
    // The counting run's lines (src/evidence/run.ts prefixes them with the evidence's kind) end the wall step.
    p.log('[rs instructions] [1/2] cpu.keccak.bulk quick ...');
    t = 40_000;
    p.beat();
    expect(out.at(-1)).toBe('rs: measuring instructions, 20 s so far · ETA 5 min 40 s');
    // Estimated cycles cannot run here: their step is over, and the ETA no longer counts it.
    p.log('rs: estimated cycles skipped: valgrind is not installed');
    expect(p.etaMs()).toBe(40_000);
    expect(p.finish().map((s) => s.kind)).toEqual(['wall', 'instructions']);
  });

  it('says the ETA in whole seconds and minutes', () => {
    expect(clock(40_400)).toBe('40 s');
    expect(clock(185_000)).toBe('3 min 05 s');
  });

  it("gives every runner's median one format", () => {
    expect(summarize('ok: median 0.0002 ms, min 0.0001 ms over 200 iterations')).toBe('ok, median 200 ns (200 iterations)');
    expect(summarize('ok, 200 iterations, median 0.000 ms')).toBe('ok, median < 500 ns (200 iterations)');
    // The runners' lines now carry the report's median to the ns (bee-js in µs, bee-rs in ns): the console agrees with report.md.
    expect(summarize('ok: median 0.092 µs, min 0.088 µs over 5 iterations')).toBe('ok, median 92.0 ns (5 iterations)');
    expect(summarize('ok, 5 iterations, median 22 ns')).toBe('ok, median 22.0 ns (5 iterations)');
    expect(summarize('ok, 4 iterations, median 22.5 ns')).toBe('ok, median 22.5 ns (4 iterations)');
    expect(summarize('ok: median 30ns (min 29ns, 200 iters)')).toBe('ok, median 30.0 ns (200 iterations)');
  });

  it('summarizes a failure in one line', () => {
    expect(summarize('FAILED: boom (3 samples kept)')).toBe('failed: boom');
    expect(summarize('failed after 2 samples: boom')).toBe('failed: after 2 samples: boom');
    expect(summarize('iteration 1/5')).toBeNull();
  });
});
