// dist/cli.js is package.json's bin: it must be committed executable, the build must make it so,
// and CI's freshness check (.ci/run) must notice a lost executable bit as well as stale content.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { encoding: 'utf8' });

/** The freshness check exactly as .ci/run runs it (the line after `npm run build`). */
function freshnessCheck(): string[] {
  const line = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
    .split('\n')
    .find((l) => l.includes('diff --exit-code'));
  const args = /if ! git (.*); then/.exec(line ?? '')?.[1]?.split(' ');
  if (!args) throw new Error('.ci/run: no `if ! git ... diff --exit-code ...; then` line');
  return args;
}

describe('dist/cli.js', () => {
  it('is committed with its executable bit', () => {
    expect(git(ROOT, 'ls-files', '--stage', '--', 'dist/cli.js').split(' ')[0]).toBe('100755');
  });

  it('is marked executable by the build', () => {
    const build = readFileSync(join(ROOT, 'scripts', 'build.mjs'), 'utf8');
    expect(build).toMatch(/out: 'dist\/cli\.js'.*mode: 0o755/);
    expect(build).toContain('chmodSync(e.out, e.mode)');
    // After `npm run build` (CI runs it before the tests) or a checkout, the file is executable.
    expect(statSync(join(ROOT, 'dist', 'cli.js')).mode & 0o111).toBe(0o111);
  });

  it("CI's freshness check fails on a lost executable bit even where core.fileMode is off", () => {
    const repo = mkdtempSync(join(tmpdir(), 'bee-bench-dist-'));
    git(repo, 'init', '-q');
    git(repo, 'config', 'core.fileMode', 'false');
    mkdirSync(join(repo, 'dist'));
    copyFileSync(join(ROOT, 'package.json'), join(repo, 'dist', 'cli.js'));
    writeFileSync(join(repo, 'dist', 'index.js'), '');
    git(repo, 'add', '--chmod=+x', 'dist/cli.js');
    git(repo, 'add', 'dist/index.js');
    git(repo, 'commit', '-qm', 'dist');
    chmodSync(join(repo, 'dist', 'cli.js'), 0o755);
    const check = () => execFileSync('git', ['-C', repo, ...freshnessCheck()], { stdio: 'pipe' });
    expect(check).not.toThrow();
    chmodSync(join(repo, 'dist', 'cli.js'), 0o644);
    expect(check).toThrow();
  });
});
