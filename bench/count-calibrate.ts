// Calibration of the instruction-count verdict (README "Instruction counts").
//
// Method: one runner build, counted under callgrind exactly as `bee-bench ab --measure
// instructions` counts it (countRunner: CPU cases, COUNT_ITERATIONS timed iterations, timed
// region only). We collect a pool of P plain processes and S processes with BEE_BENCH_SLOWDOWN
// (head only, every CPU case), two at a time. Processes are independent, so the A/A runs are
// drawn from the pool: every triple (base, base again, head) of distinct plain processes is one
// A/A run judged with the shipped verdict, and every slowed process against every pair of plain
// ones is one injected run. Reported: each row's A/A spread (the largest the verdict's
// statistic puts any two plain processes apart), A/A runs with any flag, and per row how many injected runs
// flagged it, with the measured ratio.
//
//   npx tsx bench/count-calibrate.ts --runner rs [--source registry|PATH] [--pool 6]
//                                    [--slowed 2] [--fraction 0.01] [--case 'cpu.*'] [--out bench/out]
//                                    [--reuse]   (judge the processes a previous run left in --out again,
//                                                 counting only the ones it lacks)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultSpecPath } from '../src/build/paths.js';
import { findCounter } from '../src/count/callgrind.js';
import { COUNT_ITERATIONS, countRunner, isCounted } from '../src/run/count.js';
import { processBudgetMs } from '../src/pipeline/options.js';
import { loadSpec } from '../src/spec/load.js';
import { RunnerSchema, type Result } from '../src/spec/schema.js';
import { aaTriples, pairsOf, processPool, twoAtATime } from './lib/process-pool.js';
import { planOf, resolvePlan } from '../src/spec/plan.js';
import { INSTRUCTION_DEFAULTS, judgeInstructions, aaSpread } from '../src/verdict/instructions.js';

const { values } = parseArgs({
  options: {
    runner: { type: 'string', default: 'rs' },
    source: { type: 'string', default: 'registry' },
    pool: { type: 'string', default: '6' },
    slowed: { type: 'string', default: '2' },
    fraction: { type: 'string', default: '0.01' },
    threshold: { type: 'string', default: String(INSTRUCTION_DEFAULTS.threshold) },
    case: { type: 'string', multiple: true, default: ['cpu.*'] },
    out: { type: 'string', default: 'bench/out' },
    reuse: { type: 'boolean', default: false },
  },
});

const runner = RunnerSchema.parse(values.runner);
const P = Number(values.pool);
const S = Number(values.slowed);
const fraction = Number(values.fraction);
const verdict = { threshold: Number(values.threshold) };
const specFile = defaultSpecPath();
const { spec, hash } = loadSpec(specFile);
const plan = planOf(resolvePlan({ spec, specHash: hash, runner, profile: 'quick', cases: values.case }), isCounted);
const pool = processPool({ runner, source: values.source, out: values.out, folder: `count-calibration-${runner}`, reuse: values.reuse });
const outDir = pool.outDir;

const found = await findCounter();
if (!found.counter) throw new Error(found.reason);
const counter = found.counter;

const one = (name: string, env: Record<string, string>) =>
  pool.process(name, (command, out) => countRunner(command, { runner, plan, counter, out, timeoutMs: processBudgetMs(plan), env }));

const started = performance.now();
const plain = await twoAtATime(Array.from({ length: P }, (_, i) => () => one(`plain-${i}`, {})));
const slowed = await twoAtATime(Array.from({ length: S }, (_, i) => () => one(`slowed-${i}`, { BEE_BENCH_SLOWDOWN: `cpu.*:${fraction}` })));

type Counts = Map<string, number[]>;
const countsOf = (r: Result): Counts => new Map(r.cases.filter((c) => c.instructions).map((c) => [`${c.id} ${String(c.param.label)}`, c.instructions!]));
const plainCounts = plain.map(countsOf);
const slowedCounts = slowed.map(countsOf);
const rows = [...new Set(plainCounts.flatMap((m) => [...m.keys()]))];

const pairs = pairsOf(P);
const perRow = rows.map((row) => {
  const got = (m: Counts) => m.get(row);
  const spread = Math.max(
    0,
    ...pairs.map(([a, b]) => (got(plainCounts[a]!) && got(plainCounts[b]!) ? aaSpread(got(plainCounts[a]!)!, got(plainCounts[b]!)!) : 0)),
  );
  let slowFlagged = 0;
  let slowRuns = 0;
  const slowRatios: number[] = [];
  for (const s of slowedCounts) {
    for (const [a, b] of pairs) {
      const [x, y, h] = [got(plainCounts[a]!), got(plainCounts[b]!), got(s)];
      if (!x || !y || !h) continue;
      const v = judgeInstructions(x, y, h, verdict);
      slowRuns++;
      slowRatios.push(v.ratio);
      if (v.verdict === 'regression') slowFlagged++;
    }
  }
  slowRatios.sort((p, q) => p - q);
  return {
    row,
    spreadPct: spread * 100,
    medianPerIteration: got(plainCounts[0]!)?.[COUNT_ITERATIONS - 1] ?? null,
    slowFlagged,
    slowRuns,
    slowMedianRatio: slowRatios[Math.floor(slowRatios.length / 2)] ?? null,
  };
});

// A/A runs: ordered triples of distinct plain processes (base, base again, head).
const triples = aaTriples(P);
const aaRuns = triples.length;
const aaRunsFlagged = triples.filter(([a, b, h]) =>
  rows.some((row) => {
    const [x, y, z] = [plainCounts[a]!.get(row), plainCounts[b]!.get(row), plainCounts[h]!.get(row)];
    return x && y && z && judgeInstructions(x, y, z, verdict).verdict !== '~';
  }),
).length;

const summary = {
  runner,
  client: values.source,
  counter,
  pool: P,
  slowed: S,
  fraction,
  ...verdict,
  iterations: COUNT_ITERATIONS,
  aaRuns,
  aaRunsFlagged,
  rows: perRow,
  minutesPerPairOfProcesses: (performance.now() - started) / 60_000 / Math.ceil((P + S) / 2),
  totalMinutes: (performance.now() - started) / 60_000,
};
writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
