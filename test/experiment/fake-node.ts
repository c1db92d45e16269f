// A loopback stand-in for a Bee node that speaks just enough of Bee's API for the engine's node
// checks and the js runner's bee-js calls (health, node mode, stamps, POST/GET /bytes, tags,
// stewardship), and misbehaves on purpose: each download's answer is chosen by the test from the
// stored payload's size and how many times it was asked for (fail k times, never, wrong bytes,
// hang), and the tags of a full node can be made to never sync.
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_BATCH = 'cd'.repeat(32);

export type Answer = 'ok' | 'fail' | 'wrong' | 'hang';

export interface FakeNodeOptions {
  /** GET /node's beeMode ("dev": the engine waits for no sync signal). */
  mode?: 'dev' | 'full';
  /** The answer to the n-th (1-based) download of a payload of `size` bytes. */
  download?: (size: number, n: number) => Answer;
  /** Whether a tag reports its chunks synced. */
  syncs?: boolean;
}

export interface FakeNode {
  url: string;
  /** Downloads asked for, by reference. */
  asked: Map<string, number>;
  close(): Promise<void>;
}

export async function startFakeNode(o: FakeNodeOptions = {}): Promise<FakeNode> {
  const store = new Map<string, Buffer>();
  const tags = new Map<number, string>();
  const asked = new Map<string, number>();
  let nextTag = 1;
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const parts = path.split('/').filter(Boolean);
    if (req.method === 'GET' && path === '/health') return json(res, 200, { status: 'ok', version: '9.9.9-fake', apiVersion: '7.4.1' });
    if (req.method === 'GET' && path === '/node') return json(res, 200, { beeMode: o.mode ?? 'dev' });
    if (req.method === 'POST' && parts[0] === 'stamps') return json(res, 201, { batchID: FAKE_BATCH });
    if (req.method === 'GET' && parts[0] === 'stamps' && parts[1]) return json(res, 200, { batchID: parts[1], usable: true, exists: true, batchTTL: 1e6 });
    if (req.method === 'POST' && path === '/bytes') {
      const body: Buffer[] = [];
      req.on('data', (d: Buffer) => body.push(d));
      req.on('end', () => {
        const data = Buffer.concat(body);
        const reference = createHash('sha256').update(data).digest('hex');
        store.set(reference, data);
        const uid = nextTag++;
        tags.set(uid, reference);
        json(res, 201, { reference }, { 'swarm-tag': String(uid), 'access-control-expose-headers': 'Swarm-Tag' });
      });
      return;
    }
    if (req.method === 'GET' && parts[0] === 'bytes' && parts[1]) {
      const data = store.get(parts[1]);
      if (!data) return json(res, 404, { code: 404, message: 'Not Found' });
      const n = (asked.get(parts[1]) ?? 0) + 1;
      asked.set(parts[1], n);
      const answer = o.download?.(data.length, n) ?? 'ok';
      if (answer === 'fail') return json(res, 500, { code: 500, message: 'fake: retrieval failed' });
      if (answer === 'hang') {
        // Headers and half the body, then nothing: only the client's timeout ends it.
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(data.length) });
        res.write(data.subarray(0, data.length >> 1));
        return;
      }
      const out = Buffer.from(data);
      if (answer === 'wrong') out[out.length - 1] = out[out.length - 1]! ^ 0xff;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(out.length) });
      return res.end(out);
    }
    if (req.method === 'GET' && parts[0] === 'tags' && parts[1]) {
      const reference = tags.get(Number(parts[1]));
      if (!reference) return json(res, 404, { code: 404, message: 'tag not found' });
      const split = Math.max(1, Math.ceil(store.get(reference)!.length / 4096));
      return json(res, 200, { uid: Number(parts[1]), address: reference, split, seen: 0, stored: split, sent: 0, synced: o.syncs ? split : 0 });
    }
    if (req.method === 'GET' && parts[0] === 'stewardship' && parts[1]) return json(res, 200, { isRetrievable: Boolean(o.syncs) });
    json(res, 404, { code: 404, message: `fake node: no ${req.method} ${path}` });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
