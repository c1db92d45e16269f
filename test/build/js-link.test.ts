// A bee-js build of a checkout links the checkout's folder into the runner, so the build depends on
// where the folder is: two folders with the same content get builds of their own, and a cached
// build whose link no longer resolves to its folder is rebuilt, never returned dangling.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFolder, buildRunner, isBuilt } from '../../src/build/index.js';
import { linkedClient } from '../../src/build/js.js';

// A cache of its own: its builds link to folders this test deletes.
const work = mkdtempSync(join(tmpdir(), 'bee-bench-js-link-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const cacheDir = join(work, 'cache');

/** A tiny stand-in bee-js package, the same content in every folder it is written to. */
function fakeCheckout(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@ethersphere/bee-js', version: '0.0.0-fake', type: 'module', main: 'index.js' }));
  writeFileSync(join(dir, 'index.js'), 'export const fake = true;\n');
  return dir;
}

// The checkout is built already: its build is the link.
const request = (path: string) => ({ runner: 'js' as const, source: { kind: 'path' as const, path }, cacheDir, buildCommand: 'true' });

/** The folder a build's link resolves to. */
async function linkedFolder(path: string): Promise<string> {
  return realpathSync(linkedClient((await buildFolder(request(path))).dir));
}

describe('bee-js checkout builds', () => {
  it('gives same-content folders builds of their own: deleting the first leaves the second linked to itself', { timeout: 300_000 }, async () => {
    const first = fakeCheckout('first');
    const second = fakeCheckout('second');
    const firstBuild = await buildRunner(request(first));
    expect(await linkedFolder(first)).toBe(realpathSync(first));
    rmSync(first, { recursive: true, force: true });

    const secondBuild = await buildRunner(request(second));
    expect(secondBuild.key).not.toBe(firstBuild.key);
    expect(secondBuild.cached).toBe(false);
    expect(await linkedFolder(second)).toBe(realpathSync(second));
  });

  it('rebuilds a cached build whose link no longer resolves to its checkout', { timeout: 300_000 }, async () => {
    const checkout = fakeCheckout('moved');
    const req = request(checkout);
    await buildRunner(req);
    expect(await isBuilt(req)).toBe(true);
    // As a cache restored from elsewhere could hold: the link names a folder that is not there.
    const link = linkedClient((await buildFolder(req)).dir);
    rmSync(link);
    symlinkSync(join(work, 'gone'), link, 'dir');
    expect(await isBuilt(req)).toBe(false);

    const lines: string[] = [];
    const rebuilt = await buildRunner({ ...req, log: (line) => lines.push(line) });
    expect(rebuilt.cached).toBe(false);
    expect(lines[0]).toBe(`js: the cached build ${rebuilt.key} is stale (its link ${link} does not resolve to ${checkout}); rebuilding`);
    expect(await linkedFolder(checkout)).toBe(realpathSync(checkout));
    expect((await buildRunner(req)).cached).toBe(true);
  });
});
