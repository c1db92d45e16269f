// Tests of the A/B pull-request comment.
import { describe, expect, it } from 'vitest';
import { GITHUB_COMMENT_LIMIT, humanFigure, markerComment, renderAbComment } from '../../src/report/render/ab-comment.js';
import { orderRows, type AbReportInput } from '../../src/report/model/ab.js';
import { countRows, type AbRow, type Verdict } from '../../src/verdict/index.js';
import { wallRow } from '../verdict/ab-rows.js';
import { aggregate } from '../../src/report/model/aggregate.js';
import { benjaminiHochberg } from '../../src/stats/index.js';
import { HOSTILE, realSpec, syntheticResult } from './fixtures.js';

const { spec, hash } = realSpec();

function okRow(caseId: string, ratio: number, p: number, verdict: Verdict, extra: Partial<AbRow> = {}): AbRow {
  return wallRow(caseId, ratio, p, verdict, extra);
}

function input(rows: AbRow[], extra: Partial<AbReportInput> = {}): AbReportInput {
  return {
    title: 'bee-bench: bee-js',
    marker: '<!-- bee-bench:pr-comment:bench.yml:js -->',
    runner: 'js',
    baseLabel: 'main@1a2b3c4',
    headLabel: 'feature/x@5d6e7f8',
    rows,
    alpha: 0.05,
    threshold: 0.05,
    rounds: 10,
    profile: 'quick',
    env: {
      host: { os: 'linux', arch: 'x64', cpu_model: 'AMD EPYC 7763', cpus: 2, mem_mb: 7940, runtime: 'node 20.20.2' },
      clientBase: '12.1.0 (1a2b3c4)',
      clientHead: '12.1.0 (5d6e7f8)',
      specHash: hash,
      wallTimeMs: 312_000,
    },
    ...extra,
  };
}

const ROWS: AbRow[] = [
  okRow('cpu.keccak.chunk-hash', 1.01, 0.6, '~'),
  okRow('cpu.ecdsa.sign', 0.8, 0.002, 'improvement'),
  okRow('cpu.identity.create', 1.12, 0.002, 'regression'),
  {
    caseId: 'net.stamps.list',
    label: '1 call',
    group: 'calibration',
    kind: 'net',
    status: 'skipped',
    note: 'no Bee node given (--bee-url and --batch-id)',
    work: { ops: 1 },
    rounds: 0,

    evidence: {},
  },
  okRow('cpu.bmt.file-root', 1.3, 0.002, 'regression', { work: { bytes: 4194304 } }),
  { caseId: 'cpu.new.case', label: 'quick', group: 'cpu', kind: 'cpu', status: 'new', work: {}, rounds: 10, evidence: {} },
  okRow('cpu.manifest.lookup-large', 0.7, 0.002, 'improvement'),
  okRow('cpu.keccak.bulk', 1.2, 0.07, '~', { note: 'too few rounds to judge (needs ≥ 7)', work: { bytes: 33554432 } }),
  { caseId: 'cpu.gone', label: 'quick', group: 'cpu', kind: 'cpu', status: 'missing', work: {}, rounds: 10, evidence: {} },
  { caseId: 'cpu.broken', label: 'quick', group: 'cpu', kind: 'cpu', status: 'failed', note: 'panic: index out of range', work: {}, rounds: 3, evidence: {} },
];

describe('A/B PR comment', () => {
  it('says how many rounds were paired when rows lost some, instead of claiming all of them', () => {
    const lost = okRow('cpu.identity.create', 1.12, 0.002, 'regression', {
      rounds: 9,
      roundsRun: 10,
      note: '9 of 10 rounds used (round 4: head killed after its budget of 60 s)',
    });
    const md = renderAbComment(input([okRow('cpu.keccak.chunk-hash', 1.01, 0.6, '~'), lost]));
    expect(md).toContain('10 rounds run, 9 to 10 paired per row');
    expect(md).not.toContain('10 paired rounds');
    expect(md).toContain('9 of 10 rounds used (round 4: head killed after its budget of 60 s)');
    expect(renderAbComment(input([okRow('cpu.keccak.chunk-hash', 1.01, 0.6, '~')]))).toContain('10 paired rounds');
    // Counts only: the header names what was counted, not "0 paired rounds" and the time rule.
    const countsOnly = renderAbComment(
      input([], { rounds: 0, env: { ...input([]).env, settings: { instructions: { counter: 'callgrind 3.22.0', threshold: 0.01, ms: 60_000 } } } }),
    );
    const header = countsOnly.split('\n').find((l) => l.startsWith('bee-js: '))!;
    expect(header).toBe(
      'bee-js: base `main@1a2b3c4` → head `feature/x@5d6e7f8` · instructions counted (no wall-time rounds) · profile quick · a row is flagged by its instructions as the lines below say',
    );
    expect(countsOnly).not.toContain('0 paired rounds');
  });

  it("clips a runner's error note to one short line", () => {
    const md = renderAbComment(
      input([
        {
          caseId: 'cpu.broken',
          label: 'quick',
          group: 'cpu',
          kind: 'cpu',
          status: 'failed',
          note: `panic: ${'x'.repeat(5000)}\nat line 2`,
          work: {},
          rounds: 0,

          evidence: {},
        },
      ]),
    );
    const line = md.split('\n').find((l) => l.startsWith('| `cpu.broken`'))!;
    expect(line.length).toBeLessThan(500);
    expect(line).toContain('…');
  });

  it('counts rows for the headline', () => {
    expect(countRows(ROWS)).toEqual({ regressions: 2, improvements: 2, unchanged: 2, skipped: 1, new: 1, failed: 1, missing: 1 });
  });

  it('orders regressions (largest first), improvements (largest first), then the rest in input order', () => {
    expect(orderRows(ROWS).map((r) => r.caseId)).toEqual([
      'cpu.bmt.file-root',
      'cpu.identity.create',
      'cpu.manifest.lookup-large',
      'cpu.ecdsa.sign',
      'cpu.keccak.chunk-hash',
      'net.stamps.list',
      'cpu.new.case',
      'cpu.keccak.bulk',
      'cpu.gone',
      'cpu.broken',
    ]);
  });

  it('renders marker first, headline, table and collapsed sections', () => {
    const md = renderAbComment(input(ROWS, { trendUrl: 'https://example.github.io/bee-js/bench/' }));
    expect(md.startsWith('<!-- bee-bench:pr-comment:bench.yml:js -->\n')).toBe(true);
    expect(md).toContain(
      '🔴 **2** regressions · 🟢 **2** improvements · ⚪ **2** unchanged · ⏭ **1** skipped · 🆕 **1** new · ❌ **1** failed · ❓ **1** missing',
    );
    expect(md).toContain('| case | param | base | head | change | 95% interval | q | verdict |');
    const table = md.split('\n').filter((l) => l.startsWith('| `'));
    expect(table[0]).toContain('`cpu.bmt.file-root`');
    expect(table[0]).toContain('| 30.0% slower | 26.1–33.9% slower | 0.002 | 🔴 regression |');
    // units per row: MB/s with bytes, per-op time with ops
    expect(table[0]).toContain('| 4.19 GB/s | 3.23 GB/s |');
    expect(md).toContain('| `cpu.ecdsa.sign` | quick | 1.00 µs/op | 800 ns/op | 20.0% faster |');
    expect(md).toContain('⚠ too few rounds to judge (needs ≥ 7) |');
    expect(md).not.toContain('⚪ ~ (too few');
    expect(md).toContain(
      '⏭ 1 row skipped: no Bee node given (--bee-url and --batch-id): `net.stamps.list`. To measure them, give a Bee node: action input `bee: dev`',
    );
    expect(table.some((l) => l.includes('net.stamps.list'))).toBe(false);
    expect(md).toContain('❓ missing in head');
    expect(md).toContain('<details><summary>Environment</summary>');
    expect(md).toContain('[Trend charts for bee-js](https://example.github.io/bee-js/bench/)');
    expect(md).toContain('not Swarm-network throughput'); // a net row is present
    expect(md).toContain('| wall time | 5.2 min |');
  });

  it('folds skipped rows out of the table into one line per reason', () => {
    const net = Array.from(
      { length: 17 },
      (_, i): AbRow => ({
        caseId: `net.case${String(i).padStart(2, '0')}`,
        label: i % 2 ? '1 MiB' : '10 KiB',
        group: 'net',
        kind: 'net',
        status: 'skipped',
        note: 'no Bee node given (--bee-url and --batch-id)',
        work: { bytes: 1024 },
        rounds: 0,

        evidence: {},
      }),
    );
    const lacking: AbRow = {
      caseId: 'cpu.soc.sign',
      label: 'quick',
      group: 'cpu',
      kind: 'cpu',
      status: 'skipped',
      note: 'the client has no SOC API',
      work: {},
      rounds: 0,

      evidence: {},
    };
    const measured = Array.from({ length: 10 }, (_, i) => okRow(`cpu.measured${i}`, 1.0, 0.5, '~'));
    const md = renderAbComment(input([...measured, ...net, lacking]));
    const table = md.split('\n').filter((l) => l.startsWith('| `'));
    expect(table).toHaveLength(10);
    const folded = md.split('\n').filter((l) => l.startsWith('⏭ '));
    expect(folded).toEqual([
      '⏭ 17 rows skipped: no Bee node given (--bee-url and --batch-id): `net.case00`, `net.case01`, `net.case02`, `net.case03`, `net.case04`, `net.case05` and 11 more. To measure them, give a Bee node: action input `bee: dev` (or `bee-url` and `batch-id`), CLI `--bee dev`.  ',
      '⏭ 1 row skipped: the client has no SOC API: `cpu.soc.sign`',
    ]);
    expect(md).toContain('⏭ **18** skipped');
  });

  it('escapes user-controlled text and refuses non-http trend links', () => {
    const hostile = HOSTILE.map((h, i) => ({ ...okRow(`cpu.h${i}`, 1, 0.5, '~' as const), caseId: h, label: h, note: h }));
    const md = renderAbComment(
      input(hostile, {
        title: HOSTILE[0]!,
        baseLabel: HOSTILE[3]!,
        headLabel: HOSTILE[1]!,
        trendUrl: 'javascript:alert(1)',
        env: { ...input([]).env, clientBase: HOSTILE[4]!, clientHead: HOSTILE[7]!, host: HOSTILE[6]! },
      }),
    );
    // code spans are inert (no HTML, no mention, no link inside them); check everything else
    const outsideCode = md.replace(/`[^`\n]*`/g, '');
    expect(outsideCode).not.toMatch(/<img|<script|<\/script|\]\(|@org/);
    expect(md).not.toContain('Trend charts');
    expect(() => markerComment('<!-- a --> <img> <!-- b -->')).toThrow();
    expect(markerComment('bee-bench --> x')).toBe('<!-- bee-bench - x -->');
  });

  it('adds cross-client context from an aggregate of the other runners', () => {
    const model = aggregate(
      (['go', 'rs'] as const).map((r) => syntheticResult(r, spec, hash)),
      spec,
    );
    const md = renderAbComment(input([okRow('cpu.identity.create', 1.01, 0.5, '~')]));
    expect(md).not.toContain('Cross-client context');
    const withCross = renderAbComment(input([okRow('cpu.identity.create', 1.01, 0.5, '~')], { crossClient: model }));
    expect(withCross).toContain('<details><summary>Cross-client context</summary>');
    expect(withCross).toMatch(/\| `cpu.identity.create` \| quick \| 1.01 µs\/op \| [0-9.]+ ns\/op \| [0-9.]+ ns\/op \|/);
  });

  it('drops unchanged rows first, with a note, to fit the comment limit', () => {
    const many: AbRow[] = Array.from({ length: 2000 }, (_, i) => okRow(`cpu.case-${String(i).padStart(4, '0')}`, 1.001, 0.8, '~'));
    many.push(okRow('cpu.slow', 1.5, 0.001, 'regression'), okRow('cpu.fast', 0.5, 0.001, 'improvement'));
    const md = renderAbComment(input(many));
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md).toContain('`cpu.slow`');
    expect(md).toContain('`cpu.fast`');
    expect(md).toContain('⚪ **2000** unchanged');
    const omitted = Number(/(\d+) unchanged \(⚪ ~\) rows omitted/.exec(md)![1]);
    const shown = md.split('\n').filter((l) => l.startsWith('| `cpu.case-')).length;
    expect(omitted + shown).toBe(2000);
    expect(shown).toBeGreaterThan(100); // as many as fit, not none
    // a tighter limit cuts further, regressions last
    const tight = renderAbComment(input(many), { maxChars: 3000 });
    expect(tight.length).toBeLessThanOrEqual(3000);
    expect(tight).toContain('`cpu.slow`');
  });

  it('agrees with src/stats on the q values it is given', () => {
    const q = benjaminiHochberg([0.01, 0.04, 0.03]);
    expect(q.every((v) => v >= 0.01)).toBe(true);
    expect(humanFigure(2e6, { bytes: 1e6 })).toBe('500 MB/s');
    expect(humanFigure(2e6, { ops: 1 })).toBe('2.00 ms');
    expect(humanFigure(undefined, {})).toBe('—');
  });
});
