#!/usr/bin/env node
// A stand-in for `bee dev` (Bee 2.8.0) serving the few endpoints a dev node's lifecycle uses over
// loopback: GET /health, POST /stamps/{amount}/{depth}, GET /stamps/{id}. It accepts exactly the
// flags of Bee 2.8.0's dev command (cmd/bee/cmd/start_dev.go) and fails on any other, as cobra does.
// Test-only options come before `dev`: --fake-mode=MODE and --fake-record=FILE (JSON lines of what
// happened: start, requests, signals, exit). Modes:
//   ok             healthy at once; a bought batch turns usable on the second look
//   never-healthy  /health answers 503 forever
//   exit-early     exits with code 3 right after starting
//   no-batch       POST /stamps answers 500
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';

const DEV_FLAGS = new Set([
  'api-addr',
  'verbosity',
  'dev-reserve-capacity',
  'cors-allowed-origins',
  'db-open-files-limit',
  'db-block-cache-capacity',
  'db-write-buffer-size',
  'db-disable-seeks-compaction',
  'config',
]);

const args = process.argv.slice(2);
let mode = 'ok';
let record;
while (args[0]?.startsWith('--fake-')) {
  const [k, v] = args.shift().slice(2).split('=');
  if (k === 'fake-mode') mode = v;
  else if (k === 'fake-record') record = v;
}
const note = (event) => record && appendFileSync(record, `${JSON.stringify({ ...event, pid: process.pid, t: Date.now() })}\n`);
const die = (msg) => {
  process.stderr.write(`Error: ${msg}\n`);
  note({ event: 'exit', code: 1, error: msg });
  process.exit(1);
};

if (args[0] !== 'dev') die(`expected the dev command, got ${JSON.stringify(args)}`);
const flags = {};
for (const a of args.slice(1)) {
  const m = /^--([a-z-]+)=(.*)$/.exec(a);
  if (!m) die(`unsupported argument ${a} (this fake takes --flag=value)`);
  if (!DEV_FLAGS.has(m[1])) die(`unknown flag: --${m[1]}`);
  flags[m[1]] = m[2];
}
const addr = flags['api-addr'] ?? '127.0.0.1:1633';
const at = addr.lastIndexOf(':');
const host = addr.slice(0, at);
const port = Number(addr.slice(at + 1));
if (host !== '127.0.0.1') die(`refusing to listen on ${JSON.stringify(host)}: tests stay on loopback`);

note({ event: 'start', argv: args, home: process.env.HOME, beeEnv: Object.keys(process.env).filter((k) => /^BEE_/i.test(k)) });
process.stdout.write(`fake bee dev (${mode}) on ${addr}\n`);
if (mode === 'exit-early') {
  note({ event: 'exit', code: 3 });
  process.exit(3);
}

const batches = new Map();
const send = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const server = createServer((req, res) => {
  note({ event: 'request', method: req.method, path: req.url, batch: req.headers['swarm-postage-batch-id'] });
  const stamp = /^\/stamps\/([0-9]+)\/([0-9]+)$/.exec(req.url ?? '');
  const look = /^\/stamps\/([0-9a-f]{64})$/.exec(req.url ?? '');
  if (req.method === 'GET' && req.url === '/health') {
    if (mode === 'never-healthy') return send(res, 503, { status: 'nok', version: '2.8.0-fake' });
    return send(res, 200, { status: 'ok', version: '2.8.0-fake', apiVersion: '7.3.0' });
  }
  if (req.method === 'POST' && stamp) {
    if (mode === 'no-batch') return send(res, 500, { code: 500, message: 'cannot create batch' });
    const id = randomBytes(32).toString('hex');
    batches.set(id, 0);
    return send(res, 201, { batchID: id, txHash: `0x${randomBytes(32).toString('hex')}` });
  }
  if (req.method === 'GET' && look && batches.has(look[1])) {
    const seen = batches.get(look[1]) + 1;
    batches.set(look[1], seen);
    return send(res, 200, { batchID: look[1], usable: seen >= 2, exists: true, depth: 24 });
  }
  send(res, 404, { code: 404, message: 'Not Found' });
});
server.listen(port, host);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    note({ event: 'signal', signal });
    server.close();
    note({ event: 'exit', code: 0 });
    process.exit(0);
  });
}
