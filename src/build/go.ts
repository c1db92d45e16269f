// bee-go runner: go builds a copy of runners/go; a checkout is wired in with a replace in the
// copy's go.mod, the client identity is stamped with -ldflags (runners/go/README.md), and
// per-map hash seeds are off (go-map-seed.ts).
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunnerBuilder } from './builder.js';
import { BuildError, step, toolVersion } from './exec.js';
import { packageRoot } from './paths.js';
import { mapSeedOverlay } from './go-map-seed.js';
import { childEnv } from '../child/env.js';

const MODULE = 'github.com/ethswarm-tools/bee-go';

/** The bee-go version a runners/go go.mod requires. */
export function pinnedGoClient(goModFile: string): string {
  const version = /github\.com\/ethswarm-tools\/bee-go\s+(v\S+)/.exec(readFileSync(goModFile, 'utf8'))?.[1];
  if (!version) throw new BuildError(`${goModFile}: no requirement on ${MODULE} (fix: restore the require line)`);
  return version;
}

/** The command that fetches the pinned bee-go as a checkout (for --go-client PATH or BEE_GO_PATH). */
export function goCloneCommand(goModFile = join(packageRoot(), 'runners', 'go', 'go.mod')): string {
  return `git clone --branch ${pinnedGoClient(goModFile)} https://${MODULE}`;
}

/**
 * Asks the Go module proxy (GOPROXY and the rest of go's own settings) for the pinned bee-go, as a
 * registry build would. Undefined when it is served (it is then in the module cache for the build);
 * otherwise go's own error, on one line.
 */
export function goProxyProblem(goModFile = join(packageRoot(), 'runners', 'go', 'go.mod')): Promise<string | undefined> {
  const target = `${MODULE}@${pinnedGoClient(goModFile)}`;
  // Outside any module, so no go.mod or go.sum of ours is read or touched.
  const cwd = mkdtempSync(join(tmpdir(), 'bee-bench-goproxy-'));
  return new Promise((resolve) => {
    execFile('go', ['mod', 'download', '-json', target], { cwd, encoding: 'utf8', env: childEnv() }, (err, stdout, stderr) => {
      rmSync(cwd, { recursive: true, force: true });
      let reported: string | undefined;
      try {
        reported = (JSON.parse(stdout) as { Error?: string }).Error;
      } catch {
        // No JSON: go itself did not run (missing toolchain, bad GOFLAGS); stderr or err says why.
      }
      const problem = reported ?? (err ? stderr.trim() || err.message : undefined);
      resolve(problem?.replace(/\s*\n\s*/g, '; '));
    });
  });
}

function gitOut(dir: string, args: string[]): string {
  try {
    return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: childEnv(), stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export const goBuilder: RunnerBuilder = {
  runner: 'go',
  // 2: per-map hash seeds off (go-map-seed.ts).
  recipe: 2,
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
      ldflags = `-X main.clientVersion=${pinnedGoClient(join(ctx.dir, 'go.mod'))} -X main.clientSource=registry`;
    }
    const binary = join(ctx.dir, 'bee-bench-go');
    // A dot folder: go's package patterns never look inside it.
    const seeds = mapSeedOverlay(join(ctx.dir, '.map-seed-overlay'));
    if (seeds.overlay === null) ctx.log(`bee-go runner: per-map hash seeds stay on, so counts of map-heavy cases move between processes (${seeds.reason})`);
    const overlay = seeds.overlay === null ? [] : ['-overlay', seeds.overlay];
    // -mod=mod: a registry build adds bee-go's go.sum lines, a checkout may change requirements.
    await step('go build (runners/go)', 'go', ['build', '-mod=mod', '-trimpath', ...overlay, '-ldflags', ldflags, '-o', binary, '.'], {
      cwd: ctx.dir,
      log: ctx.log,
    });
    return goBuilder.command(ctx.dir);
  },
  command: (dir) => ({ argv: [join(dir, 'bee-bench-go')] }),
};
