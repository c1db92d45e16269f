// Local Go module proxies for tests: bee-go's pinned version laid out as a GOPROXY file tree by
// test/build/gomodproxy (Go's own archive/zip), from a bee-go checkout or a tiny stand-in module.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinnedGoClient } from '../../src/build/go.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const MODULE = 'github.com/ethswarm-tools/bee-go';
export const VERSION = pinnedGoClient(join(ROOT, 'runners', 'go', 'go.mod'));
export const tmp = (what: string) => mkdtempSync(join(tmpdir(), `bee-bench-${what}-`));

/** Lays out MODULE@VERSION from `dir` as a GOPROXY file tree; returns its file:// URL. */
export function fileProxy(dir: string): string {
  const out = tmp('goproxy');
  execFileSync('go', ['run', '.', '-module', MODULE, '-version', VERSION, '-dir', dir, '-out', out], {
    cwd: join(import.meta.dirname, 'gomodproxy'),
    stdio: 'pipe',
  });
  return `file://${out}`;
}

/** A stand-in module at bee-go's path: enough for the proxy check, not for a build. */
export function fakeBeeGo(): string {
  const fake = tmp('fake-bee-go');
  writeFileSync(join(fake, 'go.mod'), `module ${MODULE}\n\ngo 1.22\n`);
  writeFileSync(join(fake, 'bee.go'), 'package bee\n\nconst Fake = true\n');
  return fake;
}

/** Removes module caches the way Go allows (it leaves them read-only). */
export function cleanModuleCaches(dirs: string[]): void {
  for (const dir of dirs.splice(0)) execFileSync('go', ['clean', '-modcache'], { env: { ...process.env, GOMODCACHE: dir } });
}
