// GET /stamps, once and concurrently: HTTP-stack overhead and a rig sanity check.
import { nodeApi, range } from './util.mjs';

/** net.stamps.list */
export function stampsList(env) {
  const { getPostageBatches } = nodeApi(env, 'getPostageBatches');
  return { op: () => getPostageBatches() };
}

/** net.stamps.concurrent: `count` GET /stamps in flight at once. */
export function stampsConcurrent(env, p) {
  const { getPostageBatches } = nodeApi(env, 'getPostageBatches');
  const calls = range(p.count);
  return { op: () => Promise.all(calls.map(() => getPostageBatches())) };
}
