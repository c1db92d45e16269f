// A consumer repository of the published bee-rs crate, as a client's own repo would be: the crate
// source cargo fetched for runners/rs, committed on main, with branches that change it, pushed to a
// bare 'origin'. Commit dates are fixed, so the shas (and the build cache keys) repeat across runs.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './harness.js';

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Octo Cat',
  GIT_AUTHOR_EMAIL: 'octocat@example.com',
  GIT_COMMITTER_NAME: 'Octo Cat',
  GIT_COMMITTER_EMAIL: 'octocat@example.com',
  GIT_AUTHOR_DATE: '2026-11-01T12:00:00Z',
  GIT_COMMITTER_DATE: '2026-11-01T12:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** The bee-rs crate source runners/rs depends on, located through cargo itself. */
export function beeRsCrateDir(): string {
  const manifest = join(ROOT, 'runners', 'rs', 'Cargo.toml');
  execFileSync('cargo', ['fetch', '--locked', '--manifest-path', manifest], { stdio: 'ignore' });
  const meta = JSON.parse(
    execFileSync('cargo', ['metadata', '--format-version', '1', '--locked', '--manifest-path', manifest], { encoding: 'utf8', maxBuffer: 256 << 20 }),
  ) as {
    packages: Array<{ name: string; version: string; manifest_path: string; source: string | null }>;
  };
  const pkg = meta.packages.find((p) => p.name === 'bee-rs' && p.source?.startsWith('registry+'));
  if (!pkg) throw new Error('cargo metadata of runners/rs lists no registry bee-rs');
  return dirname(pkg.manifest_path);
}

/** calculate_chunk_address computes the BMT root twice: chunk hashing gets about 2x slower. */
export function slowDownBmt(repo: string): void {
  const file = join(repo, 'src', 'swarm', 'bmt.rs');
  const text = readFileSync(file, 'utf8');
  const line = '    let root = bmt_root(&padded);\n';
  if (text.split(line).length !== 2) throw new Error(`bmt.rs: expected one "${line.trim()}"`);
  writeFileSync(
    file,
    text.replace(line, `    // Hash every chunk twice.\n    let _ = std::hint::black_box(bmt_root(std::hint::black_box(&padded)));\n${line}`),
  );
}

export interface ClientRepo {
  /** file:// URL of the bare origin. */
  origin: string;
  /** C0: the crate as published, where the branches fork. */
  forkPoint: string;
  /** main's tip: C0 plus a README commit, so base.sha is not the merge base. */
  main: string;
  /** C0 + the BMT slowdown. */
  slow: string;
  /** C0 + a README edit only: no code change. */
  docs: string;
}

export function makeBeeRsRepo(dir: string): ClientRepo {
  const author = join(dir, 'author');
  cpSync(beeRsCrateDir(), author, { recursive: true, filter: (src) => !src.endsWith('.cargo-ok') });
  git(author, 'init', '-q');
  git(author, 'add', '-A');
  git(author, 'commit', '-q', '-m', 'bee-rs 1.7.0 as published on crates.io');
  const forkPoint = git(author, 'rev-parse', 'HEAD');

  git(author, 'checkout', '-q', '-b', 'slow-bmt');
  slowDownBmt(author);
  git(author, 'commit', '-q', '-am', 'Hash each chunk twice');
  const slow = git(author, 'rev-parse', 'HEAD');

  git(author, 'checkout', '-q', '-b', 'docs-only', forkPoint);
  writeFileSync(join(author, 'README.md'), `${readFileSync(join(author, 'README.md'), 'utf8')}\nA note in the docs.\n`);
  git(author, 'commit', '-q', '-am', 'Docs: add a note');
  const docs = git(author, 'rev-parse', 'HEAD');

  git(author, 'checkout', '-q', 'main');
  writeFileSync(join(author, 'CHANGELOG-next.md'), 'Unreleased: nothing yet.\n');
  git(author, 'add', 'CHANGELOG-next.md');
  git(author, 'commit', '-q', '-m', 'Start the next changelog');
  const main = git(author, 'rev-parse', 'HEAD');

  const bare = join(dir, 'origin.git');
  git(dir, 'clone', '-q', '--bare', author, bare);
  return { origin: `file://${bare}`, forkPoint, main, slow, docs };
}

/** What actions/checkout does with fetch-depth 1: a shallow fetch of one commit, detached. */
export function shallowCheckout(origin: string, sha: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', dir);
  git(dir, 'remote', 'add', 'origin', origin);
  git(dir, 'fetch', '-q', '--no-tags', '--depth=1', 'origin', sha);
  git(dir, 'checkout', '-q', '--detach', sha);
  return dir;
}

/**
 * A bee-js checkout for the action: the real published package (from runners/js's locked install)
 * in a git repo whose `build:node` script is `build.cjs`, its dependencies in a folder outside
 * the repo that build.cjs links as node_modules (so worktrees of other commits build too).
 * `edit` changes the files before the first commit.
 */
export function makeBeeJsRepo(dir: string, edit: (checkout: string) => void = () => {}): string {
  const checkout = join(dir, 'bee-js');
  const deps = join(dir, 'bee-js-deps', 'node_modules');
  const modules = join(ROOT, 'runners', 'js', 'node_modules');
  cpSync(join(modules, '@ethersphere', 'bee-js'), checkout, { recursive: true });
  cpSync(modules, deps, { recursive: true, filter: (src) => !src.endsWith(join('@ethersphere', 'bee-js')) });
  const pkgFile = join(checkout, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { scripts?: Record<string, string> };
  pkg.scripts = { 'build:node': 'node build.cjs' };
  writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
  writeFileSync(
    join(checkout, 'build.cjs'),
    `const fs = require('node:fs');\nif (!fs.existsSync('node_modules')) fs.symlinkSync(${JSON.stringify(deps)}, 'node_modules', 'dir');\n`,
  );
  writeFileSync(join(checkout, '.gitignore'), 'node_modules\n');
  edit(checkout);
  git(checkout, 'init', '-q');
  git(checkout, 'add', '-A');
  git(checkout, 'commit', '-q', '-m', 'bee-js as published');
  return checkout;
}
