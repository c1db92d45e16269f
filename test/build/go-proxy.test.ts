// bee-go from the registry comes through the Go module proxy, like bee-js from npm and bee-rs from
// crates.io: `run` without --go-client asks the proxy for the pinned version and skips bee-go, with
// the proxy's own error and the fix on one line, only when that fails. The proxies here are local:
// an unreachable loopback port, an empty file:// folder, and file:// folders laid out by
// test/build/gomodproxy (Go's own archive/zip) from a tiny module or from a bee-go checkout.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { goProxyProblem } from '../../src/build/go.js';
import { cleanModuleCaches, fakeBeeGo, fileProxy, MODULE, tmp, VERSION } from './go-proxy-fixture.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A fresh module cache, so nothing downloaded before (or by another test) can answer for the proxy. */
function moduleCache(): string {
  const dir = tmp('gomodcache');
  caches.push(dir);
  return dir;
}
const caches: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  cleanModuleCaches(caches);
});

/** The CLI as a user runs it: its own process, its stderr as written. */
async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.BEE_GO_PATH;
  try {
    const { stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), ...args], {
      cwd: ROOT,
      env: childEnv,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    return { code: 0, stderr };
  } catch (e) {
    const err = e as { code?: number; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stderr: err.stderr ?? '' };
  }
}

const goLines = (stderr: string) => stderr.split('\n').filter((l) => /^(go:|\[go\])/.test(l));

describe('bee-go through the Go module proxy', () => {
  it('an unreachable proxy: run skips bee-go in one line quoting the proxy error and naming the fix', async () => {
    const out = tmp('goproxy-out');
    const r = await runCli(['run', '--runner', 'go', '--case', 'cpu.harness.noop', '--out', out, '--cache', join(out, 'cache')], {
      GOPROXY: 'http://127.0.0.1:1',
      GOMODCACHE: moduleCache(),
    });
    expect(goLines(r.stderr)).toEqual([
      `go: skipped: ${MODULE}@${VERSION}: Get "http://127.0.0.1:1/${MODULE}/@v/${VERSION}.info": dial tcp 127.0.0.1:1: connect: connection refused (fix: give a bee-go checkout with --go-client PATH or BEE_GO_PATH (git clone --branch ${VERSION} https://${MODULE}); the report says so too)`,
    ]);
    // Nothing was built or run for bee-go.
    expect(existsSync(join(out, 'results', 'go.json'))).toBe(false);
  });

  it("a proxy without the module: the check returns go's own error, on one line", async () => {
    vi.stubEnv('GOPROXY', `file://${tmp('goproxy-empty')}`);
    vi.stubEnv('GOMODCACHE', moduleCache());
    const problem = await goProxyProblem();
    expect(problem).toMatch(new RegExp(`^${MODULE}@${VERSION}: reading file://.*/@v/${VERSION}\\.info: no such file or directory$`));
  });

  it('a proxy that serves the pinned version: the check passes and leaves the module in the module cache', async () => {
    const cache = moduleCache();
    vi.stubEnv('GOPROXY', fileProxy(fakeBeeGo()));
    vi.stubEnv('GOMODCACHE', cache);
    vi.stubEnv('GONOSUMDB', MODULE);
    expect(await goProxyProblem()).toBeUndefined();
    expect(readFileSync(join(cache, `${MODULE}@${VERSION}`, 'bee.go'), 'utf8')).toContain('Fake');
  });

  // The end-to-end success path needs bee-go's real source, which this repository does not ship.
  it.skipIf(!process.env.BEE_GO_PATH)(
    'with bee-go served by the proxy, run builds and runs bee-go from the registry (needs BEE_GO_PATH = a bee-go checkout at the pinned version)',
    async () => {
      const out = tmp('goproxy-out');
      mkdirSync(join(out, 'cache'));
      // bee-go from the local proxy; its dependencies from the module cache already on disk, then the
      // proxies go is configured with (never "direct").
      const upstream = execFileSync('go', ['env', 'GOPROXY', 'GOMODCACHE'], { encoding: 'utf8' }).trim().split('\n');
      const proxies = [
        fileProxy(process.env.BEE_GO_PATH!),
        `file://${upstream[1]}/cache/download`,
        ...upstream[0]!.split(/[,|]/).filter((p) => p !== 'direct' && p !== 'off'),
      ];
      const r = await runCli(['run', '--runner', 'go', '--case', 'cpu.harness.noop', '--out', out, '--cache', join(out, 'cache')], {
        GOPROXY: proxies.join(','),
        GOMODCACHE: moduleCache(),
        GONOSUMDB: MODULE,
        BEE_BENCH_ITERS: '3',
      });
      expect(goLines(r.stderr).filter((l) => l.startsWith('go: skipped'))).toEqual([]);
      expect(r.code).toBe(0);
      const result = JSON.parse(readFileSync(join(out, 'results', 'go.json'), 'utf8')) as { client: { name: string; version: string; source: string } };
      expect(result.client).toMatchObject({ name: MODULE, version: VERSION, source: 'registry' });
    },
    600_000,
  );
});
