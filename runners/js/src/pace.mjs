// BEE_BENCH_PACE_FD (runners/README.md): take turns with another runner process, one iteration
// at a time, so the engine can interleave base and head within a round. Called inside the case
// worker; the blocking read is what makes this process wait its turn.
import { readSync, writeSync } from 'node:fs';

/** A wait(unit, step) function; a no-op when `fd` is null or once the engine lets go. */
export function pacer(fd) {
  let active = fd !== null && fd !== undefined;
  const byte = Buffer.alloc(1);
  return (unit, step) => {
    if (!active) return;
    try {
      writeSync(fd, `ready ${unit} ${step}\n`);
      // 0 bytes read: end of file, the engine has let go of this process.
      if (readSync(fd, byte, 0, 1, null) === 1) return;
    } catch {
      // A closed or broken channel also means: run on by ourselves.
    }
    active = false;
  };
}
