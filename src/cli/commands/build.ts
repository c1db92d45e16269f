// `bee-bench build --runner R...`: the runner builds into the cache (the nightly's build job;
// shards reuse them with --prebuilt).
import { buildRunner } from '../../build/index.js';
import { common, givenClient, log, runnerList, source, type Values } from '../flags.js';

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
