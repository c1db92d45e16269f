// Pinning both runner processes of an A/B round to one CPU. On a shared VM each virtual CPU has
// slow spells of its own (measured on a 2-vCPU VM, FINDINGS B5: one vCPU at 2x the time of the other for a second or
// more, the other unaffected), so two processes taking turns on different CPUs still see
// different machines. Taking turns on the same CPU, both sides meet the same spells. The pin is
// set when both have finished their setup, at their first turn, so start-up and fixtures still
// use every CPU. Cases whose work spreads over every CPU (`parallel` in the spec) stay unpinned.
// Linux only (`taskset` from util-linux); elsewhere rounds run unpinned and the A/B log says so.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { childEnv } from '../child/env.js';

/** Parses a kernel CPU list such as `0-3,6` (Cpus_allowed_list) into CPU numbers. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return [];
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let c = from; c <= to; c++) cpus.push(c);
  }
  return cpus;
}

/** The CPUs this process may run on, when the kernel says and `taskset` can pin to them. */
export function pinnableCpus(): number[] {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    return [];
  }
  const list = /^Cpus_allowed_list:\s*(.+)$/m.exec(status)?.[1];
  if (!list) return [];
  if (spawnSync('taskset', ['--version'], { env: childEnv() }).status !== 0) return [];
  return parseCpuList(list);
}

/** The CPU a case's round pins both sides to, or null for none. Rounds walk the CPUs in turn. */
export function cpuFor(c: { kind: string; parallel?: boolean }, round: number, cpus: readonly number[]): number | null {
  if (c.kind !== 'cpu' || c.parallel || cpus.length < 2) return null;
  return cpus[round % cpus.length]!;
}

/** Moves every thread of a running process onto `cpu`; false when that did not work. */
export function pinProcess(pid: number, cpu: number): boolean {
  return spawnSync('taskset', ['--all-tasks', '--pid', '--cpu-list', String(cpu), String(pid)], { env: childEnv(), stdio: 'ignore' }).status === 0;
}
