// Runs one plan unit inside a worker thread, so that a case that hangs (even in a synchronous
// loop), throws or leaks a rejection costs only this thread: the main thread owns the timeout
// and the result file, and terminates the worker. Steps as in runners/README.md "Timing rules":
// setup, digest, warmup, timed iterations. Each sample is posted as soon as it is taken, so a
// case that fails half-way keeps the samples it had.
//
// Messages to the main thread: {t:'phase', phase}, {t:'digest', hex}, {t:'warmup', n},
// {t:'sample', wall, cpu, bytes?}, then one of {t:'done'}, {t:'skip', reason}, {t:'error', message}.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { allocMeter } from './alloc.mjs';
import { drainMallocArena } from './arena.mjs';
import { CASES } from './cases/index.mjs';
import { loadClient } from './client.mjs';
import { describeError, Skip } from './errors.mjs';
import { loadCounter } from './count.mjs';
import { fixtureView } from './fixtures.mjs';
import { finishSweeping, settleGc } from './gc.mjs';
import { timeIteration, withFault } from './measure.mjs';
import { pacer } from './pace.mjs';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort); // set: this is a worker

/**
 * A cycles process (callgrind's cache simulation, BEE_BENCH_CACHE_SIM=1 from the engine: `cacheSim`) starts
 * node with the optimizing compiler off (src/count/callgrind.ts JS_CYCLES_FLAGS) and this worker
 * turns it on once the case is set up: what the loading compiles depends on the order its
 * asynchronous file reads complete in, and its code, placed before the case's in the code space,
 * moved the case's hot code and with it the simulated instruction-cache misses
 * (docs/calibration.md "Estimated cycles"). After the setup, not after this worker's own loading,
 * since a setup may start workers that load the client too (keccak.parallel's pool; the flag is
 * the process's). The case's own code, compiled during warmup, then lies at the same addresses
 * in every process. And its one timed iteration follows
 * CYCLES_WARMUP uninstrumented ones, so that it times the tiered-up code, not its compilation.
 */
const CACHE_SIM = workerData.cacheSim === true;
export const CYCLES_WARMUP = 5;

/**
 * A cycles process's worker holds its messages until the case has ended. Each message is a block
 * of this thread's malloc arena that the main thread frees whenever it gets to it, so the case's
 * later allocations found the arena in a state set by thread timing, and where malloc put the
 * case's buffers moved its simulated misses (docs/calibration.md "Estimated cycles").
 */
const held = /** @type {object[] | null} */ (CACHE_SIM ? [] : null);
const post = (message) => (held ? held.push(message) : port.postMessage(message));
const release = () => held?.splice(0).forEach((message) => port.postMessage(message));

// A rejection nobody handles fails the case (it would otherwise end the worker with a bare error).
process.on('unhandledRejection', (reason) => {
  throw new Error(`unhandled rejection: ${describeError(reason)}`);
});

/**
 * The message of one timed iteration, built from numbers only. What the operation returned never
 * leaves the worker: a case may return anything (bee-js 12's postage batches carry methods, which
 * a structured clone refuses), and only the allocation meter's region yields a value to report.
 */
function sampleMessage(sample, metered) {
  const message = { t: 'sample', wall: sample.wall, cpu: sample.cpu };
  if (metered) message.bytes = Number(sample.value);
  return message;
}

const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

async function runCase({ unit, paceFd, count, allocs, shared, options }) {
  const { id, param, digest, warmup, iters, fault, slowdown = 0 } = unit;
  const setupCase = CASES[id];
  const client = await loadClient();
  // The counter's bindings are loaded here, with the rest, not between warmup and the region.
  const counter = count ? await loadCounter() : null;
  const env = {
    id,
    client,
    fixtures: fixtureView(shared),
    fixturesDir: options.fixturesDir,
    node: options.node,
    cpus: options.cpus,
    allocs,
    cacheSim: CACHE_SIM,
  };

  post({ t: 'phase', phase: 'setup' });
  const bench = await setupCase(env, param);
  if (CACHE_SIM) v8.setFlagsFromString('--turbofan');
  const closers = [bench];
  try {
    if (digest) {
      post({ t: 'phase', phase: 'digest' });
      const same = isDeepStrictEqual(digest.param, param);
      const digestBench = same ? bench : await setupCase(env, digest.param);
      if (!same) closers.push(digestBench);
      if (!digestBench.output) throw new Error(`case ${id} has a digest in the plan but no output`);
      await digestBench.before?.();
      await digestBench.op();
      const raw = await digestBench.output();
      post({ t: 'digest', hex: digest.form === 'value' ? hex(raw) : createHash('sha256').update(raw).digest('hex') });
      if (!same) {
        await digestBench.close?.();
        closers.pop();
      }
    }

    settleGc();
    post({ t: 'phase', phase: 'warmup' });
    const waitTurn = pacer(paceFd);
    for (let w = warmup; w < (CACHE_SIM ? CYCLES_WARMUP : 0); w++) {
      await bench.before?.();
      await bench.op();
    }
    for (let w = 0; w < warmup; w++) {
      waitTurn(unit.unit, w);
      await bench.before?.();
      await bench.op();
      post({ t: 'warmup', n: w + 1 });
    }

    post({ t: 'phase', phase: 'iterations' });
    const timed = withFault(bench.op, fault);
    const meter = allocs ? await allocMeter(unit.alloc_extra) : null;
    // Measuring allocations, the region is the meter's; the clocks around it still run so the
    // case has its samples, but a slowdown spin would only measure the clock's own allocations.
    const region = meter ? () => meter.measure(timed) : timed;
    for (let i = 0; i < iters; i++) {
      waitTurn(unit.unit, warmup + i);
      await bench.before?.();
      // Counting or metering: each region starts from a collected heap, so whether a collection
      // falls inside it does not depend on what earlier iterations left behind.
      if (counter || meter) settleGc();
      if (counter && CACHE_SIM) {
        // The garbage collected first, so that its frees do not reopen holes in the drained arena.
        drainMallocArena();
        settleGc();
        finishSweeping();
      }
      counter?.start();
      let sample;
      try {
        // Counting injects the slowdown in instructions (slowDown below), not in time.
        sample = await timeIteration(region, counter || meter ? 0 : slowdown);
      } finally {
        counter?.stop(unit.unit, warmup + i);
      }
      if (counter && slowdown > 0) counter.slowDown(slowdown, unit.unit, warmup + i);
      post(sampleMessage(sample, meter !== null));
    }
    // Give a rejection leaked by the last iteration its turn before reporting success.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    for (const b of closers.reverse()) await b.close?.();
  }
}

try {
  await runCase(workerData);
  post({ t: 'done' });
} catch (err) {
  post(err instanceof Skip ? { t: 'skip', reason: err.reason } : { t: 'error', message: describeError(err) });
} finally {
  release();
}
