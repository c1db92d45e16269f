// Caching between workflow runs (@actions/cache): per runner, the toolchain's package caches (cargo
// registry, Go module and build caches, npm's cache) and the runner's folders in the bee-bench build
// cache (cargo's shared target dir, built runners). Keyed by toolchain version, lockfiles and the
// runner's source hash, with prefix restore keys so a partial hit still warms the build. Without a
// cache service (ACTIONS_CACHE_URL / ACTIONS_RESULTS_URL unset: a local run, a test) every call is
// a logged no-op. A cache problem is a warning, never a failed step.
import * as cache from '@actions/cache';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { builderFor } from '../build/index.js';
import { treeHash } from '../build/hash.js';
import { packageRoot } from '../build/paths.js';
import type { Runner } from '../spec/schema.js';
import { childEnv } from '../child/env.js';

const LOCKFILES: Record<Runner, string[]> = {
  js: ['package-lock.json'],
  go: ['go.sum', 'go.mod'],
  rs: ['Cargo.lock'],
};

export interface CachePlan {
  runner: Runner;
  key: string;
  restoreKeys: string[];
  paths: string[];
}

export interface CacheState {
  plan: CachePlan;
  /** The key restored, if any (equal to plan.key on an exact hit). */
  matched?: string;
}

function cmdOut(cmd: string, args: string[]): string | undefined {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', env: childEnv(), stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function toolchainPaths(runner: Runner): string[] {
  switch (runner) {
    case 'rs': {
      const home = process.env.CARGO_HOME ?? join(homedir(), '.cargo');
      return [join(home, 'registry', 'index'), join(home, 'registry', 'cache'), join(home, 'git', 'db')];
    }
    case 'go':
      return [cmdOut('go', ['env', 'GOMODCACHE']), cmdOut('go', ['env', 'GOCACHE'])].filter((p): p is string => Boolean(p));
    case 'js':
      return [cmdOut('npm', ['config', 'get', 'cache']) ?? join(homedir(), '.npm')];
  }
}

const short = (parts: readonly string[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 16);
};

/**
 * The cache entry of one runner. `checkouts` are client checkouts built this run (their lockfiles
 * join the key). js keeps only npm's cache: a js runner built on a checkout links to that checkout,
 * which does not exist in a later job.
 */
export async function cachePlan(runner: Runner, cacheDir: string, checkouts: readonly string[]): Promise<CachePlan> {
  const root = packageRoot();
  const toolchain = short([await builderFor(runner).toolchain()]);
  const lockText: string[] = [];
  for (const dir of [join(root, 'runners', runner), ...checkouts]) {
    for (const f of LOCKFILES[runner]) {
      const file = join(dir, f);
      if (existsSync(file)) lockText.push(f, readFileSync(file, 'utf8'));
    }
  }
  const locks = short(lockText);
  const source = treeHash(join(root, 'runners', runner)).slice(0, 16);
  const prefix = `bee-bench-${runner}-${process.platform}-${process.arch}-${toolchain}-`;
  const paths = [...toolchainPaths(runner)];
  if (runner !== 'js') paths.push(join(cacheDir, `${runner}-*`));
  return { runner, key: `${prefix}${locks}-${source}`, restoreKeys: [`${prefix}${locks}-`, prefix], paths };
}

export function cacheServiceAvailable(): boolean {
  return Boolean(process.env.ACTIONS_CACHE_URL || process.env.ACTIONS_RESULTS_URL) && cache.isFeatureAvailable();
}

export async function restoreCaches(plans: readonly CachePlan[], log: (line: string) => void): Promise<CacheState[]> {
  if (!cacheServiceAvailable()) {
    log('cache: no cache service (ACTIONS_CACHE_URL/ACTIONS_RESULTS_URL unset); restore and save are skipped');
    return [];
  }
  const states: CacheState[] = [];
  for (const plan of plans) {
    try {
      const matched = await cache.restoreCache(plan.paths, plan.key, plan.restoreKeys);
      if (matched === plan.key) log(`cache ${plan.runner}: hit ${plan.key}`);
      else if (matched) log(`cache ${plan.runner}: partial hit ${matched} (wanted ${plan.key})`);
      else log(`cache ${plan.runner}: miss ${plan.key}`);
      states.push({ plan, ...(matched ? { matched } : {}) });
    } catch (e) {
      log(`cache ${plan.runner}: restore failed, building cold: ${e instanceof Error ? e.message : String(e)}`);
      states.push({ plan });
    }
  }
  return states;
}

export async function saveCaches(states: readonly CacheState[], log: (line: string) => void): Promise<void> {
  for (const { plan, matched } of states) {
    if (matched === plan.key) {
      log(`cache ${plan.runner}: exact hit, not saved again`);
      continue;
    }
    try {
      for (const p of plan.paths) if (!p.includes('*')) mkdirSync(p, { recursive: true });
      await cache.saveCache(plan.paths, plan.key);
      log(`cache ${plan.runner}: saved ${plan.key}`);
    } catch (e) {
      // ReserveCacheError: a concurrent job saved the same key first; anything else is a warning.
      log(`cache ${plan.runner}: not saved: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
