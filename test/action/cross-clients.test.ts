// compare-clients' runners: bee-go from go-client-path, else through the Go module proxy (the
// probe `bee-bench run` uses), else left out in one line with the proxy's error.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionInputs } from '../../src/action/inputs.js';
import { crossClientRunners } from '../../src/action/flow-steps.js';
import { cleanModuleCaches, fakeBeeGo, fileProxy, MODULE, tmp } from '../build/go-proxy-fixture.js';

const caches: string[] = [];
/** A fresh module cache, so nothing downloaded before can answer for the proxy. */
const moduleCache = () => {
  caches.push(tmp('gomodcache'));
  return caches.at(-1)!;
};
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  cleanModuleCaches(caches);
});

const inputs = (extra: Partial<ActionInputs> = {}) => ({ compareClients: true, ...extra }) as ActionInputs;

/** What crossClientRunners returned and every line it wrote to the log (stdout, as core.info does). */
async function probe(i: ActionInputs, client: 'js' | 'go' | 'rs') {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(...String(chunk).split('\n').filter(Boolean)), true));
  const runners = await crossClientRunners(i, client);
  vi.restoreAllMocks();
  return { runners, lines };
}

describe('crossClientRunners', () => {
  it('asks the Go module proxy for bee-go; when it does not serve it, one line with its error and the fix', async () => {
    vi.stubEnv('GOPROXY', 'http://127.0.0.1:1');
    vi.stubEnv('GOMODCACHE', moduleCache());
    const { runners, lines } = await probe(inputs(), 'rs');
    expect(runners).toEqual([{ runner: 'js', source: { kind: 'registry' } }]);
    expect(lines).toEqual([
      expect.stringMatching(
        /^compare-clients: bee-go skipped: github\.com\/ethswarm-tools\/bee-go@v\S+: Get "http:\/\/127\.0\.0\.1:1\/.*connection refused \(fix: set go-client-path to a bee-go checkout\)$/,
      ),
    ]);
  });

  it('builds bee-go from the registry when the proxy serves its pinned version', async () => {
    vi.stubEnv('GOPROXY', fileProxy(fakeBeeGo()));
    vi.stubEnv('GOMODCACHE', moduleCache());
    vi.stubEnv('GONOSUMDB', MODULE);
    const { runners, lines } = await probe(inputs(), 'js');
    expect(runners).toEqual([
      { runner: 'go', source: { kind: 'registry' } },
      { runner: 'rs', source: { kind: 'registry' } },
    ]);
    expect(lines).toEqual([]);
  });

  it('takes bee-go from go-client-path without asking the proxy, and nothing when compare-clients is off', async () => {
    vi.stubEnv('GOPROXY', 'off');
    const { runners, lines } = await probe(inputs({ goClientPath: 'checkouts/bee-go' }), 'js');
    expect(runners).toEqual([
      { runner: 'go', source: { kind: 'path', path: 'checkouts/bee-go' } },
      { runner: 'rs', source: { kind: 'registry' } },
    ]);
    expect(lines).toEqual([]);
    expect(await crossClientRunners(inputs({ compareClients: false }), 'js')).toEqual([]);
  });
});
