// One build of a cache folder at a time. Two builds of the same inputs at once (a test's two sides
// of one source, two test files, two CLI runs sharing a cache) would share one folder: the second
// emptied it while the first's cargo ran in it. The lock is a folder beside it (mkdir is atomic)
// holding the builder's host and pid; a lock whose process is gone, or that came from another
// machine in a restored cache, is taken over.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a waiting build looks again. */
const POLL_MS = 250;

const lockOf = (dir: string) => `${dir}.lock`;

/** A lock with no holder written this long after it was made was left by a process that died between the two. */
const UNWRITTEN_MS = 10_000;

/** Whether the process that took the lock still runs, on the host that asks. */
function holderRuns(lock: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(lock, 'holder'), 'utf8');
  } catch {
    // Being written, or never will be.
    try {
      return Date.now() - statSync(lock).mtimeMs < UNWRITTEN_MS;
    } catch {
      return false;
    }
  }
  const at = text.lastIndexOf(' ');
  const pid = Number(text.slice(at + 1));
  if (text.slice(0, at) !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `work` holding the lock of `dir`; waits while another build holds it. */
export async function withFolderLock<T>(dir: string, log: (line: string) => void, work: () => Promise<T>): Promise<T> {
  const lock = lockOf(dir);
  mkdirSync(dirname(lock), { recursive: true });
  let said = false;
  for (;;) {
    try {
      mkdirSync(lock, { recursive: false });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (!holderRuns(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!said) log(`waiting for another build of ${dir} to finish`);
    said = true;
    await sleep(POLL_MS);
  }
  try {
    writeFileSync(join(lock, 'holder'), `${hostname()} ${process.pid}`);
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
