// Loopback stand-ins for a Bee node, for tests that need a node misbehaving in a known way: one
// that accepts connections and never answers (a node stopped with SIGSTOP), and one that stores
// uploads but serves altered bytes back. Nothing here is a Bee: only what the probes and the
// download cases touch is answered.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const BATCH = 'ab'.repeat(32);

export interface FakeNode {
  url: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<FakeNode> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Accepts every connection, reads nothing, answers nothing. */
export function silentNode(): Promise<FakeNode> {
  return listen(createServer(() => undefined));
}

/** A URL on which nothing listens: a port the OS handed out and took back. */
export async function deadUrl(): Promise<string> {
  const node = await listen(createServer());
  await node.close();
  return node.url;
}

export interface NodeOptions {
  /** The batch answer of GET /stamps/{id}: usable, absent (404) or not yet usable. */
  batch?: 'usable' | 'missing' | 'unusable';
  /** Flip the first byte of every download (same length, other content). */
  corrupt?: boolean;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function body(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  return Buffer.concat(parts);
}

/** Health, one batch, and /bytes and /bzz uploads kept in memory and served back (altered if asked). */
export function storingNode(o: NodeOptions = {}): Promise<FakeNode> {
  const store = new Map<string, Buffer>();
  return listen(
    createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const [, root, id] = url.pathname.split('/');
        if (url.pathname === '/health') return json(res, 200, { status: 'ok', version: '2.8.0-fake', apiVersion: '7.0.0' });
        if (root === 'stamps' && id) {
          if (id !== BATCH || o.batch === 'missing') return json(res, 404, { code: 404, message: 'batch with id not found' });
          return json(res, 200, { batchID: id, usable: o.batch !== 'unusable', exists: true, depth: 20, batchTTL: 1e6 });
        }
        if ((root === 'bytes' || root === 'bzz') && req.method === 'POST') {
          const data = await body(req);
          const ref = (store.size + 1).toString(16).padStart(64, '0');
          store.set(ref, data);
          return json(res, 201, { reference: ref });
        }
        if ((root === 'bytes' || root === 'bzz') && (req.method === 'GET' || req.method === 'HEAD') && id && store.has(id)) {
          const data = Buffer.from(store.get(id)!);
          if (o.corrupt) data[0]! ^= 0xff;
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length });
          return res.end(req.method === 'HEAD' ? undefined : data);
        }
        json(res, 404, { code: 404, message: 'Not Found' });
      })();
    }),
  );
}
