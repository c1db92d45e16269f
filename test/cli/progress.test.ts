// The run's console progress: the three runners' shapes of "case finished" become one line each,
// with done/total over the whole run and an ETA; iteration lines are dropped, others pass.
import { describe, expect, it } from 'vitest';
import { clock, runProgress, summarize } from '../../src/cli/progress.js';

describe('run progress', () => {
  it('gives js, rs and go one shape, with done/total and an ETA', () => {
    const out: string[] = [];
    let t = 0;
    const p = runProgress(
      4,
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
    p.log('[go] [1/1] cpu.keccak.bulk quick -> ok: median 12.1ms (min 11.9ms, 5 iters), cpu median 12ms');
    p.log('js: build cache hit 88abf834 (registry)');
    expect(out).toEqual([
      '[1/4] js cpu.keccak.bulk quick: ok, median 50.42 ms (5 iterations) · ETA 30 s',
      '[2/4] rs cpu.keccak.bulk quick: ok, median 73.512 ms (5 iterations) · ETA 20 s',
      '[3/4] rs cpu.bmt.file-root quick: skipped: no offline chunker · ETA 10 s',
      '[4/4] go cpu.keccak.bulk quick: ok, median 12.1 ms (5 iterations)',
      'js: build cache hit 88abf834 (registry)',
    ]);
  });

  it('says the ETA in whole seconds and minutes', () => {
    expect(clock(40_400)).toBe('40 s');
    expect(clock(185_000)).toBe('3 min 05 s');
  });

  it('summarizes a failure in one line', () => {
    expect(summarize('FAILED: boom (3 samples kept)')).toBe('failed: boom');
    expect(summarize('failed after 2 samples: boom')).toBe('failed: after 2 samples: boom');
    expect(summarize('iteration 1/5')).toBeNull();
  });
});
