// Which CPU a round pins base and head to, and how the runner command is wrapped.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpuFor, parseCpuList, pinnableCpus, pinProcess } from '../../src/run/pin.js';

describe('pinning rounds to one CPU', () => {
  it('reads kernel CPU lists', () => {
    expect(parseCpuList('0-1')).toEqual([0, 1]);
    expect(parseCpuList('0,2-4,7\n')).toEqual([0, 2, 3, 4, 7]);
    expect(parseCpuList('')).toEqual([]);
    expect(parseCpuList('zero')).toEqual([]);
  });

  it('walks the CPUs round by round for single-threaded CPU cases', () => {
    const cpus = [2, 3];
    expect([0, 1, 2, 3].map((r) => cpuFor({ kind: 'cpu' }, r, cpus))).toEqual([2, 3, 2, 3]);
  });

  it('leaves parallel cases, net cases and one-CPU machines unpinned', () => {
    expect(cpuFor({ kind: 'cpu', parallel: true }, 0, [0, 1])).toBeNull();
    expect(cpuFor({ kind: 'net' }, 0, [0, 1])).toBeNull();
    expect(cpuFor({ kind: 'cpu' }, 0, [0])).toBeNull();
  });

  it('moves every thread of a running process onto the CPU', async () => {
    const cpus = pinnableCpus();
    if (cpus.length === 0) return expect(process.platform).not.toBe('linux');
    // A Node process has several threads (V8 platform workers, libuv): all must move.
    const child = spawn(process.execPath, ['-e', 'console.log("up"); setTimeout(() => {}, 20000)'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise((r) => child.stdout.once('data', r));
      const target = cpus.at(-1)!;
      expect(pinProcess(child.pid!, target)).toBe(true);
      const threads = readdirSync(`/proc/${child.pid}/task`);
      expect(threads.length).toBeGreaterThan(1);
      for (const t of threads) {
        const status = readFileSync(`/proc/${child.pid}/task/${t}/status`, 'utf8');
        expect(/^Cpus_allowed_list:\s*(.+)$/m.exec(status)?.[1]).toBe(String(target));
      }
    } finally {
      child.kill();
    }
  });
});
