// The clients `npm test` covers, and its closing lines: a run without bee-go names it, why and the fix.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testClients } from './clients.js';
import { clientLines } from './summary-reporter.js';

describe('the clients the tests cover', () => {
  it('without BEE_GO_PATH: js and rs, and bee-go named as not tested with the fix', () => {
    const clients = testClients({});
    expect(clients.tested.map((c) => c.runner)).toEqual(['js', 'rs']);
    expect(clientLines(clients)).toEqual([
      'clients tested: bee-js (registry release), bee-rs (registry release)',
      '!!! bee-go NOT TESTED: BEE_GO_PATH is not set (the tests build bee-go from a checkout). Fix: git clone --branch v1.2.1 https://github.com/ethswarm-tools/bee-go ../bee-go, then BEE_GO_PATH=../bee-go npm test',
    ]);
  });

  it('with BEE_GO_PATH at a Go module: all three; a folder without go.mod is not a checkout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-clients-'));
    expect(testClients({ BEE_GO_PATH: dir }).missing[0]?.reason).toBe(`BEE_GO_PATH=${dir} holds no go.mod`);
    expect(testClients({ BEE_GO_PATH: join(dir, 'nope') }).missing[0]?.reason).toBe(`BEE_GO_PATH=${join(dir, 'nope')} is not a folder`);
    writeFileSync(join(dir, 'go.mod'), 'module github.com/ethswarm-tools/bee-go\n');
    const clients = testClients({ BEE_GO_PATH: dir });
    expect(clients.missing).toEqual([]);
    expect(clientLines(clients)).toEqual([`clients tested: bee-js (registry release), bee-rs (registry release), bee-go (checkout ${dir})`]);
  });
});
