// Cache entries: what is cached per runner and how the key moves with toolchain, lockfiles and the
// runner's sources; and the logged no-op without a cache service.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachePlan, cacheServiceAvailable, restoreCaches, saveCaches } from '../../src/github/cache.js';
import { tmp } from '../action/harness.js';

describe('cache plan', () => {
  const root = tmp('cache');
  const cacheDir = join(root, 'bb-cache');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("rs: cargo registry and the runner's build cache folders, keyed by toolchain, lockfiles and sources", async () => {
    const checkout = join(root, 'checkout');
    mkdirSync(checkout);
    writeFileSync(join(checkout, 'Cargo.lock'), 'version = 4\n');
    const plan = await cachePlan('rs', cacheDir, [checkout]);
    expect(plan.key).toMatch(new RegExp(`^bee-bench-rs-${process.platform}-${process.arch}-[0-9a-f]{16}-[0-9a-f]{16}-[0-9a-f]{16}$`));
    expect(plan.restoreKeys).toEqual([plan.key.replace(/[0-9a-f]{16}$/, ''), plan.key.replace(/[0-9a-f]{16}-[0-9a-f]{16}$/, '')]);
    const cargoHome = process.env.CARGO_HOME ?? join(homedir(), '.cargo');
    expect(plan.paths).toEqual([
      join(cargoHome, 'registry', 'index'),
      join(cargoHome, 'registry', 'cache'),
      join(cargoHome, 'git', 'db'),
      join(cacheDir, 'rs-*'),
    ]);

    // A change to the checkout's lockfile moves the key, not the toolchain prefix.
    writeFileSync(join(checkout, 'Cargo.lock'), 'version = 4\n# bumped\n');
    const moved = await cachePlan('rs', cacheDir, [checkout]);
    expect(moved.key).not.toBe(plan.key);
    expect(moved.restoreKeys[1]).toBe(plan.restoreKeys[1]);
  });

  it("js keeps only npm's cache (a checkout build links to a checkout a later job lacks)", async () => {
    const plan = await cachePlan('js', cacheDir, []);
    expect(plan.paths).toHaveLength(1);
    expect(plan.paths[0]).not.toContain(cacheDir);
  });

  it('go: module and build caches', async () => {
    const plan = await cachePlan('go', cacheDir, []);
    expect(plan.paths.at(-1)).toBe(join(cacheDir, 'go-*'));
  });

  it('without a cache service, restore and save are logged no-ops', async () => {
    const saved = { ...process.env };
    delete process.env.ACTIONS_CACHE_URL;
    delete process.env.ACTIONS_RESULTS_URL;
    try {
      expect(cacheServiceAvailable()).toBe(false);
      const lines: string[] = [];
      const states = await restoreCaches([await cachePlan('rs', cacheDir, [])], (l) => lines.push(l));
      expect(states).toEqual([]);
      await saveCaches(states, (l) => lines.push(l));
      expect(lines).toEqual(['cache: no cache service (ACTIONS_CACHE_URL/ACTIONS_RESULTS_URL unset); restore and save are skipped']);
    } finally {
      process.env = saved;
    }
  });
});
