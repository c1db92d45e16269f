// Where bee-bench's own files are: the package root (from src/ under tsx or from the dist/
// bundle alike) and the bundled spec.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bee-bench package root (where runners/ and spec/ live), found by walking up from this
 * module: the same code runs from src/ under tsx and from the dist/ bundle in the action.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'bee-bench') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the bee-bench package root above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

export const defaultSpecPath = () => join(packageRoot(), 'spec', 'bench-spec.json');
