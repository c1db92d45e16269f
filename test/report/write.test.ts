// Tests of writing a run's report files.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aggregate } from '../../src/report/model/aggregate.js';
import type { AggregateModel } from '../../src/report/model/types.js';
import { chartJsSource, writeReports } from '../../src/report/write.js';
import { realSpec, syntheticResult } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'bee-bench-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeReports', () => {
  it('finds the Chart.js 4 UMD build to inline', () => {
    const src = chartJsSource();
    expect(src).toMatch(/Chart\.js v4\./);
  });

  it('writes report.md, report.html (with Chart.js inlined), report.csv and aggregate.json', () => {
    const { spec, hash } = realSpec();
    const model = aggregate(
      (['js', 'go', 'rs'] as const).map((r) => syntheticResult(r, spec, hash)),
      spec,
      { specHash: hash },
    );
    const paths = writeReports(join(dir, 'out'), model);
    expect(readFileSync(paths.markdown, 'utf8')).toContain('## Scoreboard');
    const html = readFileSync(paths.html, 'utf8');
    expect(html).toMatch(/Chart\.js v4\./);
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(readFileSync(paths.csv, 'utf8').split('\r\n')[0]).toMatch(/^runner,client_version,case,/);
    expect(JSON.parse(readFileSync(paths.json, 'utf8')) as AggregateModel).toEqual(JSON.parse(JSON.stringify(model)));
  });
});
