// The CLI's node check end to end: bad arguments exit 2 before anything is written, a dead node
// exits 1 in seconds naming the URL, and neither builds a runner or writes a report.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { BATCH, deadUrl } from './fake-node.js';

async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  try {
    return { code: await main(args), stderr };
  } finally {
    e.mockRestore();
  }
}

describe('bee-bench run against a Bee node', () => {
  it('exits 2 on a malformed --batch-id and writes no report', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'bee-bench-node-')), 'out');
    const r = await cli(['run', '--runner', 'js', '--case', 'net.*', '--bee-url', 'http://127.0.0.1:1633', '--batch-id', 'xyz', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--batch-id xyz: must be 64 hex digits/);
    expect(existsSync(out)).toBe(false);
  });

  it('exits 1 at once when nothing listens at --bee-url, naming it', async () => {
    const url = await deadUrl();
    const out = join(mkdtempSync(join(tmpdir(), 'bee-bench-node-')), 'out');
    const started = Date.now();
    const r = await cli(['run', '--runner', 'js', '--case', 'net.*', '--bee-url', url, '--batch-id', BATCH, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Bee node at ${url}: cannot connect`);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(existsSync(out)).toBe(false);
  });
});
