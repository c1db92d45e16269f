// Spawning one runner process with a time budget. A runner that hangs is killed with its whole
// process group (Node workers, cargo children) so a stuck case costs its budget, not the run.
import { spawn } from 'node:child_process';
import type { Duplex } from 'node:stream';
import type { RunnerCommand } from '../build/builder.js';
import { childEnv } from '../child/env.js';

export interface ProcessOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  /** The last lines of stderr, for error messages. */
  stderrTail: string[];
  elapsedMs: number;
}

export interface SpawnOptions {
  timeoutMs: number;
  /** Called with each stderr line as it arrives (runner progress). */
  onLine?: (line: string) => void;
  /** Merged over the runner's environment; undefined removes a variable. */
  extraEnv?: Readonly<Record<string, string | undefined>>;
  /** Gives the runner a pacing channel as fd 3 (BEE_BENCH_PACE_FD) and hands our end over. */
  pace?: (channel: Duplex, pid: number) => void;
}

/** The fd number the pacing channel gets in the runner (after stdin, stdout, stderr). */
const PACE_FD = 3;

const TAIL_LINES = 20;

export function runProcess(cmd: RunnerCommand, args: readonly string[], opts: SpawnOptions): Promise<ProcessOutcome> {
  const [exe, ...prefix] = cmd.argv;
  if (!exe) throw new Error('empty runner command');
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(exe, [...prefix, ...args], {
      cwd: cmd.cwd,
      env: childEnv({ ...cmd.env, ...opts.extraEnv, ...(opts.pace ? { BEE_BENCH_PACE_FD: String(PACE_FD) } : {}) }),
      // Node makes an extra 'pipe' a socket pair: one duplex channel for both directions.
      stdio: opts.pace ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const channel = child.stdio[PACE_FD];
    if (opts.pace && channel && child.pid) opts.pace(channel as Duplex, child.pid);
    let stdout = '';
    const tail: string[] = [];
    let partial = '';
    let timedOut = false;
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      const lines = (partial + d).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > TAIL_LINES) tail.shift();
        opts.onLine?.(line);
      }
    });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      if (partial) tail.push(partial);
      resolve({ code, signal, timedOut, stdout, stderrTail: tail.slice(-TAIL_LINES), elapsedMs: performance.now() - started });
    };
    child.on('error', (e) => {
      tail.push(`cannot start ${exe}: ${e.message}`);
      finish(null, null);
    });
    child.on('close', finish);
  });
}

export function describeExit(o: ProcessOutcome): string {
  if (o.timedOut) return `killed after its budget of ${Math.round(o.elapsedMs / 1000)} s`;
  if (o.signal) return `killed by ${o.signal}`;
  return `exit code ${o.code}`;
}
