// A dev node for the length of one piece of work: started before it, stopped and removed after it
// on every path — success, failure, and cancellation (SIGINT from a terminal, SIGINT/SIGTERM from a
// cancelled GitHub job), where the process ends only after the node is gone.
import { constants } from 'node:os';
import { Cleanup, startDevNode, type DevNode, type DevNodeOptions } from './dev-node.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export async function withDevNode<T>(o: DevNodeOptions, work: (node: DevNode) => Promise<T>): Promise<T> {
  const cleanup = new Cleanup();
  const onSignal = (signal: NodeJS.Signals) => {
    o.log(`bee: ${signal} received: stopping the dev node before exiting`);
    // The shell convention for "ended by signal N": 128 + N (130 for SIGINT, 143 for SIGTERM).
    void cleanup.run().finally(() => process.exit(128 + (constants.signals[signal] ?? 0)));
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  try {
    return await work(await startDevNode(o, cleanup));
  } finally {
    await cleanup.run();
    for (const s of SIGNALS) process.off(s, onSignal);
  }
}
