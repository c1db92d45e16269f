// The CLI's node check end to end: bad arguments exit 2 before anything is written, a dead node
// exits 1 in seconds naming the URL, and neither builds a runner or writes a report; a run in
// which a case failed exits 1 and its report says how many failed and why above the tables.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { BATCH, deadUrl, storingNode } from './fake-node.js';

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

  it('exits 1 when a case failed, and the report lists the failure above the tables', async () => {
    const node = await storingNode({ corrupt: true });
    try {
      const out = join(mkdtempSync(join(tmpdir(), 'bee-bench-node-')), 'out');
      process.env.BEE_BENCH_ITERS = '1';
      const r = await cli(['run', '--runner', 'js', '--case', 'net.bzz.download', '--bee-url', node.url, '--batch-id', BATCH, '--out', out]);
      expect(r.code, r.stderr).toBe(1);
      // The plain download and its erasure variant (level 2, RACE) both meet the altered bytes.
      expect(r.stderr).toMatch(/2 cases failed:\n {2}bee-js net\.bzz\.download \(1 MiB\): content mismatch on GET \/bzz/);
      const md = readFileSync(join(out, 'report.md'), 'utf8');
      const summary = md.indexOf('❌ **2 cases failed**');
      expect(summary).toBeGreaterThan(-1);
      expect(summary).toBeLessThan(md.indexOf('## Runners'));
      expect(md.slice(summary, md.indexOf('## Runners'))).toContain('content mismatch on GET /bzz');
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('2 cases failed');
    } finally {
      delete process.env.BEE_BENCH_ITERS;
      await node.close();
    }
  }, 180_000);
});
