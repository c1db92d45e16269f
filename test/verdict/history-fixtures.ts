// Results and history records with known medians, for the judges that read a branch's history
// (the PR history baseline and the default-branch alerts).
import { toRecord } from '../../src/history/record.js';
import type { HistoryRecord } from '../../src/history/schema.js';
import { ResultSchema, type CaseResult, type Result } from '../../src/spec/schema.js';

/** Deterministic jitter around m: ±2%. */
const around = (m: number, n: number, seed: number) => Array.from({ length: n }, (_, i) => Math.round(m * (1 + 0.02 * Math.sin(seed * 7.1 + i * 2.3))));

/** Samples of one case from its median: by default 7 around it. */
export type Samples = (median: number) => number[];

/** An rs result with one 'quick' row per case id, 7 samples around the given median (ns) unless `samples` says otherwise. */
export function run(medians: Record<string, number>, seed: number, started: string, samples: Samples = (m) => around(m, 7, seed)): Result {
  const cases: CaseResult[] = Object.entries(medians).map(([id, m]) => ({
    id,
    kind: 'cpu',
    param: { label: 'quick', count: 10 },
    status: 'ok',
    warmup: 1,
    samples_ns: samples(m),
    cpu_ns: samples(m),
    peak_rss_bytes: 1 << 20,
    work: { ops: 10 },
  }));
  return ResultSchema.parse({
    schema: 'bee-bench/result@1',
    runner: 'rs',
    client: { name: 'bee-rs', version: '1.7.0', source: 'registry' },
    bee: null,
    spec: { hash: 'ab'.repeat(32), profile: 'quick' },
    host: { os: 'linux', arch: 'x86_64', cpu_model: 'x', cpus: 2, mem_mb: 1024, runtime: 'rustc' },
    started_at: started,
    finished_at: started,
    cases,
  });
}

/** `count` runs on main, one a day from 2026-11-10, commit i's sha is the digit i forty times. */
export function branchHistory(medians: Record<string, number>, count = 8, branch = 'main', samples?: Samples): HistoryRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const ts = `2026-11-${String(10 + i).padStart(2, '0')}T10:00:00Z`;
    return toRecord(run(medians, i + 1, ts, samples), {
      commit: { sha: `${i}`.repeat(40), message: `commit ${i}`, author: 'a', timestamp: ts },
      branch,
      event: 'push',
      run: { id: String(i), url: `https://github.com/o/r/actions/runs/${i}` },
    });
  });
}
