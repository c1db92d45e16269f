// mode: bisect on workflow_dispatch: the first-parent commits from base-ref (good) to head-ref or
// the checkout (bad), each probe a paired A/B against good (src/bisect), the step table and (with
// counts) the named commit's difference against its parent in the job summary and an artifact. The checkout needs the range's history: a shallow one is deepened.
import * as core from '@actions/core';
import { join } from 'node:path';
import { MEASURE_TEXT, abStepComparator, bisectMeasure } from '../bisect/step-probe.js';
import { abStepDifference } from '../bisect/difference.js';
import { renderBisectMarkdown } from '../bisect/report.js';
import { bisect } from '../bisect/run.js';
import { writeText } from '../report/write.js';
import { AB_DEFAULTS } from '../verdict/index.js';
import { git, headSha, isShallow, resolveRef } from './checkout.js';
import { log, NOTHING, pipelineOptions, summarizeAndUpload, type FlowEnv, type FlowResult } from './flow-steps.js';

export async function bisectFlow(env: FlowEnv): Promise<FlowResult> {
  const i = env.inputs;
  const { good, bad } = await core.group('git: bisect range', async () => {
    if (await isShallow(i.path)) {
      log('git: shallow checkout; fetching the whole history to walk the range (use fetch-depth: 0 to skip this)');
      await git(i.path, ['fetch', '--no-tags', '--unshallow', 'origin']);
    }
    return { good: await resolveRef(i.path, i.baseRef!, log), bad: i.headRef ? await resolveRef(i.path, i.headRef, log) : await headSha(i.path) };
  });
  const measure = await bisectMeasure(i.measure, log);
  const steps = {
    ...pipelineOptions(env),
    runner: i.client,
    rounds: i.rounds,
    alpha: i.alpha,
    threshold: i.threshold,
    runBudgetMs: AB_DEFAULTS.runBudgetMs,
    measure: [measure],
    ...(i.buildCommand ? { buildCommand: i.buildCommand } : {}),
  };
  const outcome = await core.group(`bisect: ${i.client} ${i.cases.join(', ')} from ${good.slice(0, 12)} to ${bad.slice(0, 12)}`, () =>
    bisect({
      repo: i.path,
      good,
      bad,
      log,
      workDir: join(env.ctx.temp, 'bee-bench', 'bisect'),
      compare: abStepComparator(steps),
      explain: abStepDifference(steps),
    }),
  );
  const markdown = renderBisectMarkdown(outcome, { runner: i.client, cases: i.cases, threshold: i.threshold, measure: MEASURE_TEXT[measure] });
  const file = join(env.outDir, 'bisect.md');
  writeText(file, markdown);
  core.setOutput('report-path', file);
  core.setOutput('results-path', env.outDir);
  core.setOutput('regressions', outcome.first ? '1' : '0');
  core.setOutput('improvements', '0');
  await summarizeAndUpload(env, markdown);
  return NOTHING;
}
