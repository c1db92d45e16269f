// Build steps as child processes: each step's output streamed to the build log, a failure
// thrown as BuildError naming the step with its last lines.
import { spawn } from 'node:child_process';
import { childEnv } from '../child/env.js';

export class BuildError extends Error {
  override name = 'BuildError';
  constructor(
    message: string,
    /** The last lines the failing step printed. */
    readonly logTail: readonly string[] = [],
  ) {
    super(message);
  }
}

/** Runs a build step, streaming its output to `log`; throws BuildError naming the step on failure. */
export function step(
  label: string,
  cmd: string,
  args: readonly string[],
  opts: { cwd: string; env?: Record<string, string>; log: (l: string) => void; shell?: boolean },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: childEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'], shell: opts.shell ?? false });
    const tail: string[] = [];
    const emit = (line: string) => {
      if (!line.trim()) return;
      tail.push(line);
      if (tail.length > 30) tail.shift();
      opts.log(`  ${line}`);
    };
    // Whole lines only: a chunk may end mid-line (cargo's "Downloaded" split in two before).
    const lines = () => {
      let partial = '';
      return {
        data: (d: Buffer) => {
          const parts = (partial + d.toString('utf8')).split(/\r?\n/);
          partial = parts.pop() ?? '';
          parts.forEach(emit);
        },
        end: () => emit(partial),
      };
    };
    const out = lines();
    const err = lines();
    child.stdout.on('data', out.data);
    child.stderr.on('data', err.data);
    child.on('error', (e) => reject(new BuildError(`${label}: cannot start ${cmd}: ${e.message}`)));
    child.on('close', (code) => {
      out.end();
      err.end();
      if (code === 0) resolve();
      else reject(new BuildError(`${label} failed (exit ${code}) in ${opts.cwd}:\n${tail.slice(-15).join('\n')}`, tail.slice(-30)));
    });
  });
}

/** First line of `cmd --version`-like output, or 'missing' when the tool is absent. */
export function toolVersion(cmd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: childEnv(), stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', () => resolve('missing'));
    child.on('close', (code) => resolve(code === 0 ? (out.split('\n')[0] ?? '').trim() : 'missing'));
  });
}
