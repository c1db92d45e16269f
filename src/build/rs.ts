// bee-rs runner: cargo builds a copy of runners/rs (the committed Cargo.lock is never rewritten);
// a checkout is patched in with --config, so Cargo.toml stays as committed. One target dir is
// shared by every build so the ~150 dependency crates compile once.
import { copyFileSync, cpSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { RunnerBuilder } from './builder.js';
import { step, toolVersion } from './exec.js';

export const rsBuilder: RunnerBuilder = {
  runner: 'rs',
  recipe: 1,
  toolchain: async () => {
    const [rustc, cargo] = await Promise.all([toolVersion('rustc', ['--version']), toolVersion('cargo', ['--version'])]);
    return rustc === 'missing' || cargo === 'missing' ? 'missing' : rustc;
  },
  async build(ctx) {
    cpSync(join(ctx.root, 'runners', 'rs'), ctx.dir, { recursive: true, filter: (src) => !/[/\\]target([/\\]|$)/.test(src) });
    const targetDir = join(ctx.sharedDir, 'target');
    const args = ['build', '--release', '--target-dir', targetDir];
    if (ctx.source.kind === 'path') {
      const patch = ['--config', `patch.crates-io.bee-rs.path=${JSON.stringify(ctx.source.path)}`];
      if (ctx.buildCommand) await step('bee-rs checkout build', ctx.buildCommand, [], { cwd: ctx.source.path, log: ctx.log, shell: true });
      // A checkout whose version moved past the lockfile's needs the lock entry re-resolved.
      await step('cargo update -p bee-rs', 'cargo', ['update', '-p', 'bee-rs', ...patch], { cwd: ctx.dir, log: ctx.log });
      args.push(...patch);
    } else {
      args.push('--locked');
    }
    await step('cargo build (runners/rs)', 'cargo', args, { cwd: ctx.dir, log: ctx.log });
    const binary = join(ctx.dir, 'bee-bench-rs');
    copyFileSync(join(targetDir, 'release', 'bee-bench-rs'), binary);
    return rsBuilder.command(ctx.dir);
  },
  command: (dir) => ({ argv: [join(dir, 'bee-bench-rs')] }),
  // rustc writes a patched checkout's absolute path into the line tables, and profiles read the
  // client's source lines through it (src/profile/source-lines.ts): a build of the same content
  // from another folder would name a folder that may be gone or hold other code.
  keyParts: (source) => (source.kind === 'path' ? [`compiled from ${realpathSync(source.path)}`] : []),
};
