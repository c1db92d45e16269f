// Calibration of the allocation verdict (README "Allocations beside time and counts").
//
// Method: one runner build, measured exactly as `bee-bench ab --measure allocations` measures it
// (allocationRun: CPU cases, ALLOC_ITERATIONS timed iterations, BEE_BENCH_ALLOCS=1). We collect a
// pool of P plain processes and S injected ones (the plan's alloc_extra hook, BEE_BENCH_ALLOC:
// inside the region, one more allocation of `fraction` x the bytes the operation allocated),
// two at a time. Processes are independent, so the A/A runs are drawn from the pool: every
// triple (base, base again, head) of distinct plain processes is one A/A run judged with the
// shipped judgeAllocations, and every injected process against every pair of plain ones is one
// injected run. Reported per row: the A/A spread of bytes and of allocation counts (the largest
// the verdict's statistic puts any two plain processes apart), how many injected runs flagged it
// with the median head/base bytes ratio, and whether the row allocates anything in the region
// at all (a row that allocates nothing cannot move under a proportional injection).
//
//   npx tsx bench/alloc-calibrate.ts --runner rs [--source registry|PATH] [--pool 5]
//                                    [--injected 2] [--fraction 0.01] [--case 'cpu.*'] [--out bench/out]
//                                    [--reuse]   (judge the processes a previous run left in --out again,
//                                                 measuring only the ones it lacks)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultSpecPath } from '../src/build/paths.js';
import { ALLOC_ITERATIONS, allocationRun } from '../src/run/alloc-ab.js';
import { processBudgetMs } from '../src/pipeline/options.js';
import { loadSpec } from '../src/spec/load.js';
import { RunnerSchema, type Result } from '../src/spec/schema.js';
import { aaTriples, pairsOf, processPool, twoAtATime } from './lib/process-pool.js';
import { applyHooks, resolvePlan } from '../src/spec/plan.js';
import { aaSpread } from '../src/verdict/instructions.js';
import { ALLOCATION_DEFAULTS, judgeAllocations, type AllocationFigures } from '../src/verdict/allocations.js';

const { values } = parseArgs({
  options: {
    runner: { type: 'string', default: 'rs' },
    source: { type: 'string', default: 'registry' },
    pool: { type: 'string', default: '5' },
    injected: { type: 'string', default: '2' },
    fraction: { type: 'string', default: '0.01' },
    threshold: { type: 'string', default: String(ALLOCATION_DEFAULTS.threshold) },
    case: { type: 'string', multiple: true, default: ['cpu.*'] },
    out: { type: 'string', default: 'bench/out' },
    reuse: { type: 'boolean', default: false },
  },
});

const runner = RunnerSchema.parse(values.runner);
const P = Number(values.pool);
const S = Number(values.injected);
const fraction = Number(values.fraction);
const verdict = { threshold: Number(values.threshold) };
const { spec, hash } = loadSpec(defaultSpecPath());
const plan = resolvePlan({ spec, specHash: hash, runner, profile: 'quick', cases: values.case });
const pool = processPool({ runner, source: values.source, out: values.out, folder: `alloc-calibration-${runner}`, reuse: values.reuse });
const outDir = pool.outDir;

// The injection is a plan hook (the engine resolves BEE_BENCH_ALLOC into alloc_extra).
const one = (name: string, injected: boolean) => {
  const p = injected ? applyHooks(plan, { allocExtra: { glob: 'cpu.*', fraction } }) : plan;
  return pool.process(name, (command, out) => allocationRun(command, { plan: p, out, timeoutMs: processBudgetMs(p) }));
};

const started = performance.now();
const plain = await twoAtATime(Array.from({ length: P }, (_, i) => () => one(`plain-${i}`, false)));
const injected = await twoAtATime(Array.from({ length: S }, (_, i) => () => one(`injected-${i}`, true)));

type Figures = Map<string, AllocationFigures>;
const figuresOf = (r: Result): Figures =>
  new Map(
    r.cases.filter((c) => c.alloc_bytes).map((c) => [`${c.id} ${String(c.param.label)}`, { bytes: c.alloc_bytes!, ...(c.allocs ? { allocs: c.allocs } : {}) }]),
  );
const plainFigures = plain.map(figuresOf);
const injectedFigures = injected.map(figuresOf);
const rows = [...new Set(plainFigures.flatMap((m) => [...m.keys()]))];

const pairs = pairsOf(P);
const median = (xs: readonly number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)] ?? null;
const pct = (x: number) => Math.round(x * 1e6) / 1e4;

const perRow = rows.map((row) => {
  const got = (m: Figures) => m.get(row);
  const spread = (pick: (f: AllocationFigures) => readonly number[] | undefined) =>
    Math.max(
      0,
      ...pairs.map(([a, b]) => {
        const [x, y] = [got(plainFigures[a]!), got(plainFigures[b]!)];
        const [px, py] = [x && pick(x), y && pick(y)];
        // judgeAllocations adds one unit to every figure; the spread is read the same way.
        return px && py
          ? aaSpread(
              px.map((n) => n + 1),
              py.map((n) => n + 1),
            )
          : 0;
      }),
    );
  let flagged = 0;
  let runs = 0;
  const ratios: number[] = [];
  for (const s of injectedFigures) {
    for (const [a, b] of pairs) {
      const [x, y, h] = [got(plainFigures[a]!), got(plainFigures[b]!), got(s)];
      if (!x || !y || !h) continue;
      const v = judgeAllocations(x, y, h, verdict);
      runs++;
      ratios.push(v.bytes.ratio);
      if (v.verdict === 'regression') flagged++;
    }
  }
  const first = got(plainFigures[0]!);
  const bytesPerIteration = first ? median(first.bytes) : null;
  return {
    row,
    bytesPerIteration,
    allocsPerIteration: first?.allocs ? median(first.allocs) : null,
    // Nothing allocated in the region: 1% of nothing is nothing, so no injection can show.
    allocatesNothing: bytesPerIteration === 0,
    bytesSpreadPct: pct(spread((f) => f.bytes)),
    allocsSpreadPct: first?.allocs ? pct(spread((f) => f.allocs)) : null,
    injectedFlagged: flagged,
    injectedRuns: runs,
    injectedMedianBytesRatio: median(ratios),
  };
});

// A/A runs: ordered triples of distinct plain processes (base, base again, head).
const triples = aaTriples(P);
const aaRuns = triples.length;
const aaRunsFlagged = triples.filter(([a, b, h]) =>
  rows.some((row) => {
    const [x, y, z] = [plainFigures[a]!.get(row), plainFigures[b]!.get(row), plainFigures[h]!.get(row)];
    return x && y && z && judgeAllocations(x, y, z, verdict).verdict !== '~';
  }),
).length;

const summary = {
  runner,
  client: values.source,
  counter: plain[0]?.alloc_counter?.method ?? null,
  pool: P,
  injected: S,
  fraction,
  ...verdict,
  iterations: ALLOC_ITERATIONS,
  aaRuns,
  aaRunsFlagged,
  rows: perRow,
  totalMinutes: (performance.now() - started) / 60_000,
};
writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
