// `bee-bench build --runner R...`: the runner builds into the cache (the nightly's build job;
// shards reuse them with --prebuilt).
import { buildRunner } from '../../build/index.js';
import { CLIENT_FLAGS, common, givenClient, log, runnerList, source, type Values } from '../flags.js';
import type { CliCommand } from '../command.js';
import { COMMON, SRC } from '../help-text.js';

export async function build(v: Values): Promise<number> {
  const c = common(v);
  for (const runner of runnerList(v)) {
    const built = await buildRunner({
      runner,
      source: source(givenClient(v, runner) ?? 'registry', `${runner}-client`),
      cacheDir: c.cacheDir,
      buildCommand: v['build-command'],
      log,
    });
    log(`${runner}: ${built.cached ? 'cached' : 'built'} ${runner}-${built.key}`);
  }
  return 0;
}

/** `bee-bench build`: its help, its flags and what it runs. */
export const buildCli: CliCommand = {
  name: 'build',
  usage: ['bee-bench build   [--runner js|go|rs]... [--js-client SRC] [--go-client SRC] [--rs-client SRC] [--cache DIR]'],
  summary: 'build the runners into the cache, run nothing (the build job of a sharded run)',
  details: `${SRC}
Each build sits in the cache under its inputs' hash (runner sources, client, toolchain); shards
given the same cache with --prebuilt run it without building.
Defaults: all three runners, every client from its registry, --cache .bee-bench/cache.
${COMMON}`,
  fails: 'a build failed',
  flags: [...CLIENT_FLAGS, 'runner', 'cache', 'spec', 'build-command'],
  run: build,
};
