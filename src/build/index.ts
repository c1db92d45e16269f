// Building a runner against a client source, cached by (runner sources, client identity,
// toolchain, build command): a second build of the same inputs is a lookup.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Runner } from '../spec/schema.js';
import type { RunnerBuilder, RunnerCommand } from './builder.js';
import { BuildError } from './exec.js';
import { hashParts, treeHash } from './hash.js';
import { withFolderLock } from './lock.js';
import { goBuilder } from './go.js';
import { jsBuilder } from './js.js';
import { packageRoot } from './paths.js';
import { rsBuilder } from './rs.js';
import { sourceIdentity, type ClientSource } from './source.js';
import { buildEstimate, estimateBasis, recordBuild } from './timings.js';

export { BuildError } from './exec.js';
export { goCloneCommand, goProxyProblem } from './go.js';
export { parseSource, type ClientSource } from './source.js';

const BUILDERS: Record<Runner, RunnerBuilder> = { js: jsBuilder, go: goBuilder, rs: rsBuilder };

export interface BuildRequest {
  runner: Runner;
  source: ClientSource;
  cacheDir?: string;
  buildCommand?: string;
  log?: (line: string) => void;
  /** Use a build already in the cache or fail, naming the key wanted and the builds there (shards never rebuild). */
  reuseOnly?: boolean;
}

export interface BuiltRunner {
  runner: Runner;
  source: ClientSource;
  command: RunnerCommand;
  key: string;
  cached: boolean;
  buildMs: number;
}

export const defaultCacheDir = () => resolve(process.env.BEE_BENCH_CACHE ?? join('.bee-bench', 'cache'));

export function builderFor(runner: Runner): RunnerBuilder {
  return BUILDERS[runner];
}

export const BUILD_MARKER = 'bee-bench-build.json';

/** A finished build's marker, naming this key (a marker of another key, or no JSON, is a miss). */
function markerMatches(marker: string, key: string): boolean {
  if (!existsSync(marker)) return false;
  try {
    return (JSON.parse(readFileSync(marker, 'utf8')) as { key?: unknown } | null)?.key === key;
  } catch {
    return false;
  }
}

const NOT_BUILT = 'not built';

/** Why dir holds no build of key that works for source (NOT_BUILT, or why the build is stale); undefined when it does. */
function unusable(builder: RunnerBuilder, dir: string, key: string, source: ClientSource): string | undefined {
  if (!markerMatches(join(dir, BUILD_MARKER), key)) return NOT_BUILT;
  return builder.stale?.(dir, source);
}

/** Where a build of these inputs lives in the cache, and the key that names it. */
export async function buildFolder(
  req: Pick<BuildRequest, 'runner' | 'source' | 'cacheDir' | 'buildCommand'>,
): Promise<{ key: string; dir: string; toolchain: string }> {
  const builder = builderFor(req.runner);
  const toolchain = await builder.toolchain();
  if (toolchain === 'missing') throw new BuildError(`runner ${req.runner}: its toolchain is not installed`);
  const identity = sourceIdentity(req.source);
  const key = hashParts([
    req.runner,
    `recipe ${builder.recipe}`,
    treeHash(join(packageRoot(), 'runners', req.runner)),
    identity.key,
    toolchain,
    req.buildCommand ?? '',
    ...(builder.keyParts?.(req.source) ?? []),
  ]);
  return { key, dir: join(req.cacheDir ?? defaultCacheDir(), `${req.runner}-${key}`), toolchain };
}

/** Whether buildRunner would find these inputs' build in the cache (false when the toolchain is missing). */
export async function isBuilt(req: Pick<BuildRequest, 'runner' | 'source' | 'cacheDir' | 'buildCommand'>): Promise<boolean> {
  try {
    const { key, dir } = await buildFolder(req);
    return unusable(builderFor(req.runner), dir, key, req.source) === undefined;
  } catch {
    return false;
  }
}

export async function buildRunner(req: BuildRequest): Promise<BuiltRunner> {
  const started = performance.now();
  const folder = await buildFolder(req);
  return withFolderLock(folder.dir, req.log ?? (() => {}), () => buildInFolder(req, folder, started));
}

/** The build of `folder`, from the cache or made there (under its lock). */
async function buildInFolder(req: BuildRequest, { key, dir, toolchain }: Awaited<ReturnType<typeof buildFolder>>, started: number): Promise<BuiltRunner> {
  const log = req.log ?? (() => {});
  const builder = builderFor(req.runner);
  const root = packageRoot();
  const identity = sourceIdentity(req.source);
  const cacheDir = req.cacheDir ?? defaultCacheDir();
  const marker = join(dir, BUILD_MARKER);
  const why = unusable(builder, dir, key, req.source);
  if (why === undefined) {
    // The marker only says the build finished; the command comes from the builder, not the file.
    log(`${req.runner}: build cache hit ${key} (${identity.key})`);
    return { runner: req.runner, source: req.source, command: builder.command(dir), key, cached: true, buildMs: performance.now() - started };
  }
  if (why !== NOT_BUILT) {
    if (req.reuseOnly)
      throw new BuildError(`runner ${req.runner}: the build ${req.runner}-${key} in ${cacheDir} is stale: ${why}; build with \`bee-bench build\` here`);
    log(`${req.runner}: the cached build ${key} is stale (${why}); rebuilding`);
  }
  if (req.reuseOnly) {
    const there = existsSync(cacheDir)
      ? readdirSync(cacheDir).filter((d) => d.startsWith(`${req.runner}-`) && !d.endsWith('-shared') && !d.endsWith('.lock'))
      : [];
    throw new BuildError(
      `runner ${req.runner}: no build ${req.runner}-${key} in ${cacheDir} (found: ${there.join(', ') || 'none'}): the build job built other inputs (runner sources, client ${identity.key}, toolchain ${toolchain}); build with \`bee-bench build\` from the same commit and selection`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sharedDir = join(cacheDir, `${req.runner}-shared`);
  mkdirSync(sharedDir, { recursive: true });
  // The tools' own output (148 cargo lines on a cold build, npm's warnings) goes to a log file;
  // the console gets one line per build: what, cache miss and time taken, where the log is.
  const logFile = join(dir, 'build.log');
  const shown = relative(process.cwd(), logFile).startsWith('..') ? logFile : relative(process.cwd(), logFile);
  const toFile = (line: string) => appendFileSync(logFile, `${line}\n`);
  // A build is a step of its own on the console: its line comes when it starts (cargo's cold build
  // takes minutes), with what it should take; the run's progress keeps time from it.
  const estimate = buildEstimate(cacheDir, req.runner);
  log(`${req.runner}: building ${identity.key} (not in the cache; about ${Math.round(estimate.ms / 1000)} s: ${estimateBasis(estimate)})`);
  let command: RunnerCommand;
  try {
    command = await builder.build({ root, source: req.source, dir, sharedDir, buildCommand: req.buildCommand, log: toFile });
  } catch (e) {
    if (e instanceof BuildError) throw new BuildError(`${e.message}\n(full output: ${shown})`, e.logTail);
    throw e;
  }
  const tookMs = performance.now() - started;
  log(`${req.runner}: built ${identity.key} in ${Math.round(tookMs / 1000)} s (cache miss ${key}); output in ${shown}`);
  recordBuild(cacheDir, req.runner, tookMs);
  // The marker is written last: a build that died half-way has none and is redone.
  writeFileSync(marker, JSON.stringify({ key, source: identity, toolchain }, null, 2));
  return { runner: req.runner, source: req.source, command, key, cached: false, buildMs: performance.now() - started };
}
