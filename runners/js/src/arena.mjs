// Before a cycles region (callgrind's cache simulation), the case worker's malloc arena is
// drained: its free chunks, holes left by everything the process did before (loading,
// compiling, the setup, collections), are used up and held, so that the region's blocks come
// from the top of the arena in the order the region asks for them. Which holes a process had
// depended on thread timing (messages between threads, asynchronous compilation finishing), and
// where and how malloc found the region's blocks in them moved `manifest.lookup-large`'s counts
// by 0.1% and its estimated cycles by up to 0.25% between processes (docs/calibration.md
// "Estimated cycles").

/**
 * What is drained, in bytes of requests: more than any case's arena holds free at its region
 * (at most 13 MB in bee-js's rows, measured natively with glibc's malloc_info).
 */
const DRAIN_BYTES = 32 << 20;

/**
 * Request sizes, one per malloc size class up to the thread cache's largest (1,032 bytes): a
 * request takes a free chunk of its own class first (thread cache, fast bin, small bin), then
 * splits a larger one, so cycling through every class leaves no free chunk of any size.
 */
const TEXTS = Array.from({ length: 129 }, (_, i) => 'x'.repeat(1 + 8 * i));

const held = [];

/** Drains the calling thread's malloc arena (module comment); what it allocates lives until the process ends. */
export function drainMallocArena() {
  // A request of the large-bin range first: malloc merges the fast bins' chunks before it, so
  // they are drained too.
  held.push(new Uint8Array(1 << 16));
  // TextEncoder's output is a malloc'd block of exactly the text's length (V8's typed arrays
  // of up to 64 bytes would otherwise live in the V8 heap), with its backing-store records.
  const encoder = new TextEncoder();
  for (let total = 0; total < DRAIN_BYTES; ) {
    for (const text of TEXTS) {
      held.push(encoder.encode(text));
      total += text.length;
    }
  }
}
