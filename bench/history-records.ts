// Synthetic history records for the history and site benchmarks: real record shapes (validated
// on read), seeded noise, a 10% step every 2,000 runs on every third case (shifts to find).
import { recordPath, type LoadedRecord } from '../src/history/record.js';
import { RECORD_SCHEMA_ID, type HistoryRecord, type RecordCase } from '../src/history/schema.js';
import { RUNNERS } from '../src/spec/schema.js';
import { madRaw, max, median, min } from '../src/stats/index.js';
import { normals, rng } from '../test/stats/random.js';

export interface GenerateOptions {
  runs: number;
  cases: number;
  samples: number;
  /** The branch of run number `run` (runs are one hour apart, oldest first). */
  branchOf: (run: number) => string;
}

/** Records of `runs` runs x 3 runners x `cases` cases, seeded (the same every time). */
export function generateRecords({ runs, cases: CASES, samples: SAMPLES, branchOf }: GenerateOptions): LoadedRecord[] {
  const u = rng(42);
  const z = normals(u);
  const level = { js: 4, go: 1.3, rs: 1 } as const;
  const out: LoadedRecord[] = [];
  const t0 = Date.UTC(2025, 0, 1);
  for (let run = 0; run < runs; run++) {
    const branch = branchOf(run);
    const sha = (run * 2654435761 + 0x1234567).toString(16).padStart(8, '0').slice(-8).repeat(5);
    const commitTime = new Date(t0 + run * 3_600_000).toISOString();
    for (const runner of RUNNERS) {
      const started = new Date(t0 + run * 3_600_000 + 60_000).toISOString();
      const cases: RecordCase[] = [];
      for (let c = 0; c < CASES; c++) {
        // A 10% step every 2,000 runs on a few cases, so shift detection has something to find.
        const step = c % 3 === 0 ? 1 + 0.1 * Math.floor(run / 2000) : 1;
        const ops = runner === 'js' ? 100 : 1000;
        const center = 1e4 * (c + 1) * level[runner] * ops * step;
        const samples = Array.from({ length: SAMPLES }, () => Math.round(center * Math.exp(0.02 * z())));
        cases.push({
          id: `cpu.bench.case-${String(c).padStart(2, '0')}`,
          kind: 'cpu',
          label: 'quick',
          param: { label: 'quick', count: ops },
          status: 'ok',
          n: SAMPLES,
          median_ns: median(samples),
          min_ns: min(samples),
          max_ns: max(samples),
          mad_ns: madRaw(samples),
          samples_ns: samples,
          work: { ops },
          peak_rss_bytes: 100 << 20,
        });
      }
      const record: HistoryRecord = {
        schema: RECORD_SCHEMA_ID,
        commit: { sha, message: `change ${run}\n\ndetails`, author: 'bench', timestamp: commitTime, url: `https://example.com/commit/${sha}` },
        branch,
        event: 'push',
        run: { id: String(5_000_000 + run), url: `https://example.com/runs/${5_000_000 + run}` },
        runner,
        client: { name: `bee-${runner}`, version: '1.0.0', source: 'registry' },
        host: { os: 'linux', arch: 'x64', cpu_model: 'bench cpu', cpus: 2, mem_mb: 7940, runtime: runner },
        bee: null,
        spec: { hash: 'ab'.repeat(32), profile: 'quick' },
        started_at: started,
        finished_at: started,
        cases,
      };
      out.push({ path: recordPath(record), record });
    }
  }
  return out;
}
