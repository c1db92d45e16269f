// Shared builders for the history tests: results and records, temporary directories, and real git
// against local bare repositories.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { toRecord, type RecordContext } from '../../src/history/record.js';
import type { HistoryRecord } from '../../src/history/schema.js';
import type { CaseResult, Result, Runner } from '../../src/spec/schema.js';
import { caseResult, result } from '../report/fixtures.js';

const exec = promisify(execFile);

export function tempDir(prefix: string, dirs: string[]): string {
  const d = mkdtempSync(join(tmpdir(), `bee-bench-history-${prefix}-`));
  dirs.push(d);
  return d;
}

export function removeAll(dirs: string[]): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

export async function bareRemote(dirs: string[]): Promise<string> {
  const d = tempDir('remote', dirs);
  await git(d, 'init', '-q', '--bare');
  return d;
}

/** The branch tip of a bare repository, or null when the branch does not exist. */
export async function tip(remote: string, branch = 'gh-pages'): Promise<string | null> {
  const out = await git(remote, 'for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`);
  return out.trim() || null;
}

export async function lsTree(remote: string, branch = 'gh-pages'): Promise<string[]> {
  return (await git(remote, 'ls-tree', '-r', '--name-only', branch)).split('\n').filter(Boolean).sort();
}

export async function show(remote: string, path: string, branch = 'gh-pages'): Promise<string> {
  return git(remote, 'show', `${branch}:${path}`);
}

/** A fresh full clone of the branch, to inspect like a site visitor would. */
export async function cloneBranch(remote: string, dirs: string[], branch = 'gh-pages'): Promise<string> {
  const d = tempDir('clone', dirs);
  await git(d, 'clone', '-q', '--branch', branch, remote, '.');
  return d;
}

/** Commits files straight into the remote branch (outside bee-bench), e.g. a corrupt record. */
export async function commitRaw(remote: string, files: Record<string, string>, dirs: string[], branch = 'gh-pages'): Promise<void> {
  const d = await cloneBranch(remote, dirs, branch);
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { dirname } = await import('node:path');
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(d, p)), { recursive: true });
    writeFileSync(join(d, p), text);
  }
  await git(d, 'add', '--', ...Object.keys(files));
  await git(d, 'commit', '-q', '-m', 'test: raw files');
  await git(d, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
}

export const SHAS = Array.from({ length: 64 }, (_, i) => (i + 1).toString(16).padStart(2, '0').repeat(20));

/** Run context number i: commit i at 2026-11-20 + i hours, run id 1000 + i. */
export function context(i: number, branch = 'main'): RecordContext {
  const t = new Date(Date.UTC(2026, 10, 20, 0, 0, 0) + i * 3_600_000).toISOString();
  return {
    commit: { sha: SHAS[i % SHAS.length] as string, message: `commit ${i}\n\nbody`, author: 'Ada', timestamp: t, url: `https://example.com/c/${i}` },
    branch,
    event: 'push',
    run: { id: String(1000 + i), url: `https://example.com/runs/${1000 + i}` },
  };
}

const LEVEL: Record<Runner, number> = { rs: 1, go: 1.3, js: 4 };

/** A small result: two cases, one scaled per runner (ops differ), one skipped net case. */
export function smallResult(runner: Runner, i: number, factor = 1): Result {
  const t = new Date(Date.UTC(2026, 10, 20, 0, 5, 0) + i * 3_600_000).toISOString();
  const samples = (base: number) => Array.from({ length: 7 }, (_, k) => Math.round(base * factor * (1 + 0.01 * ((k * 3 + i) % 5))));
  const ops = runner === 'js' ? 200 : 2000;
  const cases: CaseResult[] = [
    caseResult({
      id: 'cpu.keccak.chunk-hash',
      param: { label: 'quick', count: ops, chunk_bytes: 4096 },
      samples_ns: samples(ops * 1000 * LEVEL[runner]),
      work: { ops, bytes: ops * 4096 },
    }),
    caseResult({ id: 'cpu.ecdsa.sign', param: { label: 'quick', count: 10 }, samples_ns: samples(5e6 * LEVEL[runner]), work: { ops: 10 } }),
    caseResult({
      id: 'net.bzz.upload',
      kind: 'net',
      param: { label: '1 MiB', bytes: 1048576 },
      status: 'skipped',
      skip_reason: 'no Bee node given',
      work: { bytes: 1048576 },
    }),
  ];
  return result(runner, cases, 'aa'.repeat(32), { started_at: t, finished_at: t });
}

export function smallRecord(runner: Runner, i: number, branch = 'main', factor = 1): HistoryRecord {
  return toRecord(smallResult(runner, i, factor), context(i, branch));
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI as a user runs it: its own process (tsx from the sources), exit code and output. */
export async function runCli(args: readonly string[], cwd = process.cwd()): Promise<CliRun> {
  const cli = join(import.meta.dirname, '../../src/cli.ts');
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', cli, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** Instruction counts per timed iteration of a counted CPU case: `per` per op, three iterations. */
export const COUNTER = { tool: 'callgrind', version: 'valgrind-3.22.0' } as const;

/** smallResult with counts on its ok CPU cases, as a counting run attaches them (src/run/count.ts). */
export function countedResult(runner: Runner, i: number, factor = 1, countFactor = 1): Result {
  const res = smallResult(runner, i, factor);
  return {
    ...res,
    counter: { ...COUNTER },
    cases: res.cases.map((c) =>
      c.status === 'ok' && c.kind === 'cpu'
        ? { ...c, instructions: [0, 1, 2].map((k) => Math.round((c.work.ops ?? 1) * 50_000 * LEVEL[runner] * countFactor) + k) }
        : c,
    ),
  };
}

export function countedRecord(runner: Runner, i: number, branch = 'main', countFactor = 1): HistoryRecord {
  return toRecord(countedResult(runner, i, 1, countFactor), context(i, branch));
}

/** The runtime each runner reports (host.runtime) in a count history, before any toolchain change. */
export const RUNTIMES: Record<Runner, string> = { js: 'node v22.11.0', go: 'go1.22.5 linux/amd64', rs: 'rustc 1.82.0' };

export interface CountHistoryOptions {
  commits: number;
  branch?: string;
  /** Number of the first commit (context(first + i)), so two histories can share a folder. */
  first?: number;
  runners?: readonly Runner[];
  /** The counts' factor at commit i (1 = unchanged code), per runner. */
  counts?: (runner: Runner, i: number) => number;
  /** host.runtime at commit i, per runner (default RUNTIMES). */
  runtime?: (runner: Runner, i: number) => string;
  /** Wall-time noise: each run's samples scaled by a factor within ±noise (deterministic). */
  noise?: number;
}

/**
 * A synthetic push history with counts, one record per commit and runner, as a push run writes
 * them (toRecord of a counted result): counts move only where `counts` says, wall times wander.
 */
export function countHistory(o: CountHistoryOptions): HistoryRecord[] {
  const noise = o.noise ?? 0;
  let seed = 12345;
  const wander = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return 1 + noise * ((seed / 2 ** 31) * 2 - 1);
  };
  return Array.from({ length: o.commits }, (_, i) =>
    (o.runners ?? (['js', 'go', 'rs'] as const)).map((runner) => {
      const res = countedResult(runner, (o.first ?? 0) + i, wander(), o.counts?.(runner, i) ?? 1);
      const runtime = o.runtime?.(runner, i) ?? RUNTIMES[runner];
      return toRecord({ ...res, host: { ...res.host, runtime } }, context((o.first ?? 0) + i, o.branch));
    }),
  ).flat();
}
