// Which CPU a round pins base and head to, and how the runner command is wrapped.
import { describe, expect, it } from 'vitest';
import { cpuFor, parseCpuList, pinned } from '../../src/run/pin.js';

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

  it('wraps the runner command in taskset, or leaves it as it is', () => {
    const cmd = { argv: ['node', 'runner.mjs'], cwd: 'x' };
    expect(pinned(cmd, 1)).toEqual({ argv: ['taskset', '-c', '1', 'node', 'runner.mjs'], cwd: 'x' });
    expect(pinned(cmd, null)).toBe(cmd);
  });
});
