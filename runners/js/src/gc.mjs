// Settling the garbage collector without requiring `node --expose-gc`: the flag is set at run
// time and `gc` is taken from a fresh context, where V8 installs it once the flag is on.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const collect = globalThis.gc ?? vm.runInNewContext('gc');

/** Full collections until the heap stops shrinking (at most a few rounds). */
export function settleGc() {
  let before = Infinity;
  for (let i = 0; i < 4; i++) {
    collect();
    const used = process.memoryUsage().heapUsed;
    if (used >= before * 0.99) break;
    before = used;
  }
}

/**
 * Before a cycles region, V8's lazy sweeping finished (collecting code statistics walks the old
 * and code spaces, which first completes their sweeping), so that no sweeping falls in the region
 * and evicts its lines whatever the process's history left to sweep (docs/calibration.md
 * "Estimated cycles").
 */
export const finishSweeping = () => v8.getHeapCodeStatistics();
