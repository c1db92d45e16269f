// `bee-bench ab`: one runner built on two client sources, paired rounds, a verdict per row; the
// markdown report on stdout, exit 1 with --fail-on-regression when a row fails the policy.
import { abPipeline } from '../../pipeline/ab.js';
import { AB_DEFAULTS, ALLOCATION_DEFAULTS, FailOnSchema, INSTRUCTION_DEFAULTS, failingRows } from '../../verdict/index.js';
import { changeThreshold, common, envPairs, log, measureOf, oneRunner, source, UsageError, verdictOptions, withBee, type Values } from '../flags.js';

export async function ab(v: Values): Promise<number> {
  const c = common(v);
  const runner = oneRunner(v, 'ab');
  if (!v.base || !v.head) throw new UsageError('ab needs --base SRC and --head SRC');
  const { rounds, alpha, threshold } = verdictOptions(v);
  const instructionThreshold = changeThreshold(v, 'instructions-threshold', INSTRUCTION_DEFAULTS.threshold);
  const allocationThreshold = changeThreshold(v, 'allocations-threshold', ALLOCATION_DEFAULTS.threshold);
  const failOn = FailOnSchema.safeParse(v['fail-on']);
  if (!failOn.success) throw new UsageError(`--fail-on ${v['fail-on']}: use wall, instructions, allocations or any`);
  const measure = measureOf(v);
  // Every argument is checked before a dev node is started for the job.
  const sides = {
    base: source(v.base, 'base'),
    head: source(v.head, 'head'),
    baseLabel: v['base-label'] ?? v.base,
    headLabel: v['head-label'] ?? v.head,
    env: { base: envPairs(v['base-env'], 'base-env'), head: envPairs(v['head-env'], 'head-env') },
  };
  const out = await withBee(c, (c) =>
    abPipeline({
      ...c,
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
    }),
  );
  process.stdout.write(out.report.markdown);
  log(`wrote ${out.report.markdownFile}`);
  // As in the action: a head that failed or lost a row fails the run like a regression does.
  const f = failingRows(out.report.input.rows, failOn.data);
  return v['fail-on-regression'] && f.regressions + f.failed + f.missing > 0 ? 1 : 0;
}
