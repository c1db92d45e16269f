// bee-js runner: a copy of runners/js with its locked dependencies; for a checkout, the client is
// built with its own scripts and linked in place of the registry package, so the runner's import
// of @ethersphere/bee-js resolves to the checkout.
import { cpSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { RunnerBuilder } from './builder.js';
import { step, toolVersion } from './exec.js';

export const JS_CHECKOUT_BUILD = 'npm ci --no-audit --no-fund && npm run build:node';

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
      const linked = join(ctx.dir, 'node_modules', '@ethersphere', 'bee-js');
      rmSync(linked, { recursive: true, force: true });
      symlinkSync(checkout, linked, 'dir');
    }
    return jsBuilder.command(ctx.dir);
  },
  command: (dir) => ({ argv: ['node', join(dir, 'bin', 'bee-bench-js.mjs')] }),
};
