// `bee-bench ab`: one runner built on two client sources, paired rounds, a verdict per row; the
// markdown report on stdout, exit 1 with --fail-on-regression when a row fails the policy.
import { join } from 'node:path';
import { BeeArgumentError } from '../../bee/preflight.js';
import { parseNodeSpec, withNodeSides, type NodeSpec } from '../../bee/node-sides.js';
import { abPipeline } from '../../ab/run.js';
import { costModel } from '../../shard/commands.js';
import { AB_PIECE_FILE, parsePieceRef, pieceText, runPiece, type PieceRef, type Split } from '../../ab/pieces.js';
import { isDeterministic, MEASURES, type Measure } from '../../spec/measure.js';
import { AB_DEFAULTS, ALLOCATION_DEFAULTS, FailOnSchema, INSTRUCTION_DEFAULTS, failingRows } from '../../verdict/index.js';
import {
  changeFloor,
  CLIENT_FLAGS,
  common,
  COMMON_FLAGS,
  envPairs,
  givenClient,
  log,
  measureOf,
  num,
  oneRunner,
  source,
  UsageError,
  type Values,
  VERDICT_FLAGS,
  verdictOptions,
  withBee,
} from '../flags.js';
import type { CliCommand } from '../command.js';
import { BEE, COMMON, MEASURE, RUN_FAILS, SRC, VERDICT_DEFAULTS, pct } from '../help-text.js';

/** --base-bee / --head-bee: the node A/B's two nodes, or undefined for a client A/B. Every conflict is a UsageError. */
function nodeSpecs(v: Values): { base: NodeSpec; head: NodeSpec } | undefined {
  if (!v['base-bee'] && !v['head-bee']) {
    if (v['base-batch-id'] || v['head-batch-id']) throw new UsageError('--base-batch-id and --head-batch-id go with --base-bee URL and --head-bee URL');
    return undefined;
  }
  if (!v['base-bee'] || !v['head-bee']) throw new UsageError('a node A/B needs both --base-bee and --head-bee (each a Bee executable or a node URL)');
  if (v.base || v.head)
    throw new UsageError(
      'a node A/B runs one client build against both nodes: drop --base and --head (the client is --<runner>-client SRC, BEE_GO_PATH for go, or the registry release)',
    );
  if (v.bee || v['bee-url'] || v['bee-binary'] || v['batch-id'] || v['bee-port'])
    throw new UsageError('--base-bee and --head-bee are the nodes of a node A/B: drop --bee, --bee-url, --batch-id, --bee-binary and --bee-port');
  try {
    return {
      base: parseNodeSpec(v['base-bee'], v['base-batch-id'], '--base-bee', '--base-batch-id'),
      head: parseNodeSpec(v['head-bee'], v['head-batch-id'], '--head-bee', '--head-batch-id'),
    };
  } catch (e) {
    if (e instanceof BeeArgumentError) throw new UsageError(e.message);
    throw e;
  }
}

/** --split N: pieces per deterministic evidence of a split A/B (every piece of one A/B is given the same N). */
function splitOf(v: Values, measure: Measure, piece: PieceRef): Split {
  if (v.split === undefined)
    throw new UsageError('--piece needs --split N: how many pieces each of instructions and allocations is split into (the same N for every piece)');
  const n = num(v.split, 'split', 1, (n) => Number.isInteger(n) && n >= 1 && n <= 64, 'a whole number from 1 to 64');
  if (isDeterministic(piece.evidence) && piece.total !== n) throw new UsageError(`--piece ${v.piece}: ${piece.total} pieces, but --split ${n}`);
  return Object.fromEntries(measure.filter(isDeterministic).map((k) => [k, n]));
}

export async function ab(v: Values): Promise<number> {
  const c = common(v);
  const runner = oneRunner(v, 'ab');
  const nodes = nodeSpecs(v);
  if (!nodes && (!v.base || !v.head)) throw new UsageError('ab needs --base SRC and --head SRC (or, with the node as the variable, --base-bee and --head-bee)');
  const { rounds, alpha, threshold } = verdictOptions(v);
  const thresholds = {
    instructions: changeFloor(v, 'instructions', INSTRUCTION_DEFAULTS.floor),
    allocations: changeFloor(v, 'allocations', ALLOCATION_DEFAULTS.floor),
  };
  const failOn = FailOnSchema.safeParse(v['fail-on']);
  if (!failOn.success) throw new UsageError(`--fail-on ${v['fail-on']}: use ${MEASURES.join(', ')} or any`);
  const measure = measureOf(v);
  if (nodes && measure.some(isDeterministic))
    throw new UsageError(`--measure ${v.measure}: a node A/B measures wall time only (one client build on both sides)`);
  if (nodes && v.piece !== undefined) throw new UsageError('--piece splits a client A/B: a node A/B runs as one job');
  // Every argument is checked before a dev node is started for the job.
  const client = nodes ? source(givenClient(v, runner) ?? 'registry', `${runner}-client`) : undefined;
  const sides = {
    base: client ?? source(v.base!, 'base'),
    head: client ?? source(v.head!, 'head'),
    baseLabel: v['base-label'] ?? v.base ?? '',
    headLabel: v['head-label'] ?? v.head ?? '',
    env: { base: envPairs(v['base-env'], 'base-env'), head: envPairs(v['head-env'], 'head-env') },
  };
  const abOptions = {
    ...sides,
    runner,
    buildCommand: v['build-command'],
    rounds,
    alpha,
    threshold,
    runBudgetMs: AB_DEFAULTS.runBudgetMs,
    measure,
    thresholds,
    prebuilt: v.prebuilt,
    keepRaw: v['keep-raw'],
    ...(v['profile-case'] ? { profileCases: v['profile-case'] } : {}),
    ...(v.marker ? { marker: v.marker } : {}),
  };
  if (v.piece !== undefined) {
    // The merge takes only the rows the joined counts flag (src/ab/piece-profiles.ts).
    if (v['profile-case']) throw new UsageError('--profile-case is for a one-job ab: a split A/B profiles the rows its counts flag');
    const piece = parsePieceRef(v.piece);
    if (!piece) throw new UsageError(`--piece ${v.piece}: use wall, or instructions:K/N or allocations:K/N with 1 <= K <= N`);
    const split = splitOf(v, measure, piece);
    const model = costModel({ specFile: c.specFile, runners: [runner], size: c.size, cases: c.cases, large: c.large ?? false, evidences: [...measure] });
    const got = await withBee(c, (c) => runPiece({ ...c, ...abOptions, piece, split, model }));
    log(`piece ${pieceText(piece)}: ${got.cases.length} case(s) in ${Math.round(got.elapsed_s)} s; wrote ${join(c.outDir, AB_PIECE_FILE)}`);
    return 0;
  }
  const out = nodes
    ? await withNodeSides(nodes, { log }, (n) =>
        abPipeline({
          ...c,
          ...abOptions,
          nodes: n,
          // Named by what differs: the node's version (a label given on the command line wins).
          baseLabel: v['base-label'] ?? `bee ${n.base.version}`,
          headLabel: v['head-label'] ?? `bee ${n.head.version}`,
        }),
      )
    : await withBee(c, (c) => abPipeline({ ...c, ...abOptions }));
  process.stdout.write(out.report.markdown);
  log(`wrote ${out.report.markdownFile}`);
  // As in the action: a head that failed or lost a row fails the run like a regression does.
  const f = failingRows(out.report.input.rows, failOn.data);
  return v['fail-on-regression'] && f.regressions + f.failed + f.missing > 0 ? 1 : 0;
}

/** `bee-bench ab`: its help, its flags and what it runs. */
export const abCli: CliCommand = {
  name: 'ab',
  usage: [
    'bee-bench ab      --runner js|go|rs --base SRC --head SRC [--rounds N] [--alpha A] [--threshold T]',
    '                  [--size quick|full] [--case GLOB]... [--out DIR] [--fail-on-regression]',
    `                  [--base-env K=V]... [--head-env K=V]... [BEE] [--measure ${MEASURES.join(',')}|both]`,
    '                  [--instructions-floor F] [--allocations-floor F] [--profile-case GLOB]...',
    `                  [--fail-on ${MEASURES.join('|')}|any] [--large] [--piece P --split N] [--prebuilt]`,
    'bee-bench ab      --runner js|go|rs --base-bee BEE --head-bee BEE [--base-batch-id HEX] [--head-batch-id HEX]',
    "                  [--<runner>-client SRC] [--case 'net.*']... (the other flags as above, wall time only)",
  ],
  summary: 'one runner built on two client sources (or one client against two Bee nodes), interleaved rounds, a verdict per row',
  examples: [
    {
      what: "a PR's base against its head: two bee-js checkouts, every CPU case",
      command: "bee-bench ab --runner js --base ../bee-js-main --head ../bee-js --case 'cpu.*'",
    },
    {
      what: 'where it moved: instruction counts beside wall time, and the functions behind each flagged row (and every bmt row)',
      command: "bee-bench ab --runner rs --base registry --head ../bee-rs --measure wall,instructions --profile-case 'cpu.bmt.*'",
    },
    {
      what: 'a node A/B: one bee-js build against two Bee releases, each started as a dev node (or a URL with --base-batch-id/--head-batch-id)',
      command: "bee-bench ab --runner js --base-bee ./bee-2.7.0 --head-bee ./bee-2.8.0 --case 'net.*'",
    },
  ],
  details: `${SRC}
--base-bee BEE --head-bee BEE: the Bee node is the variable instead: one client build (--<runner>-client
SRC, BEE_GO_PATH for go, else the registry release) runs its rounds against two nodes, each a Bee
executable started as a dev node for the job (\`bee dev\`: Bee 2.8.0 or older) or the URL of a running
node with its batch (--base-batch-id, --head-batch-id). The sides are labelled by the nodes'
versions (GET /health; --base-label/--head-label override); ab.md and ab.json name both nodes.
--fail-on: which evidence --fail-on-regression acts on.
--piece P --split N: measure one piece of the A/B into --out/piece.json, no report (a PR as
parallel jobs: wall time is one piece, instructions and allocations N pieces each, split by case;
a count piece profiles the rows its counts flag into --out/profiles/);
\`bee-bench merge --out DIR PIECE_DIR...\` judges them as one A/B and names a missing piece.
--keep-raw keeps the counting runs' callgrind dumps in --out/counts/raw-<run>/; --marker TEXT sets
the comment's marker. --profile-case GLOB: with instruction counts, those cases' rows get "Where
it moved" and profile files even when their counts flag nothing (a change under the threshold).
--instructions-floor, --allocations-floor: a counted row's threshold is the larger of the floor and
ten times its A/A spread (base against itself); the comment and ab.json give each row's.
Defaults: ${VERDICT_DEFAULTS}, --instructions-floor ${INSTRUCTION_DEFAULTS.floor} (${pct(INSTRUCTION_DEFAULTS.floor)}),
--allocations-floor ${ALLOCATION_DEFAULTS.floor} (${pct(ALLOCATION_DEFAULTS.floor)}), --fail-on any, --measure wall, --size quick, every case, --out out.
${BEE}
${MEASURE}
${COMMON}`,
  fails: `${RUN_FAILS}, or --fail-on-regression found a regression or a row that failed or is missing in head`,
  flags: [
    ...COMMON_FLAGS,
    ...VERDICT_FLAGS,
    ...CLIENT_FLAGS,
    'runner',
    'base',
    'head',
    'base-label',
    'head-label',
    'base-env',
    'head-env',
    'measure',
    'instructions-floor',
    'allocations-floor',
    'instructions-threshold',
    'allocations-threshold',
    'fail-on',
    'fail-on-regression',
    'keep-raw',
    'marker',
    'piece',
    'split',
    'prebuilt',
    'profile-case',
    'base-bee',
    'head-bee',
    'base-batch-id',
    'head-batch-id',
    'build-command',
  ],
  run: ab,
};
