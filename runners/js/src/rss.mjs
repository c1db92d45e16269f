// Peak resident set size of the process over one case. On Linux the kernel keeps the high-water
// mark: writing 5 to /proc/self/clear_refs resets it, VmHWM in /proc/self/status reads it, and
// nothing in the process has to be awake to catch the peak. Elsewhere RSS is sampled every 10 ms
// on the main thread, which is free because the case runs in a worker thread.
import { readFileSync, writeFileSync } from 'node:fs';

const SAMPLE_MS = 10;

function resetHighWaterMark() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return readHighWaterMark() !== null;
  } catch {
    return false;
  }
}

function readHighWaterMark() {
  try {
    const kb = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Starts measuring; `stop()` returns the peak in bytes. */
export function startPeakRss() {
  if (resetHighWaterMark()) {
    return { method: 'VmHWM', stop: () => readHighWaterMark() };
  }
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, SAMPLE_MS);
  return {
    method: 'sampling',
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}
