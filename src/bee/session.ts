// Dev nodes for the length of one piece of work: started before it, stopped and removed after it
// on every path — success, failure, and cancellation (SIGINT from a terminal, SIGINT/SIGTERM from a
// cancelled GitHub job), where the process ends only after the nodes are gone. One node for a run,
// two for a node A/B (both under one clean-up, so a signal stops both).
import { constants } from 'node:os';
import { Cleanup, startDevNode, type DevNode, type DevNodeOptions } from './dev-node.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export function withDevNode<T>(o: DevNodeOptions, work: (node: DevNode) => Promise<T>): Promise<T> {
  return withDevNodes([o], ([node]) => work(node!));
}

/** As withDevNode, for several nodes started one after the other (none: work runs at once). */
export async function withDevNodes<T>(list: readonly DevNodeOptions[], work: (nodes: DevNode[]) => Promise<T>): Promise<T> {
  if (list.length === 0) return work([]);
  const o = list[0]!;
  const cleanup = new Cleanup();
  const onSignal = (signal: NodeJS.Signals) => {
    o.log(`bee: ${signal} received: stopping the dev node${list.length > 1 ? 's' : ''} before exiting`);
    // The shell convention for "ended by signal N": 128 + N (130 for SIGINT, 143 for SIGTERM).
    void cleanup.run().finally(() => process.exit(128 + (constants.signals[signal] ?? 0)));
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  try {
    const nodes: DevNode[] = [];
    for (const one of list) nodes.push(await startDevNode(one, cleanup));
    return await work(nodes);
  } finally {
    await cleanup.run();
    for (const s of SIGNALS) process.off(s, onSignal);
  }
}
