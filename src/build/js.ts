// bee-js runner: a copy of runners/js with its locked dependencies; for a checkout, the client is
// built with its own scripts and linked in place of the registry package, so the runner's import
// of @ethersphere/bee-js resolves to the checkout. The link makes the build depend on where the
// checkout is, not only on what it holds: its real path is part of the cache key.
import { cpSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { RunnerBuilder } from './builder.js';
import { step, toolVersion } from './exec.js';

export const JS_CHECKOUT_BUILD = 'npm ci --no-audit --no-fund && npm run build:node';

/** Where a build folder holds the client the runner imports (a link, for a checkout). */
export const linkedClient = (dir: string) => join(dir, 'node_modules', '@ethersphere', 'bee-js');

/** Whether link resolves to folder (false when either is gone). */
function resolvesTo(link: string, folder: string): boolean {
  try {
    return realpathSync(link) === realpathSync(folder);
  } catch {
    return false;
  }
}

export const jsBuilder: RunnerBuilder = {
  runner: 'js',
  recipe: 1,
  toolchain: () => toolVersion('node', ['--version']),
  async build(ctx) {
    cpSync(join(ctx.root, 'runners', 'js'), ctx.dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
    await step('npm ci (runners/js)', 'npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: ctx.dir, log: ctx.log });
    if (ctx.source.kind === 'path') {
      const checkout = ctx.source.path;
      await step('bee-js checkout build', ctx.buildCommand ?? JS_CHECKOUT_BUILD, [], { cwd: checkout, log: ctx.log, shell: true });
      const linked = linkedClient(ctx.dir);
      rmSync(linked, { recursive: true, force: true });
      symlinkSync(realpathSync(checkout), linked, 'dir');
    }
    return jsBuilder.command(ctx.dir);
  },
  keyParts: (source) => (source.kind === 'path' ? [`linked from ${realpathSync(source.path)}`] : []),
  // A checkout deleted (a bisect worktree, a test's folder) or moved leaves a dangling link.
  stale: (dir, source) =>
    source.kind === 'path' && !resolvesTo(linkedClient(dir), source.path) ? `its link ${linkedClient(dir)} does not resolve to ${source.path}` : undefined,
  command: (dir) => ({ argv: ['node', join(dir, 'bin', 'bee-bench-js.mjs')] }),
};
