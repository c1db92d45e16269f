// Where a runner's client library comes from: its pinned registry version, or a checkout by path
// (the action's case: the PR's base and head). The identity of a checkout is its commit plus any
// uncommitted change, so a dirty tree never reuses a clean build.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { hashParts, treeHash } from './hash.js';
import { childEnv } from '../child/env.js';

export type ClientSource = { kind: 'registry' } | { kind: 'path'; path: string };

export function parseSource(text: string): ClientSource {
  if (text === 'registry') return { kind: 'registry' };
  const path = resolve(text);
  if (!existsSync(path) || !statSync(path).isDirectory()) {
    throw new Error(`client source "${text}" is neither "registry" nor an existing checkout folder`);
  }
  return { kind: 'path', path };
}

function git(dir: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: childEnv(), stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 << 20 }).trim();
  } catch {
    return undefined;
  }
}

export interface SourceIdentity {
  /** Stable text that changes whenever the client code changes. */
  key: string;
  commit?: string;
}

export function sourceIdentity(src: ClientSource): SourceIdentity {
  if (src.kind === 'registry') return { key: 'registry' };
  const commit = git(src.path, ['rev-parse', 'HEAD']);
  if (commit === undefined) return { key: `tree:${treeHash(src.path)}` };
  const dirty = git(src.path, ['status', '--porcelain', '--untracked-files=normal']) ?? '';
  const diff = dirty ? hashParts([dirty, git(src.path, ['diff', 'HEAD']) ?? '']) : '';
  return { key: `git:${commit}${diff ? `+${diff}` : ''}`, commit };
}
