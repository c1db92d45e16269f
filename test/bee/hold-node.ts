// Holds a dev node open until the process is signalled: the cancellation test starts this in its
// own process, waits for "ready", sends SIGINT or SIGTERM, and checks that the node is gone.
// Usage: hold-node.ts binary PATH | docker PATH
import { withDevNode } from '../../src/bee/session.js';

const [kind, path] = process.argv.slice(2);
const how = kind === 'docker' ? { kind: 'docker' as const, docker: path! } : { kind: 'binary' as const, path: path! };
await withDevNode({ how, log: (l) => process.stderr.write(`${l}\n`) }, async (node) => {
  process.stdout.write(`ready ${node.url} ${node.batchId}\n`);
  await new Promise(() => setInterval(() => undefined, 1_000));
});
