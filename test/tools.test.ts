// The README's test command on a fresh machine: `npm test` runs scripts/test-tools.sh first, which
// installs what the tests need as root, and otherwise stops in one line naming the install command.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

describe('scripts/test-tools.sh', () => {
  it("runs first in `npm test`, and .ci/run calls the README's test command and the same script", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['test']!.startsWith('npm run test:tools && ')).toBe(true);
    expect(pkg.scripts['test:tools']).toBe('bash scripts/test-tools.sh');
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^npm test$/m);
    expect(ci).toMatch(/^npm run test:tools$/m);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm ci && npm test ');
  });

  it('without root and without the tools, fails in one line naming the install command', () => {
    const bin = mkdtempSync(join(tmpdir(), 'bee-bench-tools-'));
    // A PATH with no chromium, valgrind, shellcheck or xz, and an `id` that says "not root".
    writeFileSync(join(bin, 'id'), '#!/bin/sh\necho 1000\n');
    chmodSync(join(bin, 'id'), 0o755);
    const bash = execFileSync('sh', ['-c', 'command -v bash'], { encoding: 'utf8' }).trim();
    const r = spawnSync(bash, [join(ROOT, 'scripts', 'test-tools.sh')], { env: { PATH: bin }, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      "test-tools: the tests need chromium valgrind shellcheck xz-utils: install with 'sudo apt-get install -y chromium valgrind shellcheck xz-utils' (or run 'sudo npm run test:tools')",
    ]);
  });
});
