// The design's parsing and expansion, the blocked run order (reproducible from the seed, every
// cell's nodes back to back) and the payload rule (the same bytes the js runner's ops uploads).
import { describe, expect, it } from 'vitest';
import { cellsOf, designFromWords, parseNode, parseSize } from '../../src/experiment/design.js';
import { runOrder } from '../../src/experiment/order.js';
import { describeCost, designCost } from '../../src/experiment/cost.js';
import { payload, payloadSha256, unitSeed } from '../../src/experiment/payload.js';
import { createHash } from 'node:crypto';
// @ts-expect-error: the runner's module is plain JavaScript without types
import { seedPayload } from '../../runners/js/src/ops.mjs';

const nodes = ['a=2.7.0@http://127.0.0.1:1633', 'b=2.8.0@http://127.0.0.1:1634'];

describe('the design', () => {
  it('reads sizes (KB decimal, KiB binary), nodes and the NONE/DATA/RACE coupling', () => {
    expect(['1KB', '10MB', '1KiB', '512', '1.5MB'].map(parseSize)).toEqual([1000, 10_000_000, 1024, 512, 1_500_000]);
    expect(() => parseSize('ten')).toThrow(/write it like 1024, 1KB/);
    expect(parseNode(`a=2.8.0@http://127.0.0.1:1633#${'AB'.repeat(32)}`)).toEqual({
      label: 'a',
      release: '2.8.0',
      url: 'http://127.0.0.1:1633',
      batch_id: 'ab'.repeat(32),
    });
    const d = designFromWords({ nodes, sizes: '1KB,10KB', levels: '0,2', strategies: 'data,race' });
    expect(cellsOf(d).map((c) => `${c.size}-${c.level}-${c.strategy}`)).toEqual([
      '1000-0-NONE',
      '1000-2-DATA',
      '1000-2-RACE',
      '10000-0-NONE',
      '10000-2-DATA',
      '10000-2-RACE',
    ]);
    expect(() => designFromWords({ nodes: [...nodes, nodes[0]!] })).toThrow(/label "a" is used twice/);
    expect(() => designFromWords({ nodes, levels: '5' })).toThrow(/levels/);
  });

  it('the seed study: 6 sizes × (NONE + 4 levels × DATA/RACE) × 3 servers × 30 replicates = 4,860 downloads per release', () => {
    const d = designFromWords({
      nodes: ['s1=2.6@http://h1', 's2=2.6@http://h2', 's3=2.6@http://h3'],
      sizes: '1KB,10KB,100KB,1MB,10MB,50MB',
      levels: '0,1,2,3,4',
      replicates: '30',
    });
    expect(runOrder(d, '00'.repeat(32))).toHaveLength(4860);
    const c = designCost(d);
    expect(c).toMatchObject({ units: 4860, uploads: 4860, downloadsMin: 4860, downloadsMax: 72_900, uploadBytes: (810 * 3 * 61_111_000) / 3 });
    expect(describeCost(c)).toMatch(/^4,860 units: 4,860 uploads \(49\.5 GB\), 4,860\.\.72,900 downloads \(at least 49\.5 GB\), about [\d,]+ chunks stamped$/);
  });
});

describe('the run order', () => {
  const d = designFromWords({ nodes, replicates: '4' });
  it('is the same for the same seed and another for another seed; every block holds each cell on each node once', () => {
    const a = runOrder(d, '01'.repeat(32));
    expect(runOrder(d, '01'.repeat(32))).toEqual(a);
    expect(runOrder(d, '02'.repeat(32)).map((u) => u.key)).not.toEqual(a.map((u) => u.key));
    const perBlock = cellsOf(d).length * 2;
    for (let b = 0; b < 4; b++) {
      const block = a.slice(b * perBlock, (b + 1) * perBlock);
      expect(new Set(block.map((u) => u.key)).size).toBe(perBlock);
      expect(block.every((u) => u.rep === b + 1)).toBe(true);
      for (let i = 0; i < block.length; i += 2) expect(block[i]!.key.split('@')[0]).toBe(block[i + 1]!.key.split('@')[0]);
    }
    // Shuffled: not the design's order in every block.
    expect(a.slice(0, perBlock).map((u) => u.key)).not.toEqual(
      runOrder({ ...d, order: 'sequential' }, '01'.repeat(32))
        .slice(0, perBlock)
        .map((u) => u.key),
    );
  });
});

describe('the payload', () => {
  it('is the runners’ rule, unique per unit, and hashed without holding it', () => {
    const seed = unitSeed('aa'.repeat(32), '1000-L0-NONE@a#1');
    expect(seed).not.toBe(unitSeed('aa'.repeat(32), '1000-L0-NONE@a#2'));
    for (const size of [1, 31, 32, 33, 1000, 70_000]) {
      const mine = payload(seed, size);
      expect(Buffer.from(seedPayload(seed, size) as Uint8Array).equals(mine), `size ${size}`).toBe(true);
      expect(payloadSha256(seed, size)).toBe(createHash('sha256').update(mine).digest('hex'));
    }
  });
});
