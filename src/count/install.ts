// The action's counting prerequisite: valgrind. When it is missing on a Linux x86-64 runner and
// sudo works without a password (GitHub's hosted runners), it is installed with apt-get; anywhere
// else the run goes on with wall time and the log says why (the report says it again).
import { spawn } from 'node:child_process';
import { childEnv } from '../child/env.js';
import { findCounter } from './callgrind.js';
import { measuresInstructions, type Measure } from '../spec/measure.js';

function run(cmd: string, args: readonly string[], log: (l: string) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const relay = (d: Buffer) =>
      d
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim())
        .forEach((l) => log(`  ${l}`));
    child.stdout.on('data', relay);
    child.stderr.on('data', relay);
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

/** Installs valgrind when counts are asked for, it is missing, and apt-get with sudo can; else logs why not. */
export async function ensureValgrind(measure: Measure, log: (l: string) => void): Promise<void> {
  if (!measuresInstructions(measure)) return;
  const found = await findCounter();
  if (found.counter) return;
  if (/not installed/.test(found.reason) && (await run('sudo', ['-n', 'true'], log)) && (await run('apt-get', ['--version'], () => {}))) {
    log('valgrind is missing: installing it with apt-get (for instruction counts)');
    if (
      (await run('sudo', ['-n', 'apt-get', 'update', '-qq'], log)) &&
      (await run('sudo', ['-n', 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'valgrind'], log))
    )
      return;
    log('installing valgrind with apt-get failed: the A/B will be wall time only');
    return;
  }
  log(
    `instruction counts unavailable: ${found.reason}${/not installed/.test(found.reason) ? ', and sudo asks for a password here' : ''}; the A/B will be wall time only`,
  );
}
