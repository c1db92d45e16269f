// `bee-bench bisect`: the first commit between --good and --bad where a case got slower, found
// with the A/B engine as the probe, and (with counts) that commit's difference against its parent;
// bisect.md and profiles/<row>/ in --out, the markdown on stdout.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MEASURE_TEXT, abStepComparator, bisectMeasure } from '../../bisect/step-probe.js';
import { abStepDifference } from '../../bisect/difference.js';
import { renderBisectMarkdown } from '../../bisect/report.js';
import { bisect as bisectCommits } from '../../bisect/run.js';
import { writeText } from '../../report/write.js';
import { AB_DEFAULTS } from '../../verdict/index.js';
import { common, log, measureOf, oneRunner, UsageError, type Values, VERDICT_FLAGS, verdictOptions } from '../flags.js';
import type { CliCommand } from '../command.js';
import { COMMON, VERDICT_DEFAULTS } from '../help-text.js';

export async function bisect(v: Values): Promise<number> {
  const c = common(v);
  const runner = oneRunner(v, 'bisect');
  if (!v.good || !v.bad) throw new UsageError('bisect needs --good REF (a commit without the slowdown) and --bad REF (one with it)');
  if (c.cases.length === 0) throw new UsageError('bisect needs --case ID (the case that got slower)');
  const repo = resolve(v.path);
  if (!existsSync(repo) || !statSync(repo).isDirectory()) throw new UsageError(`--path ${v.path}: not a folder (the client checkout whose history to walk)`);
  const verdict = verdictOptions(v);
  const measure = await bisectMeasure(v.measure === undefined ? undefined : measureOf(v), log);
  const steps = { ...c, ...verdict, runner, buildCommand: v['build-command'], runBudgetMs: AB_DEFAULTS.runBudgetMs, measure: [measure] };
  const outcome = await bisectCommits({ repo, good: v.good, bad: v.bad, log, compare: abStepComparator(steps), explain: abStepDifference(steps) });
  const md = renderBisectMarkdown(outcome, { runner, cases: c.cases, threshold: verdict.threshold, measure: MEASURE_TEXT[measure] });
  writeText(join(c.outDir, 'bisect.md'), md);
  process.stdout.write(md);
  return 0;
}

/** `bee-bench bisect`: its help, its flags and what it runs. */
export const bisectCli: CliCommand = {
  name: 'bisect',
  usage: [
    'bee-bench bisect  --runner js|go|rs --good REF --bad REF --case ID [--path CHECKOUT] [--rounds N]',
    '                  [--alpha A] [--threshold T] [--size quick|full] [--out DIR]',
    '                  [--measure wall|instructions]',
  ],
  summary: 'find the first commit of a client checkout that made a case slower',
  details: `Walks the first-parent commits of the client checkout at --path (default .) from --good
(excluded) to --bad, each step an A/B against --good, and names the first commit whose change
exceeds the threshold (or says "no change found"). Steps count instructions where valgrind is
installed, else time paired rounds (--measure wall forces wall time).
Defaults: --path ., ${VERDICT_DEFAULTS}, --measure instructions where valgrind is installed (else wall),
--size quick, --out out.
${COMMON}`,
  fails: 'a build or a step failed',
  flags: ['spec', 'size', 'profile', 'case', 'out', 'cache', ...VERDICT_FLAGS, 'runner', 'good', 'bad', 'path', 'measure', 'build-command'],
  run: bisect,
};
