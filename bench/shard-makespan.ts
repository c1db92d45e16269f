// The sharded nightly's makespan (README "Sharded nightly"): the full profile in one job against the
// longest of N shards, N = 1, 4, 8, 16, as the planner expects it and as measured pieces say.
//
// Method: (1) plan the full profile (js, go, rs; wall time, instruction counts, allocations; without
// and with --large) for each N with the planner's cost model: makespan (longest shard), total (the
// single job), balance (longest / mean). (2) Run real pieces, one at a time, each as a one-piece
// shard through src/shard/run.ts (the shard's own code path: build lookup, runner process, output),
// cheapest predicted first, within a machine-time budget: a piece is skipped when its predicted
// time (model x the ratio measured so far for its evidence) exceeds what is left. Net cases need a
// Bee node and are not run. (3) Per evidence, the median measured/model ratio over pieces whose
// cases ran (a case every runner skips costs its overhead only, whatever the model says); the
// model's assignment re-costed with those ratios gives the calibrated makespans.
//
//   npx tsx bench/shard-makespan.ts [--runner go,rs] [--budget-s 1500] [--cache DIR]
//                                   [--out bench/out/shard-makespan] [--reuse] [--plan-only]
//                                   [--measure wall,instructions,allocations]   (the evidences whose pieces run)
//   (--reuse keeps the pieces a previous run measured in --out and runs only the ones it lacks)
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildRunner, parseSource, type ClientSource } from '../src/build/index.js';
import { defaultSpecPath } from '../src/build/paths.js';
import { loadResult } from '../src/spec/load.js';
import type { Plan } from '../src/spec/plan.js';
import { RunnerSchema, type Runner } from '../src/spec/schema.js';
import { balance, piecesOf, pieceKey, type Piece } from '../src/shard/balance.js';
import { ASSIGNMENT_SCHEMA_ID, type Assignment } from '../src/shard/assignment.js';
import { MEASURES, MeasureKindSchema, type MeasureKind } from '../src/spec/measure.js';
import { planShards, resolveSelection, type SelectionRequest } from '../src/shard/commands.js';
import { staticModel } from '../src/shard/cost.js';
import { loadSpec } from '../src/spec/load.js';
import { runShard } from '../src/shard/run.js';

const { values } = parseArgs({
  options: {
    runner: { type: 'string', default: 'go,rs' },
    'budget-s': { type: 'string', default: '1500' },
    cache: { type: 'string', default: join('.bee-bench', 'cache') },
    out: { type: 'string', default: join('bench', 'out', 'shard-makespan') },
    reuse: { type: 'boolean', default: false },
    'plan-only': { type: 'boolean', default: false },
    measure: { type: 'string', default: 'wall,instructions,allocations' },
  },
});

const SHARD_COUNTS = [1, 4, 8, 16] as const;
const EVIDENCES: readonly MeasureKind[] = MEASURES;
const ALL: Runner[] = ['js', 'go', 'rs'];
const specFile = defaultSpecPath();
const outDir = resolve(values.out);
const cacheDir = resolve(values.cache);
const measuredRunners = values.runner.split(',').map((r) => RunnerSchema.parse(r.trim()));
const budgetS = Number(values['budget-s']);
const log = (l: string) => process.stderr.write(`${l}\n`);
const load = () => loadavg().map((x) => Math.round(x * 100) / 100);
mkdirSync(outDir, { recursive: true });

const request = (runners: Runner[], large: boolean): SelectionRequest => ({ specFile, runners, size: 'full', cases: [], large, evidences: EVIDENCES });

interface PlanRow {
  large: boolean;
  n: number;
  makespan_s: number;
  total_s: number;
  balance: number;
  largest_piece_s: number;
  largest_piece: string;
  pieces: number;
}

function summarize(a: Assignment, cost: (p: Piece) => number): Omit<PlanRow, 'large' | 'n'> {
  const shardCosts = a.shards.map((s) => s.pieces.reduce((t, p) => t + cost(p), 0));
  const total = shardCosts.reduce((t, c) => t + c, 0);
  const pieces = a.shards.flatMap((s) => s.pieces);
  const largest = pieces.reduce((b, p) => (cost(p) > cost(b) ? p : b));
  const makespan = Math.max(...shardCosts);
  return {
    makespan_s: makespan,
    total_s: total,
    balance: makespan / (total / a.shards.length),
    largest_piece_s: cost(largest),
    largest_piece: pieceKey(largest),
    pieces: pieces.length,
  };
}

// (1) The planner's view.
const assignments = new Map<string, Assignment>();
const modelRows: PlanRow[] = [];
for (const large of [false, true]) {
  for (const n of SHARD_COUNTS) {
    const a = planShards(request(ALL, large), n);
    assignments.set(`${large} ${n}`, a);
    modelRows.push({ large, n, ...summarize(a, (p) => p.cost) });
  }
}
const fmt = (s: number) => (s >= 3600 ? `${(s / 3600).toFixed(2)} h` : s >= 60 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(1)} s`);
log('model (full profile, js+go+rs, wall+instructions+allocations):');
for (const r of modelRows)
  log(
    `  ${r.large ? '--large ' : ''}N=${r.n}: makespan ${fmt(r.makespan_s)}, total ${fmt(r.total_s)}, balance ${r.balance.toFixed(2)}, largest piece ${fmt(r.largest_piece_s)} (${r.largest_piece})`,
  );
writeFileSync(join(outDir, 'model.json'), `${JSON.stringify(modelRows, null, 2)}\n`);
if (values['plan-only']) process.exit(0);

// (2) Measured pieces: one runner each (a wall piece of one runner is what the model costs per runner too).
interface Measured {
  key: string;
  evidence: MeasureKind;
  case: string;
  runner: Runner;
  unit: number | null;
  label: string;
  model_s: number;
  measured_s: number;
  /** Every case of the piece was skipped by the runner: it cost its overhead only. */
  skipped: boolean;
  problems: string[];
  load_before: number[];
  load_after: number[];
}
const piecesFile = join(outDir, 'pieces.json');
const measured: Measured[] = values.reuse && existsSync(piecesFile) ? (JSON.parse(readFileSync(piecesFile, 'utf8')) as Measured[]) : [];
const save = () => writeFileSync(piecesFile, `${JSON.stringify(measured, null, 2)}\n`);

const { selection, plans } = resolveSelection(request(measuredRunners, false));
const quick = resolveSelection({ ...request(measuredRunners, false), size: 'quick' }).plans;
const model = staticModel(quick, loadSpec(specFile).spec.profiles.quick.iters);
const sources = new Map<Runner, ClientSource>(
  measuredRunners.map((r) => [r, parseSource(r === 'go' && process.env.BEE_GO_PATH ? process.env.BEE_GO_PATH : 'registry')]),
);
const kindOf = (plan: Plan, id: string) => plan.units.find((u) => u.id === id)?.kind;
const toMeasure = values.measure.split(',').map((e) => MeasureKindSchema.parse(e.trim()));
const candidates = measuredRunners.flatMap((r) => piecesOf([plans.get(r)!], toMeasure, model).filter((p) => kindOf(plans.get(r)!, p.case) === 'cpu'));
const labelOf = (p: Piece) => {
  const units = plans.get(p.runners[0]!)!.units.filter((u) => u.id === p.case && (p.unit === undefined || u.unit === p.unit));
  return units.map((u) => String(u.param.label)).join(', ');
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ratios = (e: MeasureKind, runner?: Runner) =>
  measured.filter((m) => m.evidence === e && (!runner || m.runner === runner) && !m.skipped && m.problems.length === 0).map((m) => m.measured_s / m.model_s);
/** The budget's guess of a piece's time: the model times what its evidence measured so far (this runner's, once it has some). */
const ratioOf = (e: MeasureKind, runner?: Runner) => {
  const r = median(ratios(e, runner).length > 0 ? ratios(e, runner) : ratios(e));
  return Number.isFinite(r) ? r : 1;
};

if (measured.length === 0 || values.reuse) {
  // The builds first, outside the budget: a shard of the nightly gets them prebuilt.
  for (const r of measuredRunners) await buildRunner({ runner: r, source: sources.get(r)!, cacheDir, log });
}
let spent = 0;
for (;;) {
  const todo = candidates.filter((p) => !measured.some((m) => m.key === pieceKey(p)));
  // A case this runner skipped elsewhere is skipped at once here too, whatever its size.
  const skipsCase = (p: Piece) => measured.find((m) => m.skipped && m.case === p.case && m.runner === p.runners[0]);
  const predicted = (p: Piece) => skipsCase(p)?.measured_s ?? p.cost * ratioOf(p.evidence, p.runners[0]);
  const next = todo.filter((p) => predicted(p) <= budgetS - spent).sort((a, b) => predicted(a) - predicted(b) || pieceKey(a).localeCompare(pieceKey(b)))[0];
  if (!next) break;
  const runner = next.runners[0]!;
  const dir = join(outDir, 'runs', pieceKey(next).replace(/[^A-Za-z0-9.-]+/g, '_'));
  rmSync(dir, { recursive: true, force: true });
  const assignment: Assignment = {
    schema: ASSIGNMENT_SCHEMA_ID,
    selection: { ...selection, runners: [runner] },
    costs: 'static',
    shards: [{ index: 1, cost: next.cost, pieces: [next] }],
  };
  const before = load();
  log(`piece ${pieceKey(next)} (${labelOf(next)}): model ${fmt(next.cost)}, predicted ${fmt(predicted(next))}, ${fmt(budgetS - spent)} of budget left`);
  const run = await runShard({
    assignment,
    index: 1,
    plans: new Map([[runner, plans.get(runner)!]]),
    sources,
    outDir: dir,
    cacheDir,
    reuseBuilds: true,
    log: () => {},
  });
  const cases = run.files.flatMap((f) => loadResult(join(dir, f.file)).cases);
  const m: Measured = {
    key: pieceKey(next),
    evidence: next.evidence,
    case: next.case,
    runner,
    unit: next.unit ?? null,
    label: labelOf(next),
    model_s: next.cost,
    measured_s: run.elapsed_s,
    skipped: cases.length > 0 && cases.every((c) => c.status === 'skipped'),
    problems: run.problems,
    load_before: before,
    load_after: load(),
  };
  measured.push(m);
  spent += run.elapsed_s;
  save();
  log(
    `  measured ${fmt(m.measured_s)} (ratio ${(m.measured_s / m.model_s).toFixed(3)})${m.skipped ? ', skipped by the runner' : ''}${m.problems.length ? `, problems: ${m.problems.join('; ')}` : ''}; load ${m.load_after.join(' ')}`,
  );
}
const unmeasured = candidates.filter((p) => !measured.some((m) => m.key === pieceKey(p)));

// (3) Calibration. Ratios per evidence (median over the pieces whose cases ran), and per evidence
// and runner where that runner has MIN_PER_RUNNER such pieces: clients differ (node under
// callgrind is not go under callgrind), and wall pieces are re-costed runner by runner.
const MIN_PER_RUNNER = 3;
const ratioStats = (e: MeasureKind, runner?: Runner) => {
  const xs = ratios(e, runner);
  return { ratio: median(xs), pieces: xs.length, min: Math.min(...xs), max: Math.max(...xs) };
};
const ratioBy = Object.fromEntries(EVIDENCES.map((e) => [e, ratioStats(e)]));
const ratioByRunner = Object.fromEntries(EVIDENCES.map((e) => [e, Object.fromEntries(ALL.map((r) => [r, ratioStats(e, r)]))]));
const ratioFor = (e: MeasureKind, r: Runner) =>
  ratioByRunner[e]![r]!.pieces >= MIN_PER_RUNNER ? ratioByRunner[e]![r]!.ratio : Number.isFinite(ratioBy[e]!.ratio) ? ratioBy[e]!.ratio : 1;
// A case a runner skips costs what its pieces measured (at most), whatever the size: runners skip
// per case. A runner not measured on it is taken to skip it too (the spec's doc says every one does).
const skippedCost = new Map<string, number>();
for (const m of measured.filter((x) => x.skipped)) {
  for (const key of [`${m.evidence} ${m.case} ${m.runner}`, `${m.evidence} ${m.case}`]) skippedCost.set(key, Math.max(skippedCost.get(key) ?? 0, m.measured_s));
}
const ranCase = new Set(measured.filter((m) => !m.skipped).map((m) => `${m.evidence} ${m.case} ${m.runner}`));
// Each runner's share of a wall piece (the piece's cost is their sum).
const wallShare = new Map<string, number>();
for (const large of [false, true]) {
  for (const [r, plan] of resolveSelection(request(ALL, large)).plans) {
    for (const p of piecesOf([plan], ['wall'], model)) wallShare.set(`${large} ${p.case} ${r}`, p.cost);
  }
}
const calibrated = (large: boolean) => (p: Piece) =>
  p.runners.reduce((t, r) => {
    const skipped =
      skippedCost.get(`${p.evidence} ${p.case} ${r}`) ?? (ranCase.has(`${p.evidence} ${p.case} ${r}`) ? undefined : skippedCost.get(`${p.evidence} ${p.case}`));
    if (skipped !== undefined) return t + skipped;
    return t + (p.evidence === 'wall' ? wallShare.get(`${large} ${p.case} ${r}`)! : p.cost) * ratioFor(p.evidence, r);
  }, 0);
const calibratedRows = [...assignments.entries()].map(([k, a]) => {
  const [large, n] = [k.startsWith('true'), Number(k.split(' ')[1])];
  const cost = calibrated(large);
  // As planned (the model's shards, re-costed) and as a calibrated planner would balance them.
  const asPlanned = summarize(a, cost);
  const rebalanced = balance(
    a.shards.flatMap((s) => s.pieces).map((p) => ({ ...p, cost: cost(p) })),
    n,
  );
  return { large, n, as_planned: asPlanned, rebalanced: summarize({ ...a, shards: rebalanced }, (p) => p.cost) };
});
log('\nmeasured pieces (one runner each; load averages 1/5/15 min before -> after):');
for (const m of measured)
  log(
    `  ${m.key.padEnd(52)} ${m.label.padEnd(28)} model ${fmt(m.model_s).padStart(9)}  measured ${fmt(m.measured_s).padStart(9)}  ratio ${(m.measured_s / m.model_s).toFixed(3)}${m.skipped ? ' (skipped)' : ''}${m.problems.length ? ' (problems)' : ''}  load ${m.load_before.join('/')} -> ${m.load_after.join('/')}`,
  );
log('\ncalibration (median measured/model, over pieces whose cases ran):');
for (const e of EVIDENCES) {
  const per = ALL.filter((r) => ratioByRunner[e]![r]!.pieces > 0).map(
    (r) => `${r} ${ratioByRunner[e]![r]!.ratio.toFixed(3)} (${ratioByRunner[e]![r]!.pieces})`,
  );
  log(
    `  ${e}: ${ratioBy[e]!.ratio.toFixed(3)} over ${ratioBy[e]!.pieces} piece(s), range ${ratioBy[e]!.min.toFixed(3)}-${ratioBy[e]!.max.toFixed(3)}; per runner ${per.join(', ')}`,
  );
}
log('\ncalibrated makespans:');
for (const r of calibratedRows)
  log(
    `  ${r.large ? '--large ' : ''}N=${r.n}: as planned ${fmt(r.as_planned.makespan_s)} (balance ${r.as_planned.balance.toFixed(2)}), rebalanced ${fmt(r.rebalanced.makespan_s)} (balance ${r.rebalanced.balance.toFixed(2)}), total ${fmt(r.as_planned.total_s)}, largest piece ${fmt(r.as_planned.largest_piece_s)} (${r.as_planned.largest_piece})`,
  );
log(`\n${unmeasured.length} CPU piece(s) of ${measuredRunners.join(',')} not measured (over the budget); net pieces need a Bee node.`);
writeFileSync(
  join(outDir, 'summary.json'),
  `${JSON.stringify({ runners: measuredRunners, budget_s: budgetS, spent_s: spent, load_end: load(), model: modelRows, calibration: ratioBy, calibration_by_runner: ratioByRunner, min_per_runner: MIN_PER_RUNNER, skipped: Object.fromEntries(skippedCost), calibrated: calibratedRows, unmeasured: unmeasured.map(pieceKey) }, null, 2)}\n`,
);

// The README's tables ("Sharded nightly"), from the figures above.
const h = (s: number) => (s >= 3600 ? `${(s / 3600).toFixed(1)} h` : s >= 60 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`);
const md: string[] = [];
for (const large of [false, true]) {
  md.push(
    `**Full profile${large ? ' with --large' : ''}**`,
    '',
    "| N | makespan, model | balance, model | makespan, calibrated (model's shards) | balance | makespan, calibrated and rebalanced | largest piece, calibrated |",
    '|---|---|---|---|---|---|---|',
  );
  for (const m of modelRows.filter((r) => r.large === large)) {
    const c = calibratedRows.find((r) => r.large === large && r.n === m.n)!;
    md.push(
      `| ${m.n}${m.n === 1 ? ' (one job)' : ''} | ${h(m.makespan_s)} | ${m.balance.toFixed(2)} | ${h(c.as_planned.makespan_s)} | ${c.as_planned.balance.toFixed(2)} | ${h(c.rebalanced.makespan_s)} | ${h(c.as_planned.largest_piece_s)} (${c.as_planned.largest_piece}) |`,
    );
  }
  md.push('');
}
md.push('| evidence | pieces measured | median measured/model | per runner (pieces) | range |', '|---|---|---|---|---|');
for (const e of EVIDENCES) {
  const per = ALL.filter((r) => ratioByRunner[e]![r]!.pieces > 0).map(
    (r) => `${r} ${ratioByRunner[e]![r]!.ratio.toFixed(2)} (${ratioByRunner[e]![r]!.pieces})`,
  );
  md.push(
    `| ${e} | ${ratioBy[e]!.pieces} | ${ratioBy[e]!.ratio.toFixed(2)} | ${per.join(', ')} | ${ratioBy[e]!.min.toFixed(2)}-${ratioBy[e]!.max.toFixed(2)} |`,
  );
}
md.push('', '| piece | model | measured | ratio | load (1 min) |', '|---|---|---|---|---|');
for (const m of [...measured].sort((a, b) => a.evidence.localeCompare(b.evidence) || a.runner.localeCompare(b.runner) || a.model_s - b.model_s)) {
  const note = m.skipped ? ' (skipped by the runner)' : m.problems.length ? ' (problems)' : '';
  md.push(
    `| ${m.evidence} ${m.runner} ${m.case} ${m.label}${note} | ${m.model_s.toFixed(1)} s | ${m.measured_s.toFixed(1)} s | ${(m.measured_s / m.model_s).toFixed(2)} | ${m.load_before[0]} |`,
  );
}
writeFileSync(join(outDir, 'tables.md'), `${md.join('\n')}\n`);
