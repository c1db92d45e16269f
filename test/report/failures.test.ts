// The PR comment says how many cases failed and why before its table.
import { describe, expect, it } from 'vitest';
import { renderAbComment } from '../../src/report/render/ab-comment.js';
import type { AbRow } from '../../src/verdict/index.js';
import { failureSummary } from '../../src/report/render/failure-summary.js';
import { realSpec } from './fixtures.js';

const { hash } = realSpec();
const failed = (caseId: string, note: string): AbRow => ({
  caseId,
  label: '1 MiB',
  group: 'net-download',
  kind: 'net',
  status: 'failed',
  note,
  work: { bytes: 1 << 20 },
  rounds: 2,

  evidence: {},
});

describe('failure summary', () => {
  it('is absent when nothing failed', () => {
    expect(failureSummary([])).toBeNull();
  });

  it('counts and lists the failures above the A/B table', () => {
    const md = renderAbComment({
      title: 'bee-bench: bee-js',
      marker: '<!-- m -->',
      runner: 'js',
      baseLabel: 'main',
      headLabel: 'pr',
      rows: [failed('net.bzz.download', 'content mismatch on GET /bzz: got 1048584 bytes'), failed('net.stamps.list', 'no answer in 60 s to /stamps')],
      alpha: 0.02,
      threshold: 0.02,
      rounds: 2,
      profile: 'quick',
      env: { host: 'h', clientBase: 'b', clientHead: 'h', specHash: hash, wallTimeMs: 1000 },
    });
    const at = md.indexOf('❌ **2 cases failed**');
    expect(at).toBeGreaterThan(-1);
    expect(at).toBeLessThan(md.indexOf('| case |'));
    expect(md.slice(at, md.indexOf('| case |'))).toMatch(
      /`net\.bzz\.download` 1 MiB: content mismatch on GET \/bzz[\s\S]*`net\.stamps\.list` 1 MiB: no answer in 60 s to \/stamps/,
    );
  });

  it('lists ten and counts the rest', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ caseId: `net.c${i}`, label: 'x', reason: 'r' }));
    const text = failureSummary(many)!;
    expect(text).toContain('12 cases failed');
    expect(text.match(/^> - `net/gm)).toHaveLength(10);
    expect(text).toContain('and 2 more');
  });
});
