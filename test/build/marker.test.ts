// A build folder restored from a cache is not trusted to say what to run: a marker whose command
// names another program (as a poisoned cache would carry) is a hit whose command still comes from
// the builder's code.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_MARKER, buildFolder, buildRunner, builderFor } from '../../src/build/index.js';

const cacheDir = mkdtempSync(join(tmpdir(), 'bee-bench-marker-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

describe('build marker', () => {
  it('runs the command derived from code, not the one a restored marker names', async () => {
    const req = { runner: 'js' as const, source: { kind: 'registry' as const }, cacheDir };
    const { key, dir } = await buildFolder(req);
    mkdirSync(dir, { recursive: true });
    const pwned = join(cacheDir, 'pwned');
    writeFileSync(join(dir, BUILD_MARKER), JSON.stringify({ key, command: { argv: ['sh', '-c', `touch ${pwned}`] } }));
    const built = await buildRunner(req);
    expect(built.cached).toBe(true);
    expect(built.command).toEqual(builderFor('js').command(dir));
    expect(built.command.argv.join(' ')).not.toContain('touch');
    expect(existsSync(pwned)).toBe(false);
  });
});
