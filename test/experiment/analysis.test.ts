// The experiment analysis and its md/csv on synthetic journals whose effects are known: a release
// 1.5x slower at 1 MB and 2x faster at 1 KB without erasure is found there and nowhere else, with
// the right shift in seconds inside its interval; an A/A flags nothing after BH; `compare A B`
// (two runs) agrees with side by side; failures (k failed attempts then ok, never ok), the sync
// ceiling and a torn last line are counted and said; a bad line names its file and line.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyse, type Comparison } from '../../src/experiment/analysis/analyse.js';
import { readJournal } from '../../src/experiment/analysis/read.js';
import { experimentReport } from '../../src/experiment/report/index.js';
import type { Strategy } from '../../src/experiment/schema.js';
import { syntheticRows, writeJournal, type SyntheticOptions } from './synthetic-journal.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'bee-bench-exp-analysis-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const SIZES = [1000, 100_000, 1_000_000];
const base = (size: number) => 0.05 + size / 2e6; // 1 KB 0.0505 s, 100 KB 0.1 s, 1 MB 0.55 s
const factor = (release: string, size: number, level: number) => (release !== '2.8.0' ? 1 : size === 1_000_000 ? 1.5 : size === 1000 && level === 0 ? 0.5 : 1);
const design = (o: Partial<SyntheticOptions> = {}): SyntheticOptions => ({
  sizes: SIZES,
  levels: [0, 2, 4],
  strategies: ['DATA', 'RACE'],
  nodes: [
    { label: 'a', release: '2.7.0' },
    { label: 'b', release: '2.8.0' },
  ],
  replicates: 8,
  noise: 0.05,
  base,
  factor,
  ...o,
});

async function journalOf(o: SyntheticOptions, torn = false) {
  const dir = tmp();
  writeJournal(join(dir, 'journal.jsonl'), syntheticRows(o), torn);
  return dir;
}

const pooledDownloads = (cs: Comparison[]) => cs.filter((c) => c.family === 'download' && c.scope === 'pooled');

describe('side by side: two releases in one run', () => {
  it('finds the known shifts where they are and nowhere else', async () => {
    const a = analyse([await readJournal(await journalOf(design()))]);
    expect(a.mode).toBe('side-by-side');
    expect(a.arms.map((x) => x.label)).toEqual(['2.7.0', '2.8.0']);
    const cells = pooledDownloads(a.comparisons);
    expect(cells.length).toBe(3 * 5); // 3 sizes × (level 0 NONE + levels 2, 4 × DATA, RACE)
    for (const c of cells) {
      const truth = base(c.size) * (factor('2.8.0', c.size, c.level) - 1);
      const expected = truth > 0 ? 'a-faster' : truth < 0 ? 'b-faster' : 'unclear';
      expect(c.direction, `${c.size} ${c.level} ${c.strategy}`).toBe(expected);
      expect(c.a.n).toBe(8);
      if (truth !== 0) {
        expect(c.lo).toBeLessThanOrEqual(truth);
        expect(c.hi).toBeGreaterThanOrEqual(truth);
        expect(Math.abs(c.relative - (factor('2.8.0', c.size, c.level) - 1))).toBeLessThan(0.1);
        expect(c.q).toBeLessThan(0.05);
      }
    }
    // 1 MB: shift 0.275 s; the interval is in seconds, around it.
    const mb = cells.find((c) => c.size === 1_000_000 && c.level === 0)!;
    expect(Math.abs(mb.shift - 0.275)).toBeLessThan(0.05);
    expect(a.summary).toMatch(/^2\.8\.0 against 2\.7\.0 \(measured side by side in one run; bee-js 10\.0\.0 through the js runner\)/);
    expect(a.summary).toContain('2.8.0 is faster in 1 of 15 cells');
    expect(a.summary).toContain('2.8.0 is slower in 5 of 15 cells');
    expect(a.summary).toContain('The largest shift: 1 MB');
  });

  it('without noise the shift is exact and p is the smallest reachable', async () => {
    const a = analyse([await readJournal(await journalOf(design({ noise: 0, replicates: 5 })))]);
    const mb = pooledDownloads(a.comparisons).find((c) => c.size === 1_000_000 && c.level === 2 && c.strategy === 'DATA')!;
    expect(mb.shift).toBeCloseTo(0.275, 12);
    expect(mb.p).toBeCloseTo(2 / 252, 12); // all 5 above all 5: 2 / C(10, 5)
  });

  it('sets RACE against DATA within each release, and uploads by size × level', async () => {
    const slowRace = (r: string, s: number, l: number, st: Strategy) => (st === 'RACE' && s === 1_000_000 ? 2 : 1);
    const a = analyse([await readJournal(await journalOf(design({ factor: slowRace })))]);
    const strat = a.comparisons.filter((c) => c.family === 'strategy');
    expect(strat.length).toBe(2 * 3 * 2); // releases × sizes × levels 2, 4
    for (const c of strat) {
      expect(c.aLabel).toBe('DATA');
      expect(c.bLabel).toBe('RACE');
      expect(c.direction, `${c.arm} ${c.size} ${c.level}`).toBe(c.size === 1_000_000 ? 'a-faster' : 'unclear');
    }
    const ups = a.comparisons.filter((c) => c.family === 'upload' && c.scope === 'pooled');
    expect(ups.map((c) => `${c.size}/${c.level}/${c.strategy}`)).toEqual(SIZES.flatMap((s) => [0, 2, 4].map((l) => `${s}/${l}/any`)));
    expect(ups.every((c) => c.a.n === (c.level === 0 ? 8 : 16))).toBe(true);
  });

  it('compares per server as well as pooled, and says how many replicates a 10 % shift needs', async () => {
    const nodes = [
      { label: 'a1', release: '2.7.0' },
      { label: 'b1', release: '2.8.0' },
      { label: 'a2', release: '2.7.0' },
      { label: 'b2', release: '2.8.0' },
    ];
    const a = analyse([await readJournal(await journalOf(design({ nodes })))]);
    expect(a.arms.map((x) => x.nodes)).toEqual([
      ['a1', 'a2'],
      ['b1', 'b2'],
    ]);
    const scopes = [...new Set(a.comparisons.filter((c) => c.family === 'download').map((c) => c.scope))];
    expect(scopes).toEqual(['pooled', 'server 1', 'server 2']);
    const one = a.comparisons.find((c) => c.family === 'download' && c.scope === 'server 2' && c.size === 1_000_000 && c.level === 0)!;
    expect(one.a.n).toBe(8);
    expect(one.direction).toBe('a-faster');
    // Noise sd 0.05 on the log scale: a 10 % shift is ~2 sd, a few replicates; never NaN with data.
    for (const c of pooledDownloads(a.comparisons)) expect(c.replicatesNeeded).toBeGreaterThan(1);
    for (const c of pooledDownloads(a.comparisons)) expect(c.replicatesNeeded).toBeLessThan(30);
  });
});

describe('A/A and compare A B', () => {
  it('an A/A (one release on two nodes) flags no cell after BH', async () => {
    const a = analyse([
      await readJournal(
        await journalOf(
          design({
            nodes: [
              { label: 'a', release: '2.7.0' },
              { label: 'b', release: '2.7.0' },
            ],
            replicates: 10,
            noise: 0.3,
          }),
        ),
      ),
    ]);
    expect(a.mode).toBe('a/a');
    expect(a.arms.map((x) => x.label)).toEqual(['2.7.0 on a', '2.7.0 on b']);
    expect(a.comparisons.length).toBeGreaterThan(30);
    expect(a.comparisons.filter((c) => c.direction !== 'unclear')).toEqual([]);
    expect(a.summary).toContain('no cell differs after BH correction');
  });

  it('compare A B: two runs of one release each give the side-by-side answer', async () => {
    const both = design();
    const rows = syntheticRows(both);
    const split = (release: string) => {
      const dir = tmp();
      const kept = rows
        .filter((r) => !('release' in r) || r.release === release)
        .filter((r) => r.type !== 'sync' || rows.some((u) => u.type === 'upload' && u.unit === r.unit && u.release === release))
        .map((r) =>
          r.type === 'run'
            ? {
                ...r,
                run_id: `run-${release}`,
                design: { ...r.design, nodes: r.design.nodes.filter((n) => n.release === release) },
                nodes: r.nodes.filter((n) => n.release === release),
              }
            : r,
        );
      writeJournal(join(dir, 'journal.jsonl'), kept);
      return dir;
    };
    const A = split('2.7.0');
    const B = split('2.8.0');
    const apart = analyse([await readJournal(A), await readJournal(B)]);
    const together = analyse([await readJournal(await journalOf(both))]);
    expect(apart.mode).toBe('compare');
    const pick = (x: typeof apart) => pooledDownloads(x.comparisons).map((c) => [c.size, c.level, c.strategy, c.shift, c.p, c.direction]);
    expect(pick(apart)).toEqual(pick(together));
  });
});

describe('one arm', () => {
  it('one release on one node: described, nothing compared, every file still written', async () => {
    const dir = await journalOf(design({ nodes: [{ label: 'a', release: '2.7.0' }], replicates: 3 }));
    const r = await experimentReport({ journals: [dir], out: join(dir, 'report'), charts: false });
    expect(r.analysis.mode).toBe('single');
    expect(r.analysis.comparisons.filter((c) => c.family !== 'strategy')).toEqual([]);
    expect(r.analysis.comparisons.filter((c) => c.family === 'strategy').length).toBe(6);
    expect(r.summary).toMatch(/^One arm \(2\.7\.0\): 45 units, 0 failed downloads; nothing to compare/);
    expect(r.files.length).toBe(5);
  });
});

describe('failures, sync ceilings and the journal file', () => {
  it('counts failed attempts, failed units per cell, and the sync ceiling', async () => {
    const failures = (r: string, s: number, l: number, st: Strategy, rep: number) =>
      r === '2.8.0' && s === 1_000_000 && l === 2 && st === 'DATA' ? (rep === 1 ? 3 : rep === 2 ? 2 : 0) : 0;
    const dir = await journalOf(design({ attempts: 3, failures, ceiling: (r, s, l, rep) => r === '2.7.0' && s === 1000 && rep === 4 }));
    const j = await readJournal(dir);
    const unit2 = j.units.find((u) => u.release === '2.8.0' && u.size === 1_000_000 && u.level === 2 && u.strategy === 'DATA' && u.rep === 2)!;
    expect(unit2).toMatchObject({ attempts: 3, failedAttempts: 2, okAttempt: 3 });
    expect(unit2.downloadMs).toBeLessThan(60_000); // the ok attempt's time, not a failed one's
    const a = analyse([j]);
    expect(a.failures).toEqual([
      expect.objectContaining({ arm: '2.8.0', node: 'b', size: 1_000_000, level: 2, strategy: 'DATA', units: 8, failures: 1, failedAttempts: 5 }),
    ]);
    const cell = pooledDownloads(a.comparisons).find((c) => c.size === 1_000_000 && c.level === 2 && c.strategy === 'DATA')!;
    expect(cell.b).toMatchObject({ n: 7, failures: 1, failedAttempts: 5 });
    expect(a.sync.map((s) => [s.arm, s.ceilingReached])).toEqual([
      ['2.7.0', 5],
      ['2.8.0', 0],
    ]);
    expect(a.summary).toContain('1 download never succeeded (5 failed attempts');
    expect(a.summary).toContain('The sync wait reached its ceiling for 5 uploads');
  });

  it('skips a torn last line and says so; a bad line elsewhere names file and line', async () => {
    const dir = await journalOf(design({ replicates: 2 }), true);
    const j = await readJournal(dir);
    expect(j.notes).toEqual([expect.stringMatching(/journal\.jsonl: its last line is torn \(\d+ bytes without a newline.*left out$/)]);
    appendFileSync(join(dir, 'journal.jsonl'), '\n{"type":"phase","phase":"download","state":"done","at":"x"}\n');
    await expect(readJournal(dir)).rejects.toThrow(/journal\.jsonl:\d+: not JSON/);
    const bad = tmp();
    writeJournal(join(bad, 'journal.jsonl'), [...syntheticRows(design({ replicates: 1 })), { type: 'resume', at: '' }]);
    await expect(readJournal(bad)).rejects.toThrow(/journal\.jsonl:\d+: at: /);
  });
});

describe('experiment-report.md and .csv', () => {
  it('write the summary, the tables and every comparison with its numbers', async () => {
    const failures = (r: string, s: number, l: number, st: Strategy, rep: number) =>
      r === '2.8.0' && s === 1_000_000 && l === 2 && st === 'DATA' && rep === 1 ? 9 : 0;
    const dir = await journalOf(design({ failures, ceiling: (r, s, l, rep) => r === '2.8.0' && s === 1000 && l === 0 && rep === 1 }));
    const out = join(dir, 'report');
    const r = await experimentReport({ journals: [dir], out, charts: false });
    expect(r.files.map((f) => f.slice(out.length + 1))).toEqual([
      'experiment-report.md',
      'experiment-report.csv',
      'experiment-samples.csv',
      'experiment-report.html',
      'experiment-analysis.json',
    ]);
    const md = readFileSync(join(out, 'experiment-report.md'), 'utf8');
    expect(md).toContain('# Bee release experiment: 2.8.0 against 2.7.0');
    expect(md).toContain(r.summary.slice(0, 60));
    for (const h of [
      '## Downloads, pooled over servers',
      '## RACE against DATA within each release',
      '## Uploads by size and level',
      '## Failures',
      '## Sync waits',
    ])
      expect(md).toContain(h);
    expect(md).toMatch(
      /\| 1 MB, level 0 NONE, NONE \| 8 \/ 8 \| 5\d\d ms \| [78]\d\d ms \| \+2\d\d ms \(2\d\d ms to 3\d\d ms\) \| \+\d\d\.\d % \| [\d.e-]+ \| [\d.e-]+ \| 2\.7\.0 faster \| 0 \/ 0 \|/,
    );
    expect(md).toMatch(/\| 2\.8\.0 \| b \| 1 MB \| 2 STRONG \| DATA \| 8 \| 1 \| 3 \| timeout after 60000 ms \|/);
    expect(md).toContain('2.8.0: the wait reached its ceiling for 1 upload(s)');
    const csv = readFileSync(join(out, 'experiment-report.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe(
      'family,scope,arm,size_bytes,level,strategy,a,b,n_a,n_b,median_a_s,median_b_s,shift_s,lo_s,hi_s,conf_level,relative,p,q,direction,failures_a,failures_b,failed_attempts_a,failed_attempts_b,replicates_needed',
    );
    const row = csv.find((l) => l.startsWith('download,pooled,,1000,0,NONE,'))!.split(',');
    expect(row.slice(6, 10)).toEqual(['2.7.0', '2.8.0', '8', '8']);
    expect(Number(row[12])).toBeLessThan(0); // 2.8.0 twice as fast at 1 KB, level 0
    expect(Math.abs(Number(row[16]) + 0.5)).toBeLessThan(0.1);
    expect(row[19]).toBe('2.8.0 faster');
    const failing = csv.find((l) => l.startsWith('download,pooled,,1000000,2,DATA,'))!.split(',');
    expect(failing.slice(20, 24)).toEqual(['0', '1', '0', '3']);
    expect(csv.filter((l) => l.startsWith('strategy,pooled,2.7.0,')).length).toBe(6);
    const samples = readFileSync(join(out, 'experiment-samples.csv'), 'utf8').trim().split('\n');
    expect(samples[0]).toBe('kind,arm,node,server,size_bytes,level,strategy,seconds,z');
    // Every download time (one failed unit has none) and every upload, once.
    expect(samples.filter((l) => l.startsWith('download,')).length).toBe(2 * 15 * 8 - 1);
    expect(samples.filter((l) => l.startsWith('upload,')).length).toBe(2 * 15 * 8);
    const mb = samples.filter((l) => l.startsWith('download,2.8.0,b,1,1000000,0,NONE,')).map((l) => Number(l.split(',')[7]));
    expect(mb.length).toBe(8);
    for (const t of mb) expect(Math.abs(t / 0.825 - 1)).toBeLessThan(0.25); // 1.5 × 0.55 s, noise sd 5 %
  });
});
