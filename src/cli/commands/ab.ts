// `bee-bench ab`: one runner built on two client sources, paired rounds, a verdict per row; the
// markdown report on stdout, exit 1 with --fail-on-regression when a row fails the policy.
import { join } from 'node:path';
import { BeeArgumentError } from '../../bee/preflight.js';
import { parseNodeSpec, withNodeSides, type NodeSpec } from '../../bee/node-sides.js';
import { abPipeline } from '../../pipeline/ab.js';
import { costModel } from '../../shard/commands.js';
import { AB_PIECE_FILE, parsePieceRef, pieceText, runPiece, type PieceRef, type Split } from '../../shard/pr-pieces.js';
import type { Measure } from '../../spec/measure.js';
import { AB_DEFAULTS, ALLOCATION_DEFAULTS, FailOnSchema, INSTRUCTION_DEFAULTS, failingRows } from '../../verdict/index.js';
import {
  changeFloor,
  common,
  envPairs,
  givenClient,
  log,
  measureOf,
  num,
  oneRunner,
  source,
  UsageError,
  verdictOptions,
  withBee,
  type Values,
} from '../flags.js';

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
  if (piece.evidence !== 'wall' && piece.total !== n) throw new UsageError(`--piece ${v.piece}: ${piece.total} pieces, but --split ${n}`);
  return Object.fromEntries(measure.filter((k) => k !== 'wall').map((k) => [k, n]));
}

export async function ab(v: Values): Promise<number> {
  const c = common(v);
  const runner = oneRunner(v, 'ab');
  const nodes = nodeSpecs(v);
  if (!nodes && (!v.base || !v.head)) throw new UsageError('ab needs --base SRC and --head SRC (or, with the node as the variable, --base-bee and --head-bee)');
  const { rounds, alpha, threshold } = verdictOptions(v);
  const instructionThreshold = changeFloor(v, 'instructions', INSTRUCTION_DEFAULTS.floor);
  const allocationThreshold = changeFloor(v, 'allocations', ALLOCATION_DEFAULTS.floor);
  const failOn = FailOnSchema.safeParse(v['fail-on']);
  if (!failOn.success) throw new UsageError(`--fail-on ${v['fail-on']}: use wall, instructions, allocations or any`);
  const measure = measureOf(v);
  if (nodes && measure.some((k) => k !== 'wall'))
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
    instructionThreshold,
    allocationThreshold,
    prebuilt: v.prebuilt,
    keepRaw: v['keep-raw'],
    ...(v['profile-case'] ? { profileCases: v['profile-case'] } : {}),
    ...(v.marker ? { marker: v.marker } : {}),
  };
  if (v.piece !== undefined) {
    // The merge takes only the rows the joined counts flag (src/shard/pr-piece-profiles.ts).
    if (v['profile-case']) throw new UsageError('--profile-case is for a one-job ab: a split A/B profiles the rows its counts flag');
    const piece = parsePieceRef(v.piece);
    if (!piece) throw new UsageError(`--piece ${v.piece}: use wall, or instructions:K/N or allocations:K/N with 1 <= K <= N`);
    const split = splitOf(v, measure, piece);
    const model = costModel({ specFile: c.specFile, runners: [runner], profile: c.profile, cases: c.cases, large: c.large ?? false, evidences: [...measure] });
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
