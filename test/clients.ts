// Which clients the tests build and run, in one place: bee-js and bee-rs from their registries,
// bee-go from the checkout in BEE_GO_PATH (the Go module proxy does not serve every version the
// runner pins, so the tests never depend on it). The summary reporter names the same list at the
// end of `npm test`, with the reason and the fix for a client that was left out.
import { existsSync, statSync } from 'node:fs';
import type { Runner } from '../src/spec/schema.js';

export interface TestClient {
  runner: Runner;
  /** `registry` or a checkout folder (a CLI `--<runner>-client` value). */
  source: string;
}

export interface MissingClient {
  runner: Runner;
  reason: string;
  fix: string;
}

const GO_FIX = 'git clone --branch v1.2.1 https://github.com/ethswarm-tools/bee-go ../bee-go, then BEE_GO_PATH=../bee-go npm test';

/** The bee-go checkout the tests use, or why there is none. */
function goClient(env: NodeJS.ProcessEnv): TestClient | MissingClient {
  const path = env.BEE_GO_PATH;
  if (!path) return { runner: 'go', reason: 'BEE_GO_PATH is not set (the tests build bee-go from a checkout)', fix: GO_FIX };
  if (!existsSync(path) || !statSync(path).isDirectory()) return { runner: 'go', reason: `BEE_GO_PATH=${path} is not a folder`, fix: GO_FIX };
  if (!existsSync(`${path}/go.mod`)) return { runner: 'go', reason: `BEE_GO_PATH=${path} holds no go.mod`, fix: GO_FIX };
  return { runner: 'go', source: path };
}

/** The clients every cross-client test runs, and the ones it cannot, with why. */
export function testClients(env: NodeJS.ProcessEnv = process.env): { tested: TestClient[]; missing: MissingClient[] } {
  const go = goClient(env);
  const tested: TestClient[] = [
    { runner: 'js', source: 'registry' },
    { runner: 'rs', source: 'registry' },
  ];
  if ('source' in go) tested.push(go);
  return { tested, missing: 'source' in go ? [] : [go] };
}

/** The runners of `testClients()` among `among` (a test that only concerns some of them). */
export function clientsAmong(among: readonly Runner[]): TestClient[] {
  return testClients().tested.filter((c) => among.includes(c.runner));
}
