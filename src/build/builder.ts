// What a runner build is: the command a build yields, the context a builder gets and the
// per-runner builder interface (src/build/js.ts, go.ts, rs.ts implement it).
import type { Runner } from '../spec/schema.js';
import type { ClientSource } from './source.js';

/** What a build yields: how to start the runner (src/run spawns it). */
export interface RunnerCommand {
  /** argv prefix that starts the runner, e.g. ['node', '.../bee-bench-js.mjs'] or ['.../bee-bench-rs']. */
  argv: readonly string[];
  cwd?: string;
  env?: Readonly<Record<string, string>>;
}

export interface BuildContext {
  /** The bee-bench package root; the runner's sources are at runners/<runner>. */
  root: string;
  source: ClientSource;
  /** A fresh, empty folder this build owns. */
  dir: string;
  /** A folder shared by every build of this runner (cargo's target dir, say), reused across keys. */
  sharedDir: string;
  /** Replaces the default command that builds a client checkout (shell syntax, run in the checkout). */
  buildCommand?: string;
  log: (line: string) => void;
}

/** How one runner is built against a client source. One per language, in src/build/<runner>.ts. */
export interface RunnerBuilder {
  runner: Runner;
  /** Bumped when the way this runner is built changes (part of the cache key: old builds are not reused). */
  recipe: number;
  /** The toolchain's version line (part of the cache key); 'missing' when it is not installed. */
  toolchain(): Promise<string>;
  /** Builds into ctx.dir and returns the command that starts the runner (always command(ctx.dir)). */
  build(ctx: BuildContext): Promise<RunnerCommand>;
  /**
   * What else the build depends on than the source's content (added to the cache key): a build
   * that links a checkout in place depends on where it is, one that copies or compiles it does not.
   */
  keyParts?(source: ClientSource): string[];
  /** Why a finished build in dir no longer works for source (undefined: it does); such a hit is rebuilt. */
  stale?(dir: string, source: ClientSource): string | undefined;
  /**
   * The command that starts a runner built into dir. Derived from code, never read from the build
   * folder: a cache restored from another job could hold any marker file, and its argv would run.
   */
  command(dir: string): RunnerCommand;
}
