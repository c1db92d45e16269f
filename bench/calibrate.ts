// Calibration of the A/B verdict (docs/design.md, "Defaults"; README "Calibration").
//
// Method: one runner build serves as both base and head. We collect a pool of P paired rounds
// per condition, each round run exactly as `bee-bench ab` runs it (one process per case and
// side, AB/BA alternation): an A/A pool (nothing injected) and one pool per injected slowdown f
// (BEE_BENCH_SLOWDOWN on the head side: f x the operation's own time of extra CPU work inside the
// timed region, every CPU case). Then we subsample: each draw picks R of the P rounds at random
// and judges all rows with the shipped pipeline (paired Wilcoxon + HL, BH across rows, alpha,
// threshold):
//   - false alarms: A/A draws in which any row is flagged (and per row);
//   - power at f for case c: the A/A rows with row c swapped for the f pool's row c (one slowed
//     case, as in a PR that slows one thing), counted when c is flagged; flags elsewhere are
//     counted as collateral false alarms.
// Finally one real A/B run at the defaults with 10% injected into a single case checks the bar
// "flagged in that case and in no other" end to end, and times a PR-sized run.
//
//   npx tsx bench/calibrate.ts --runner rs [--pool 30] [--rounds 10] [--fractions 0.02,0.03,0.05,0.1]
//                               [--draws 2000] [--case 'cpu.*'] [--out bench/out]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildRunner, parseSource } from '../src/build/index.js';
import { defaultSpecPath } from '../src/build/paths.js';
import { runRounds } from '../src/run/rounds.js';
import { pairRows } from '../src/run/pairs.js';
import { AB_DEFAULTS, judgePaired, type PairedRow } from '../src/verdict/index.js';
import { loadSpec } from '../src/spec/load.js';
import { RunnerSchema } from '../src/spec/schema.js';
import { planOf, resolvePlan } from '../src/spec/plan.js';
import { rng } from '../test/stats/random.js';
import { wallOf } from '../src/verdict/index.js';

const { values } = parseArgs({
  options: {
    runner: { type: 'string', default: 'rs' },
    source: { type: 'string', default: 'registry' },
    pool: { type: 'string', default: '30' },
    rounds: { type: 'string', default: String(AB_DEFAULTS.rounds) },
    fractions: { type: 'string', default: '0.02,0.03,0.05,0.1' },
    draws: { type: 'string', default: '2000' },
    alpha: { type: 'string', default: String(AB_DEFAULTS.alpha) },
    threshold: { type: 'string', default: String(AB_DEFAULTS.threshold) },
    case: { type: 'string', multiple: true, default: ['cpu.*'] },
    'single-case': { type: 'string', default: 'cpu.bmt.file-root' },
    out: { type: 'string', default: 'bench/out' },
    'skip-real': { type: 'boolean', default: false },
    // Judge the pools an earlier run stored under the same --out/--label again (other rounds,
    // alpha or threshold) without measuring anything.
    reuse: { type: 'boolean', default: false },
    label: { type: 'string' },
  },
});

const runner = RunnerSchema.parse(values.runner);
const P = Number(values.pool);
const R = Number(values.rounds);
if (!(R <= P)) throw new Error(`--rounds ${R} must not exceed --pool ${P}: draws pick rounds from the pool`);
const fractions = values.fractions
  .split(',')
  .filter((f) => f.trim() !== '')
  .map(Number);
const draws = Number(values.draws);
const judge = { alpha: Number(values.alpha), threshold: Number(values.threshold) };
const specFile = defaultSpecPath();
const { spec, hash } = loadSpec(specFile);
const plan = planOf(resolvePlan({ spec, specHash: hash, runner, profile: 'quick', cases: values.case }), (u) => u.kind === 'cpu');
const caseCount = new Set(plan.units.map((u) => u.id)).size;
const outDir = resolve(values.out, values.label ?? `calibration-${runner}`);
mkdirSync(outDir, { recursive: true });
const log = (l: string) => process.stderr.write(`${l}\n`);

// A seeded PRNG so a re-analysis of the same pools gives the same figures.
const rand = rng(0x9e3779b9);
function pick(n: number, k: number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rand() * (n - i));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  return idx.slice(0, k);
}
const sub = (row: PairedRow, at: number[]): PairedRow => ({
  ...row,
  base: at.map((i) => row.base[i]!),
  head: at.map((i) => row.head[i]!),
  logRatios: at.map((i) => row.logRatios[i]!),
});

const built = values.reuse ? null : await buildRunner({ runner, source: parseSource(values.source), log });
const caseBudgetMs = spec.profiles.quick.case_timeout_s * 1000 + 90_000;

interface Pool {
  rows: PairedRow[];
  secondsPerRound: number;
}

async function pool(name: string, headEnv: Record<string, string>): Promise<Pool> {
  const file = join(outDir, `${name}.json`);
  if (!built) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Pool;
    if (stored.rows.some((r) => r.base.length < P)) throw new Error(`${file}: pools hold fewer than --pool ${P} rounds`);
    return stored;
  }
  log(`pool ${name}: ${P} rounds x ${caseCount} cases x 2 sides`);
  const cmd = built.command;
  const outcome = await runRounds(
    { base: cmd, head: cmd },
    {
      plan,
      rounds: P,
      outDir: join(outDir, name),
      caseBudgetMs,
      runBudgetMs: Number.POSITIVE_INFINITY,
      env: { head: headEnv },
    },
  );
  const rows = pairRows(outcome).filter((r) => r.status === 'ok' && r.base.length === P);
  const result = { rows, secondsPerRound: outcome.elapsedMs / 1000 / P };
  writeFileSync(file, JSON.stringify(result));
  return result;
}

const started = performance.now();
const aa = await pool('aa', {});
const injected = new Map<number, PairedRow[]>();
for (const f of fractions) injected.set(f, (await pool(`slow-${f}`, { BEE_BENCH_SLOWDOWN: `cpu.*:${f}` })).rows);

// A/A false alarms.
let runsWithAlarm = 0;
const alarmsPerRow = new Map<string, number>();
for (let d = 0; d < draws; d++) {
  const at = pick(P, R);
  const judged = judgePaired(
    aa.rows.map((r) => sub(r, at)),
    spec,
    judge,
  );
  const flagged = judged.filter((r) => r.verdict === 'regression' || r.verdict === 'improvement');
  if (flagged.length > 0) runsWithAlarm++;
  for (const r of flagged) alarmsPerRow.set(r.caseId, (alarmsPerRow.get(r.caseId) ?? 0) + 1);
}

// Power per case and fraction, one slowed case at a time.
const power: Array<{ caseId: string; fraction: number; power: number; collateral: number; medianRatio: number }> = [];
for (const [f, rows] of injected) {
  for (const target of rows) {
    let hit = 0;
    let collateral = 0;
    const ratios: number[] = [];
    for (let d = 0; d < Math.min(draws, 500); d++) {
      const at = pick(P, R);
      const mixed = aa.rows.map((r) => sub(r.caseId === target.caseId && r.label === target.label ? target : r, at));
      const judged = judgePaired(mixed, spec, judge);
      const t = judged.find((r) => r.caseId === target.caseId && r.label === target.label)!;
      if (t.verdict === 'regression') hit++;
      const w = wallOf(t);
      if (w) ratios.push(w.ratio);
      if (judged.some((r) => r !== t && r.verdict !== '~' && r.verdict !== undefined)) collateral++;
    }
    ratios.sort((a, b) => a - b);
    const n = Math.min(draws, 500);
    power.push({ caseId: target.caseId, fraction: f, power: hit / n, collateral: collateral / n, medianRatio: ratios[Math.floor(ratios.length / 2)] ?? NaN });
  }
}

const smallest = new Map<string, number | null>();
for (const c of aa.rows) {
  const ok = power
    .filter((p) => p.caseId === c.caseId && p.power >= 0.9)
    .map((p) => p.fraction)
    .sort((a, b) => a - b);
  smallest.set(c.caseId, ok[0] ?? null);
}

// One real A/B at the defaults: 10% in a single case, and its wall time.
let real: { flagged: string[]; target: string; wallSeconds: number } | null = null;
if (built && !values['skip-real']) {
  const cmd = built.command;
  const target = values['single-case'];
  const outcome = await runRounds(
    { base: cmd, head: cmd },
    {
      plan,
      rounds: R,
      outDir: join(outDir, 'real-10pct'),
      caseBudgetMs,
      runBudgetMs: AB_DEFAULTS.runBudgetMs,
      env: { head: { BEE_BENCH_SLOWDOWN: `${target}:0.1` } },
      log,
    },
  );
  const judged = judgePaired(pairRows(outcome), spec, judge);
  real = {
    target,
    flagged: judged
      .filter((r) => r.verdict === 'regression' || r.verdict === 'improvement')
      .map((r) => `${r.caseId} ${r.verdict} x${wallOf(r)?.ratio.toFixed(3)}`),
    wallSeconds: outcome.elapsedMs / 1000,
  };
}

const summary = {
  runner,
  client: built?.source ?? 'reused pools',
  pool: P,
  rounds: R,
  draws,
  ...judge,
  fractions,
  secondsPerRound: aa.secondsPerRound,
  aaFalseAlarmRunRate: runsWithAlarm / draws,
  aaFalseAlarmsPerRow: Object.fromEntries(alarmsPerRow),
  power,
  smallestFractionWith90pctPower: Object.fromEntries(smallest),
  real,
  totalMinutes: (performance.now() - started) / 60_000,
};
const summaryFile = values.reuse ? `summary-rounds${R}-alpha${judge.alpha}-threshold${judge.threshold}.json` : 'summary.json';
writeFileSync(join(outDir, summaryFile), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
