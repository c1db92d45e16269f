// Content identity of a folder, for build cache keys: paths and bytes of every file, skipping the
// folders a build writes (node_modules, target, bin) and VCS metadata.
import { createHash, type Hash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SKIP = new Set(['node_modules', 'target', '.git', 'bin', 'dist-test']);

function walk(root: string, dir: string, h: Hash): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (SKIP.has(e.name)) continue;
    const full = join(dir, e.name);
    if (e.isDirectory()) walk(root, full, h);
    else if (e.isFile()) {
      h.update(relative(root, full)).update('\0').update(readFileSync(full)).update('\0');
    }
  }
}

export function treeHash(root: string): string {
  const h = createHash('sha256');
  walk(root, root, h);
  return h.digest('hex');
}

export function hashParts(parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 16);
}
