// Test helpers around the fake bee and fake docker: an executable per scenario (a shell wrapper
// that passes the fake its test-only options), and what the fakes recorded.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface FakeEvent {
  event?: 'start' | 'request' | 'signal' | 'exit';
  pid: number;
  argv?: string[];
  home?: string;
  beeEnv?: string[];
  method?: string;
  path?: string;
  /** The swarm-postage-batch-id header of a request. */
  batch?: string;
  signal?: string;
  code?: number;
}

export interface Fake {
  /** The executable to start (as --bee-binary, or as the docker command). */
  exe: string;
  dir: string;
  /** What the fake bee recorded, in order. */
  events: () => FakeEvent[];
  /** Every docker invocation's argv (fake docker only). */
  dockerCalls: () => string[][];
}

function jsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

function wrapper(dir: string, name: string, script: string, opts: string[]): string {
  const exe = join(dir, name);
  writeFileSync(exe, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(here(script))} ${opts.map(quote).join(' ')} "$@"\n`);
  chmodSync(exe, 0o755);
  return exe;
}

/** A fake `bee` executable in the given mode (see fake-bee.mjs). */
export function fakeBee(mode: 'ok' | 'never-healthy' | 'exit-early' | 'no-batch' = 'ok'): Fake {
  const dir = mkdtempSync(join(tmpdir(), 'bee-bench-fake-bee-'));
  const record = join(dir, 'bee.jsonl');
  return {
    exe: wrapper(dir, 'bee', './fake-bee.mjs', [`--fake-mode=${mode}`, `--fake-record=${record}`]),
    dir,
    events: () => jsonLines<FakeEvent>(record),
    dockerCalls: () => [],
  };
}

/** A fake `docker` whose containers are fake bees (see fake-docker.mjs). */
export function fakeDocker(): Fake {
  const dir = mkdtempSync(join(tmpdir(), 'bee-bench-fake-docker-'));
  return {
    exe: wrapper(dir, 'docker', './fake-docker.mjs', [`--fake-state=${dir}`]),
    dir,
    events: () => jsonLines<FakeEvent>(join(dir, 'bee.jsonl')),
    dockerCalls: () => jsonLines<{ argv: string[] }>(join(dir, 'docker.jsonl')).map((c) => c.argv),
  };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The fake bee's process id, from its start record. */
export function beePid(f: Fake): number {
  const start = f.events().find((e) => e.event === 'start');
  if (!start) throw new Error(`the fake bee in ${f.dir} never started`);
  return start.pid;
}

/** Waits for the fake bee's start record (a detached start reports nothing back). */
export async function startedBee(f: Fake, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (!f.events().some((e) => e.event === 'start') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return beePid(f);
}
