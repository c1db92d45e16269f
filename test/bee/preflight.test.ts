// The engine's node check against real loopback servers: each failure is one clear, fast message.
import { afterEach, describe, expect, it } from 'vitest';
import { BeeArgumentError, BeeNodeError, parseBeeTarget, preflight, probe } from '../../src/bee/preflight.js';
import { BATCH, deadUrl, silentNode, storingNode, type FakeNode } from './fake-node.js';

const open: FakeNode[] = [];
const node = async (n: Promise<FakeNode>) => {
  const started = await n;
  open.push(started);
  return started;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((n) => n.close()));
});

describe('parseBeeTarget', () => {
  it('normalises the URL and the batch id', () => {
    expect(parseBeeTarget('http://127.0.0.1:1633/', `0x${BATCH.toUpperCase()}`)).toEqual({ url: 'http://127.0.0.1:1633', batchId: BATCH });
  });
  it('rejects a malformed batch id or URL naming the flag', () => {
    expect(() => parseBeeTarget('http://127.0.0.1:1633', 'abc')).toThrow(BeeArgumentError);
    expect(() => parseBeeTarget('http://127.0.0.1:1633', 'abc')).toThrow(/--batch-id abc: must be 64 hex digits/);
    expect(() => parseBeeTarget('localhost:1633', BATCH)).toThrow(/--bee-url localhost:1633/);
  });
});

describe('preflight', () => {
  it('passes a healthy node with a usable batch and returns its version', async () => {
    const n = await node(storingNode());
    await expect(preflight({ url: n.url, batchId: BATCH })).resolves.toEqual({ version: '2.8.0-fake' });
  });

  it('fails fast when nothing listens, naming the URL and the fix', async () => {
    const url = await deadUrl();
    const started = Date.now();
    const err = await preflight({ url, batchId: BATCH }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BeeNodeError);
    expect((err as Error).message).toMatch(new RegExp(`Bee node at ${url}: cannot connect .*ECONNREFUSED.*start the node`));
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up on a node that never answers within the timeout', async () => {
    const n = await node(silentNode());
    const started = Date.now();
    await expect(preflight({ url: n.url, batchId: BATCH }, 300)).rejects.toThrow(`no answer from ${n.url}/health in 0.3 s`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("names a missing batch with Bee's own message and how to get one", async () => {
    const n = await node(storingNode({ batch: 'missing' }));
    await expect(preflight({ url: n.url, batchId: BATCH })).rejects.toThrow(`batch ${BATCH} is not on the node at ${n.url} (batch with id not found); buy one`);
  });

  it('rejects a batch that is not usable yet', async () => {
    const n = await node(storingNode({ batch: 'unusable' }));
    await expect(preflight({ url: n.url, batchId: BATCH })).rejects.toThrow(/is not usable yet/);
  });

  it('probe returns status and body of any answer', async () => {
    const n = await node(storingNode());
    expect(await probe(`${n.url}/nothing`)).toEqual({ status: 404, body: JSON.stringify({ code: 404, message: 'Not Found' }) });
  });
});
