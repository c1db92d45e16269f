// Two builds of the same inputs at once share one cache folder: one builds, the other waits and
// finds that build (before the lock, the second emptied the folder under the first's cargo). A lock
// left by a process that is gone does not hold a build up.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFolder, buildRunner } from '../../src/build/index.js';

const work = mkdtempSync(join(tmpdir(), 'bee-bench-build-lock-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A stand-in bee-js checkout, built already (`buildCommand: 'true'`): the build copies the runner and installs its locked modules. */
function request(name: string) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@ethersphere/bee-js', version: '0.0.0-fake', type: 'module' }));
  return { runner: 'js' as const, source: { kind: 'path' as const, path: dir }, cacheDir: join(work, 'cache'), buildCommand: 'true' };
}

describe('build lock', () => {
  it('builds once when the same inputs are asked for twice at once', { timeout: 600_000 }, async () => {
    const req = request('together');
    const lines: string[] = [];
    const both = await Promise.all([buildRunner({ ...req, log: (l) => lines.push(l) }), buildRunner({ ...req, log: (l) => lines.push(l) })]);
    expect(both.map((b) => b.cached).sort()).toEqual([false, true]);
    expect(both[0].key).toBe(both[1].key);
    expect(lines.filter((l) => l.startsWith('js: building'))).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('waiting for another build of '))).toBe(true);
    expect(existsSync(`${(await buildFolder(req)).dir}.lock`)).toBe(false);
  });

  it('takes over a lock whose holder is gone', { timeout: 600_000 }, async () => {
    const req = request('left');
    const { dir } = await buildFolder(req);
    // A pid past the kernel's limit (2^22) runs nowhere.
    mkdirSync(`${dir}.lock`, { recursive: true });
    writeFileSync(join(`${dir}.lock`, 'holder'), `${hostname()} 4194305`);
    const built = await buildRunner(req);
    expect(built.cached).toBe(false);
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });
});
