// The real-node test helper itself: which archives it needs and the one line it prints without
// them; and, where ../shared/bee is there, that it starts a real v2.8.0 dev node with a usable
// batch, that the node really encodes each erasure level (the README's chunk counts of a 1 MiB
// upload, read back through GET /tags by the upload's address, as the level tests do), and that
// stopping it frees the port.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { preflight } from '../../src/bee/preflight.js';
import { realBeeLine } from '../summary-reporter.js';
import { readmeDigests, realBeeAvailability } from './real-bee-archives.js';
import { beeReference, fixtureData, noRealBee, realBeeSkipNote, realNodes, splitCounts } from './real-node.js';

describe('the real-node helper without ../shared/bee', () => {
  it('reads the sha256 of each release from the README table', () => {
    const sha = 'ab'.repeat(32);
    const readme = `| file | release |\n|---|---|\n| \`bee-v2.8.0.xz\` | v2.8.0 | 41d6efc6 | 7.4.1 | \`${sha}\` |\n| \`bee-v9.xz\` | x | \`${sha}\` |\n`;
    expect([...readmeDigests(readme)]).toEqual([['2.8.0', sha]]);
  });

  it('says in one line what the tests skip and why when the archives are missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'bee-bench-no-shared-'));
    const a = realBeeAvailability(empty);
    expect(a).toMatchObject({ ok: false, reason: `${join(empty, 'README.md')} is missing` });
    expect(realBeeLine(a)).toMatch(
      /^!!! REAL BEE NODES NOT TESTED: the net tests against real nodes skipped: .*README\.md is missing\. Fix: put the Bee release archives/,
    );
    writeFileSync(join(empty, 'README.md'), '| `bee-v2.8.0.xz` | v2.8.0 | c | a | `' + 'cd'.repeat(32) + '` |\n');
    expect(realBeeAvailability(empty)).toMatchObject({ ok: false, reason: `${join(empty, 'bee-v2.8.0.xz')} is missing` });
  });
});

describe.skipIf(noRealBee)(`a real Bee v2.8.0 dev node${realBeeSkipNote}`, () => {
  const nodes = realNodes();
  afterAll(nodes.stopAll);

  it('starts on a free loopback port with a usable batch, encodes every erasure level, and stops', async () => {
    const node = await nodes.start('2.8.0');
    expect(node.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(node.version).toMatch(/^2\.8\.0-/);
    await preflight({ url: node.url, batchId: node.batchId });
    const data = fixtureData(1024 * 1024);
    const want = [259, 288, 324, 361, 915];
    const refs = new Set<string>();
    for (const [level, split] of want.entries()) {
      const ref = await beeReference(node, data, level);
      refs.add(ref);
      expect(await splitCounts(node, ref), `level ${level}`).toEqual([split]);
    }
    // Each level is another tree: five references.
    expect(refs.size).toBe(5);
    await nodes.stopAll();
    await expect(fetch(`${node.url}/health`, { signal: AbortSignal.timeout(5000) })).rejects.toThrow();
  }, 120_000);
});
