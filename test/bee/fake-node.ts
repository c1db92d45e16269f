// Loopback stand-ins for a Bee node, for tests that need a node misbehaving in a known way: one
// that accepts connections and never answers (a node stopped with SIGSTOP), and one that stores
// uploads but serves altered bytes back. Nothing here is a Bee: only what the probes, the
// download cases and the upload digests touch is answered.
import { createHash } from 'node:crypto';
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

/** Nodes started by a test file, closed together by its after-hook. */
export function nodeTracker() {
  const open: FakeNode[] = [];
  return {
    async start(n: Promise<FakeNode>): Promise<FakeNode> {
      const node = await n;
      open.push(node);
      return node;
    },
    closeAll: () => Promise.all(open.splice(0).map((n) => n.close())).then(() => undefined),
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

/** What the node answers as the reference of an upload: sha256(body), so a test can predict it. */
export const referenceOf = (body: Uint8Array) => createHash('sha256').update(body).digest('hex');

/**
 * Health, one batch, tags, and /bytes, /bzz and /chunks uploads kept in memory under
 * sha256(body) and served back (altered if asked); 501 to SOC writes, as a dev node. A missing
 * batch is refused with Bee's message.
 */
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
        if (root === 'tags')
          return json(res, 201, { uid: 1, address: '', split: 0, seen: 0, stored: 0, sent: 0, synced: 0, startedAt: new Date(0).toISOString() });
        if ((root === 'bytes' || root === 'bzz' || root === 'chunks') && req.method === 'POST') {
          const data = await body(req);
          if (o.batch === 'missing') return json(res, 404, { code: 404, message: 'batch with id not found' });
          const ref = referenceOf(data);
          store.set(ref, data);
          return json(res, 201, { reference: ref });
        }
        if ((root === 'bytes' || root === 'bzz') && (req.method === 'GET' || req.method === 'HEAD') && id && store.has(id)) {
          let data = Buffer.from(store.get(id)!);
          if (o.corrupt) data[0]! ^= 0xff;
          const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
          if (range) data = data.subarray(Number(range[1]), Number(range[2]) + 1);
          const headers = { 'content-type': 'application/octet-stream', 'content-length': data.length, 'content-disposition': 'inline; filename="bench.bin"' };
          res.writeHead(range ? 206 : 200, headers);
          return res.end(req.method === 'HEAD' ? undefined : data);
        }
        // As a dev node: no single-owner-chunk writes, so no feed has an update.
        if (root === 'soc' && req.method === 'POST') return json(res, 501, { code: 501, message: 'Not Implemented' });
        json(res, 404, { code: 404, message: 'Not Found' });
      })();
    }),
  );
}
