// A Bee dev node for the net cases, started on demand: in Docker (ethersphere/bee:2.8.0) or from a
// local `bee` executable, on the host's loopback only. Start = launch, wait for /health, buy a
// postage batch. Every launcher registers how to undo itself before it starts anything, so a
// failure or a cancellation at any point leaves no container or process behind.
import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv } from '../child/env.js';
import { buyBatch, waitForHealth } from './api.js';
import { containerName, dockerLogsArgs, dockerRemoveArgs, dockerRunArgs } from './docker.js';

export type DevNodeHow = { kind: 'docker'; docker?: string } | { kind: 'binary'; path: string };

export interface DevNodeOptions {
  how: DevNodeHow;
  /** Host port of the API; default: a free loopback port. */
  port?: number;
  healthTimeoutMs?: number;
  batchTimeoutMs?: number;
  log: (line: string) => void;
  /** Called with the container's name before `docker run` (the action's post step removes it by name). */
  onContainer?: (name: string) => void;
  /** What to do instead when docker run fails (default: the CLI's flags, NO_DOCKER_HINT). */
  withoutDocker?: string;
}

export interface DevNode {
  url: string;
  batchId: string;
  version: string;
  /** "container NAME" or "process PID", for log lines. */
  what: string;
}

export const DEV_NODE_DEFAULTS = {
  /** Covers Bee's start-up, not the image pull (docker run returns after the pull). */
  healthTimeoutMs: 60_000,
  batchTimeoutMs: 60_000,
  /** Image pull and container creation. */
  dockerRunTimeoutMs: 600_000,
  /** SIGTERM, then this long for Bee's graceful shutdown, then SIGKILL. */
  stopGraceMs: 10_000,
  /** The batch the nightly has always bought: ample for the spec's largest uploads. */
  batchAmount: 10_000_000_000n,
  batchDepth: 24,
} as const;

/** Undo steps, run once, latest first; run() may be called from a signal handler and a finally. */
export class Cleanup {
  private readonly steps: Array<() => Promise<void>> = [];
  private done?: Promise<void>;
  add(step: () => Promise<void>): void {
    this.steps.push(step);
  }
  run(): Promise<void> {
    this.done ??= (async () => {
      for (const step of this.steps.reverse()) await step();
    })();
    return this.done;
  }
}

interface Launched {
  url: string;
  what: string;
  /** Why the node can no longer come up (its process exited), or undefined. */
  gone: () => string | undefined;
  logTail: () => Promise<string>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no free port'))));
    });
  });
}

/**
 * The child environment without credentials (childEnv), and more: Bee reads ~/.bee.yaml and BEE_*
 * variables as configuration, and a dev node started for a benchmark must not pick up a user's
 * node settings, so it gets its own HOME and no BEE_* variables.
 */
export function devNodeEnv(home: string, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env = childEnv({ HOME: home }, from);
  for (const k of Object.keys(env)) if (/^BEE_/i.test(k)) delete env[k];
  return env;
}

const lastLines = (text: string, n = 30) => text.trimEnd().split('\n').slice(-n).join('\n');

async function launchBinary(path: string, port: number, cleanup: Cleanup, log: (l: string) => void): Promise<Launched> {
  if (!existsSync(path)) throw new Error(`--bee-binary ${path}: no such file`);
  const home = mkdtempSync(join(tmpdir(), 'bee-bench-dev-'));
  const logFile = join(home, 'bee.log');
  const fd = openSync(logFile, 'a');
  // Its own process group: the stop signal reaches whatever the executable started.
  const child = spawn(path, ['dev', `--api-addr=127.0.0.1:${port}`], { cwd: home, env: devNodeEnv(home), stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  let ended: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = signal ? `its process was killed by ${signal}` : `its process exited with code ${code}`;
      resolve();
    });
    child.once('error', (e) => {
      ended = `cannot start ${path}: ${e.message}`;
      resolve();
    });
  });
  cleanup.add(async () => {
    if (ended === undefined && child.pid) {
      const signalGroup = (s: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, s);
        } catch {
          // already gone
        }
      };
      signalGroup('SIGTERM');
      const timer = new Promise<'late'>((r) => setTimeout(() => r('late'), DEV_NODE_DEFAULTS.stopGraceMs).unref());
      if ((await Promise.race([exited, timer])) === 'late') {
        log(`bee: process ${child.pid} ignored SIGTERM for ${DEV_NODE_DEFAULTS.stopGraceMs / 1000} s; killing it`);
        signalGroup('SIGKILL');
        await exited;
      }
      log(`bee: stopped process ${child.pid}`);
    }
    rmSync(home, { recursive: true, force: true });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    what: `process ${child.pid ?? '(not started)'} (${path})`,
    gone: () => ended,
    logTail: async () => lastLines(readFileSync(logFile, 'utf8')),
  };
}

interface DockerOutcome {
  ok: boolean;
  /** The docker command is not there (not on PATH): nothing ran, so no container exists either. */
  missing: boolean;
  stdout: string;
  /** stderr, or why docker could not run or was killed. */
  problem: string;
}

/** One short docker CLI command (run -d, rm, logs) within a time limit. */
function dockerCommand(docker: string, args: readonly string[], timeoutMs: number): Promise<DockerOutcome> {
  return new Promise((resolve) => {
    execFile(docker, args, { env: childEnv(), timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8', maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const missing = err?.code === 'ENOENT';
      const why = !err
        ? ''
        : missing
          ? `${docker} not found${docker.includes('/') ? '' : ' on PATH'}`
          : err.killed
            ? `killed after ${timeoutMs / 1000} s`
            : typeof err.code === 'number'
              ? `exit code ${err.code}`
              : err.message;
      resolve({ ok: !err, missing, stdout, problem: [why, stderr.trim()].filter(Boolean).join(': ') });
    });
  });
}

/** docker rm --force NAME; a container already gone (or never made: no docker) is fine, any other failure says how to clean up by hand. */
export async function removeContainer(name: string, log: (l: string) => void, docker = 'docker'): Promise<void> {
  const rm = await dockerCommand(docker, dockerRemoveArgs(name), 60_000);
  if (rm.missing) return;
  if (rm.ok) log(`bee: removed container ${name}`);
  else if (/no such container/i.test(rm.problem)) log(`bee: container ${name} already removed`);
  else log(`bee: could not remove container ${name} (${rm.problem}); remove it with: docker rm --force ${name}`);
}

/** What does the dev node's job without Docker, in the CLI's flags. */
export const NO_DOCKER_HINT =
  'without Docker, give a bee executable (Bee 2.8.0) with --bee-binary PATH instead of --bee dev, or a running node with --bee-url URL --batch-id ID';

async function launchDocker(docker: string, port: number, cleanup: Cleanup, o: DevNodeOptions): Promise<Launched> {
  const name = containerName();
  o.onContainer?.(name);
  cleanup.add(() => removeContainer(name, o.log, docker));
  const args = dockerRunArgs({ name, hostPort: port });
  o.log(`bee: ${docker} ${args.join(' ')}`);
  const run = await dockerCommand(docker, args, DEV_NODE_DEFAULTS.dockerRunTimeoutMs);
  // Without Docker, a local bee executable does the same job: say so where the user is stuck.
  if (!run.ok) throw new Error(`docker run of the Bee dev node failed (${run.problem}); ${o.withoutDocker ?? NO_DOCKER_HINT}`);
  return {
    url: `http://127.0.0.1:${port}`,
    what: `container ${name}`,
    gone: () => undefined,
    logTail: async () => {
      // Bee logs to stderr; docker logs replays the container's stderr on its own stderr.
      const logs = await dockerCommand(docker, dockerLogsArgs(name), 30_000);
      return lastLines(`${logs.stdout}\n${logs.problem}`);
    },
  };
}

/**
 * Launches a dev node, waits for /health and buys a usable batch. Undo steps go into cleanup, which
 * the caller runs (withDevNode does, on every path); a start-up failure carries the node's log tail.
 */
export async function startDevNode(o: DevNodeOptions, cleanup: Cleanup): Promise<DevNode> {
  const port = o.port ?? (await freePort());
  const launched =
    o.how.kind === 'docker' ? await launchDocker(o.how.docker ?? 'docker', port, cleanup, o) : await launchBinary(o.how.path, port, cleanup, o.log);
  try {
    const version = await waitForHealth(launched.url, { timeoutMs: o.healthTimeoutMs ?? DEV_NODE_DEFAULTS.healthTimeoutMs, gone: launched.gone });
    const batchId = await buyBatch(launched.url, {
      amount: DEV_NODE_DEFAULTS.batchAmount,
      depth: DEV_NODE_DEFAULTS.batchDepth,
      timeoutMs: o.batchTimeoutMs ?? DEV_NODE_DEFAULTS.batchTimeoutMs,
    });
    o.log(`bee: dev node ${version} at ${launched.url} (${launched.what}), batch ${batchId}`);
    return { url: launched.url, batchId, version, what: launched.what };
  } catch (e) {
    const tail = await launched.logTail().catch(() => '');
    throw new Error(`${e instanceof Error ? e.message : String(e)}${tail ? `\nlast lines of the Bee log (${launched.what}):\n${tail}` : ''}`);
  }
}
