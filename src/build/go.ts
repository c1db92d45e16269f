// bee-go runner: go builds a copy of runners/go; a checkout is wired in with a replace in the
// copy's go.mod, and the client identity is stamped with -ldflags (runners/go/README.md).
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunnerBuilder } from './builder.js';
import { step, toolVersion } from './exec.js';
import { childEnv } from '../child/env.js';

const MODULE = 'github.com/ethswarm-tools/bee-go';

function gitOut(dir: string, args: string[]): string {
  try {
    return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: childEnv(), stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export const goBuilder: RunnerBuilder = {
  runner: 'go',
  toolchain: () => toolVersion('go', ['version']),
  async build(ctx) {
    cpSync(join(ctx.root, 'runners', 'go'), ctx.dir, { recursive: true, filter: (src) => !/[/\\]bin([/\\]|$)/.test(src) });
    let ldflags: string;
    if (ctx.source.kind === 'path') {
      const checkout = ctx.source.path;
      if (ctx.buildCommand) await step('bee-go checkout build', ctx.buildCommand, [], { cwd: checkout, log: ctx.log, shell: true });
      await step('go mod edit -replace', 'go', ['mod', 'edit', `-replace=${MODULE}=${checkout}`], { cwd: ctx.dir, log: ctx.log });
      const version = gitOut(checkout, ['describe', '--tags', '--always', '--dirty']) || 'unknown';
      const commit = gitOut(checkout, ['rev-parse', 'HEAD']);
      ldflags = `-X main.clientVersion=${version} -X main.clientSource=path${commit ? ` -X main.clientCommit=${commit}` : ''}`;
    } else {
      const required = /github\.com\/ethswarm-tools\/bee-go\s+(v\S+)/.exec(readFileSync(join(ctx.dir, 'go.mod'), 'utf8'))?.[1] ?? 'unknown';
      ldflags = `-X main.clientVersion=${required} -X main.clientSource=registry`;
    }
    const binary = join(ctx.dir, 'bee-bench-go');
    // -mod=mod: a registry build adds bee-go's go.sum lines, a checkout may change requirements.
    await step('go build (runners/go)', 'go', ['build', '-mod=mod', '-trimpath', '-ldflags', ldflags, '-o', binary, '.'], { cwd: ctx.dir, log: ctx.log });
    return { argv: [binary] };
  },
};
