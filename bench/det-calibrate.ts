// Calibration of a deterministic evidence's verdict (README "Instruction counts", "Allocations
// beside time and counts", docs/calibration.md "Thresholds from the noise"): the step rule, base
// twice and head once, each row at the larger of the floor and ten A/A spreads.
//
// Method: one runner build, measured exactly as `bee-bench ab --measure <evidence>` measures it
// (the evidence's own run: CPU cases, its few timed iterations). We collect a pool of P plain
// processes and S injected ones, two at a time (the figures do not depend on load):
//   instructions: head slowed by BEE_BENCH_SLOWDOWN (every CPU case, `fraction` more work);
//   cycles:       the same, under callgrind's cache simulation; the runner sizes its spins on the
//                 step's estimated cycles then, so the injection is `fraction` of the cycles;
//   allocations:  the plan's alloc_extra hook (BEE_BENCH_ALLOC: inside the region, one more
//                 allocation of `fraction` x the bytes the operation allocated).
// Processes are independent, so the A/A runs are drawn from the pool: every triple (base, base
// again, head) of distinct plain processes is one A/A run judged with the shipped rule, and every
// injected process against every pair of plain ones is one injected run. Reported per row: the
// A/A spread of each figure (the largest the verdict's statistic puts any two plain processes
// apart) and the row's effective threshold from it (the largest any pair of plain processes
// gives the row), the median figure per iteration, how many injected runs flagged it with the
// median head/base ratio, how many A/A runs flagged it; and the A/A runs with any flag. An allocation row that allocates nothing in
// its region cannot move under a proportional injection, and says so.
//
//   npx tsx bench/det-calibrate.ts --evidence instructions|cycles|allocations --runner rs
//        [--source registry|PATH] [--pool 6] [--injected 2] [--fraction 0.005] [--floor F] [--case 'cpu.*']
//        [--out bench/out] [--reuse]   (judge the processes a previous run left in --out again,
//                                       measuring only the ones it lacks)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultSpecPath } from '../src/build/paths.js';
import { deterministicEvidence, type DeterministicFigures } from '../src/evidence/index.js';
import { processBudgetMs } from '../src/pipeline/options.js';
import { loadSpec } from '../src/spec/load.js';
import { DETERMINISTIC, type DeterministicKind } from '../src/spec/measure.js';
import { applyHooks, planOf, resolvePlan } from '../src/spec/plan.js';
import { RunnerSchema, type Result } from '../src/spec/schema.js';
import { aaSpread, stepBar } from '../src/verdict/steps.js';
import { aaTriples, pairsOf, processPool, twoAtATime } from './lib/process-pool.js';

const { values } = parseArgs({
  options: {
    evidence: { type: 'string', default: 'instructions' },
    runner: { type: 'string', default: 'rs' },
    source: { type: 'string', default: 'registry' },
    pool: { type: 'string', default: '6' },
    injected: { type: 'string', default: '2' },
    fraction: { type: 'string', default: '0.005' },
    floor: { type: 'string' },
    case: { type: 'string', multiple: true, default: ['cpu.*'] },
    out: { type: 'string', default: 'bench/out' },
    reuse: { type: 'boolean', default: false },
  },
});

const kind = values.evidence as DeterministicKind;
if (!DETERMINISTIC.includes(kind)) throw new Error(`--evidence ${values.evidence}: one of ${DETERMINISTIC.join(', ')}`);

/** What differs between the evidences: how head is made worse, and the figures whose spread is read. */
interface Calibration<K extends DeterministicKind> {
  /** The pool's folder (the former scripts' names, so --reuse finds their processes). */
  folder: string;
  /** The injected process's environment, or its plan with a hook applied. */
  inject: (fraction: number) => { env?: Record<string, string>; hook?: Parameters<typeof applyHooks>[1] };
  /** Each figure's per-iteration series as the rule reads it (allocations: one unit added, as judgeAllocations does). */
  series: Record<string, (f: DeterministicFigures[K]) => readonly number[] | undefined>;
  /** The figure per iteration reported for a row, from the first plain process's series. */
  perIteration: (series: readonly number[]) => number;
}

/** The middle element (the upper one of an even count), as the former scripts reported medians. */
const middle = (xs: readonly number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;

const EVIDENCE = deterministicEvidence(kind);
const CALIBRATIONS: { [K in DeterministicKind]: Calibration<K> } = {
  instructions: {
    folder: 'count-calibration',
    inject: (fraction) => ({ env: { BEE_BENCH_SLOWDOWN: `cpu.*:${fraction}` } }),
    series: { instructions: (f) => f },
    // The last timed iteration (the JIT tiered up by then).
    perIteration: (xs) => xs.at(-1)!,
  },
  cycles: {
    folder: 'cycle-calibration',
    inject: (fraction) => ({ env: { BEE_BENCH_SLOWDOWN: `cpu.*:${fraction}` } }),
    series: { cycles: (f) => f },
    perIteration: (xs) => xs.at(-1)!,
  },
  allocations: {
    folder: 'alloc-calibration',
    inject: (fraction) => ({ hook: { allocExtra: { glob: 'cpu.*', fraction } } }),
    series: { bytes: (f) => f.bytes.map((n) => n + 1), allocs: (f) => f.allocs?.map((n) => n + 1) },
    perIteration: (xs) => middle(xs) - 1,
  },
};
const calibration = CALIBRATIONS[kind] as Calibration<DeterministicKind>;

const runner = RunnerSchema.parse(values.runner);
const P = Number(values.pool);
const S = Number(values.injected);
const fraction = Number(values.fraction);
const floor = values.floor === undefined ? EVIDENCE.defaultThreshold : Number(values.floor);
if (!(floor > 0 && floor < 10)) throw new Error(`--floor ${values.floor}: a fraction, e.g. 0.005 for 0.5%`);
type Judged = ReturnType<ReturnType<(typeof EVIDENCE)['judge']>>;
const judge = EVIDENCE.judge(floor) as (a: unknown, b: unknown, c: unknown) => Judged;
/** The head/base ratio of the row's main figure (allocations: bytes). */
const mainRatio = (v: Judged) => ('ratio' in v ? v.ratio : v.bytes.ratio);
const { spec, hash } = loadSpec(defaultSpecPath());
const plan = planOf(resolvePlan({ spec, specHash: hash, runner, profile: 'quick', cases: values.case }), EVIDENCE.takes);
const pool = processPool({ runner, source: values.source, out: values.out, folder: `${calibration.folder}-${runner}`, reuse: values.reuse });

const one = (name: string, injected: boolean) => {
  const { env, hook } = injected ? calibration.inject(fraction) : {};
  const p = hook ? applyHooks(plan, hook) : plan;
  return pool.process(name, (command, out) => EVIDENCE.run(command, { runner, plan: p, out, timeoutMs: processBudgetMs(p), env }));
};

const started = performance.now();
// The former count calibration named its injected processes "slowed".
const injectedName = kind === 'instructions' ? 'slowed' : 'injected';
// One queue, so that an odd number of plain processes (or the ones --reuse still lacks) shares a
// pair with an injected one rather than running alone.
const measured = await twoAtATime([
  ...Array.from({ length: P }, (_, i) => () => one(`plain-${i}`, false)),
  ...Array.from({ length: S }, (_, i) => () => one(`${injectedName}-${i}`, true)),
]);
const plain = measured.slice(0, P);
const injected = measured.slice(P);

type Figures = Map<string, unknown>;
const figuresOf = (r: Result): Figures =>
  new Map(
    r.cases.flatMap((c) => {
      const f = (EVIDENCE.figures as (c: Result['cases'][number]) => unknown)(c);
      return f ? [[`${c.id} ${String(c.param.label)}`, f] as const] : [];
    }),
  );
const plainFigures = plain.map(figuresOf);
const injectedFigures = injected.map(figuresOf);
const rows = [...new Set(plainFigures.flatMap((m) => [...m.keys()]))];
const pairs = pairsOf(P);
const pct = (x: number) => Math.round(x * 1e6) / 1e4;

const perRow = rows.map((row) => {
  const got = (m: Figures) => m.get(row) as DeterministicFigures[DeterministicKind] | undefined;
  const first = got(plainFigures[0]!);
  const spreadPct: Record<string, number | null> = {};
  const thresholdPct: Record<string, number | null> = {};
  const perIteration: Record<string, number | null> = {};
  for (const [name, pick] of Object.entries(calibration.series)) {
    const read = (f: DeterministicFigures[DeterministicKind] | undefined) => (f ? pick(f) : undefined);
    const firstSeries = read(first);
    perIteration[name] = firstSeries ? calibration.perIteration(firstSeries) : null;
    const spread = Math.max(
      0,
      ...pairs.map(([a, b]) => {
        const [x, y] = [read(got(plainFigures[a]!)), read(got(plainFigures[b]!))];
        return x && y ? aaSpread(x, y) : 0;
      }),
    );
    spreadPct[name] = firstSeries ? pct(spread) : null;
    // The threshold is monotone in the spread: the widest pair gives the row's largest.
    thresholdPct[name] = firstSeries ? pct(stepBar(spread, { floor }).threshold) : null;
  }
  let flagged = 0;
  const ratios: number[] = [];
  for (const s of injectedFigures) {
    for (const [a, b] of pairs) {
      const [x, y, h] = [got(plainFigures[a]!), got(plainFigures[b]!), got(s)];
      if (!x || !y || !h) continue;
      const v = judge(x, y, h);
      ratios.push(mainRatio(v));
      if (v.verdict === 'regression') flagged++;
    }
  }
  const aaFlagged = aaTriples(P).filter(([a, b, h]) => {
    const [x, y, z] = [got(plainFigures[a]!), got(plainFigures[b]!), got(plainFigures[h]!)];
    return x && y && z && judge(x, y, z).verdict !== '~';
  }).length;
  return {
    row,
    spreadPct,
    thresholdPct,
    perIteration,
    // Nothing allocated in the region: 1% of nothing is nothing, so no injection can show.
    ...(kind === 'allocations' ? { allocatesNothing: perIteration.bytes === 0 } : {}),
    injectedFlagged: flagged,
    injectedRuns: ratios.length,
    injectedMedianRatio: ratios.length > 0 ? middle(ratios) : null,
    aaFlagged,
  };
});

// A/A runs: ordered triples of distinct plain processes (base, base again, head).
const triples = aaTriples(P);
const aaRunsFlagged = triples.filter(([a, b, h]) =>
  rows.some((row) => {
    const [x, y, z] = [plainFigures[a]!.get(row), plainFigures[b]!.get(row), plainFigures[h]!.get(row)];
    return x && y && z && judge(x, y, z).verdict !== '~';
  }),
).length;

const summary = {
  evidence: kind,
  runner,
  client: values.source,
  counter: plain[0] ? EVIDENCE.counterOf(plain[0]) : null,
  pool: P,
  injected: S,
  fraction,
  floor,
  iterations: EVIDENCE.iterations,
  aaRuns: triples.length,
  aaRunsFlagged,
  rows: perRow,
  minutesPerPairOfProcesses: (performance.now() - started) / 60_000 / Math.ceil((P + S) / 2),
  totalMinutes: (performance.now() - started) / 60_000,
};
writeFileSync(join(pool.outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
