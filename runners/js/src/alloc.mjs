// Allocation counting (BEE_BENCH_ALLOCS=1, runners/README.md "Allocations"): the bytes V8
// allocated in the case worker's isolate inside the timed region. V8 (Node 20) keeps no running
// total of allocated bytes, but its heap only shrinks in a collection: so the region's allocation
// is the growth of the heap's used bytes (machine code left out) plus its external (ArrayBuffer
// backing store) bytes, plus what each collection inside the region freed, as v8.GCProfiler
// reports it from V8's own before/after statistics. The run's V8 flags (ALLOC_V8_FLAGS) make
// such a collection rare and the figures repeatable, and one libuv worker thread (ALLOC_ENV)
// makes the order of file-system completions repeat too. V8 has no count of allocations, so
// only bytes are recorded.
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import v8 from 'node:v8';
import { settleGc } from './gc.mjs';

export const ALLOC_METHOD =
  'V8 heap accounting in the isolate that runs the operation: growth of used_heap_size (every heap space but the code spaces) + external_memory (ArrayBuffer backing stores), plus what collections inside the region freed (v8.GCProfiler); bytes only, V8 counts no allocations';

/** Semi-space size, MB: a region up to this size of young objects runs without a scavenge. */
const SEMI_SPACE_MB = 256;

/**
 * V8 flags of an allocation run: compilation and GC on the isolate's own thread, at points that
 * depend only on what ran (no background compiler or sweeper racing the region), fixed hash and
 * random seeds, and a fixed, large young generation. They must be in place when V8 starts (GC
 * flags changed under a running heap abort it), so the runner starts itself again with them.
 */
export const ALLOC_V8_FLAGS = [
  '--single-threaded',
  '--hash-seed=1',
  '--random-seed=1',
  `--min-semi-space-size=${SEMI_SPACE_MB}`,
  `--max-semi-space-size=${SEMI_SPACE_MB}`,
];

/**
 * Environment of an allocation run. With libuv's default four threads, file-system requests in
 * flight together (one file's close, the next one's open and read) complete in an order that
 * depends on the machine's load, and each order takes a different path through the streams and
 * promises that wait on them, so the bytes allocated moved by up to 0.7% between processes
 * (cpu.manifest.hash). One thread completes them in the order they were issued; the
 * operation's own allocations do not depend on it. Read by libuv when the pool first starts, so
 * it too is set for the process the runner starts again.
 */
export const ALLOC_ENV = { UV_THREADPOOL_SIZE: '1' };

/** Worker resource limits that let a case worker's young generation reach its flagged size. */
export const ALLOC_WORKER_LIMITS = { maxYoungGenerationSizeMb: 3 * SEMI_SPACE_MB };

/**
 * Runs this process again under ALLOC_V8_FLAGS and ALLOC_ENV, with the same arguments, the rest
 * of the environment, standard streams and pacing channel; resolves with its exit code. Null: the
 * flags and environment are already in place.
 */
export function rerunWithAllocFlags(paceFd) {
  const inPlace = ALLOC_V8_FLAGS.every((f) => process.execArgv.includes(f)) && Object.entries(ALLOC_ENV).every(([k, v]) => process.env[k] === v);
  if (inPlace) return null;
  /** @type {Array<'inherit' | number>} */
  const stdio = ['inherit', 'inherit', 'inherit'];
  if (paceFd !== null) stdio[paceFd] = paceFd;
  const flags = ALLOC_V8_FLAGS.filter((f) => !process.execArgv.includes(f));
  const child = spawn(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], { stdio, env: { ...process.env, ...ALLOC_ENV } });
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      for (const s of FORWARDED) process.off(s, forward);
      resolve(code ?? 128 + osConstants.signals[/** @type {NodeJS.Signals} */ (signal)]);
    });
  });
}
const FORWARDED = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * Machine code the JIT emits: the compiler's allocation, not the operation's, and it moves with
 * when tiering happens (an I/O interleaving is enough to shift it).
 */
const CODE_SPACES = new Set(['code_space', 'code_large_object_space']);

/** Used bytes of every heap space but the code spaces, plus external (ArrayBuffer) bytes. */
const heapBytes = () => {
  let sum = v8.getHeapStatistics().external_memory;
  for (const s of v8.getHeapSpaceStatistics()) if (!CODE_SPACES.has(s.space_name)) sum += s.space_used_size;
  return sum;
};
/** The same figure from a GCProfiler record. */
const profiledBytes = ({ heapStatistics, heapSpaceStatistics }) =>
  heapSpaceStatistics.reduce((sum, s) => (CODE_SPACES.has(s.spaceName) ? sum : sum + s.spaceUsedSize), heapStatistics.externalMemory);

/** Empty regions measured to find the meter's own share. */
const CALIBRATION_ROUNDS = 20;

/**
 * A meter for one case worker. `measure(op)` runs op once in a region and gives the bytes
 * allocated in it, less the meter's own share (a promise when op returns one: the region ends
 * when it settles), plus what other isolates reported for it (allocatedElsewhere). With `extra`
 * > 0 the region then allocates `extra` x those bytes as one ArrayBuffer, kept until the region
 * ends (the calibration hook `alloc_extra`).
 */
export async function allocMeter(extra = 0) {
  if (v8.getHeapStatistics().external_memory === undefined)
    throw new Error(`BEE_BENCH_ALLOCS=1 needs a Node whose v8.getHeapStatistics() reports external_memory; ${process.version} does not`);
  let profiler;
  let start;
  const open = () => {
    profiler = new v8.GCProfiler();
    profiler.start();
    elsewhere = 0;
    start = heapBytes();
  };
  /** Ends the region: its growth (read before anything else is allocated) less `own`, plus what collections inside it freed. */
  const close = (own) => {
    const grown = heapBytes() - start - own;
    return profiler.stop().statistics.reduce((sum, gc) => sum + profiledBytes(gc.beforeGC) - profiledBytes(gc.afterGC), grown);
  };

  const region = (op, own, fraction) => {
    const finish = () => {
      let bytes = close(pending ? own.async : own.sync) + elsewhere;
      if (fraction > 0 && bytes > 0) {
        // The extra buffer (and its object), measured the same way, in the region.
        open();
        kept = new ArrayBuffer(Math.round(fraction * bytes));
        bytes += close(own.sync);
        kept = null;
      }
      return Math.max(0, bytes);
    };
    open();
    const pending = thenable(op());
    return pending ? pending.then(finish) : finish();
  };

  // The meter's own share, measured on empty regions rather than assumed: the statistics object
  // the opening read allocates after taking its figures, and for an async operation the
  // reaction the region's end waits on (measured on an already settled promise).
  const own = { sync: 0, async: 0 };
  const settled = Promise.resolve();
  let sync = Infinity;
  let async = Infinity;
  // Each from a collected heap, as the case's regions start (some of V8's caches refill after a
  // collection).
  for (let i = 0; i < CALIBRATION_ROUNDS; i++) {
    settleGc();
    sync = Math.min(
      sync,
      region(() => {}, own, 0),
    );
    settleGc();
    async = Math.min(async, await region(() => settled, own, 0));
  }
  Object.assign(own, { sync, async });
  return { measure: (op) => region(op, own, extra) };
}

/** Bytes other isolates allocated for the open region (a worker pool's own meters). */
let elsewhere = 0;

/**
 * Adds what a worker the operation handed its work to allocated for it, measured there by its
 * own meter (heap statistics are per isolate), to the open region.
 */
export function allocatedElsewhere(bytes) {
  elsewhere += bytes;
}

const thenable = (v) => (v && typeof v.then === 'function' ? v : null);

/** The alloc_extra buffer, referenced from outside the region so no compiler can drop it. */
let kept = null;
