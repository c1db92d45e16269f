// The action's node A/B (inputs base-bee and head-bee): the Bee node is the variable. One build of
// the checkout at `path` runs interleaved rounds against the two nodes (each started as a dev node
// from a Bee executable, or a running node by URL), through the same abPipeline as `bee-bench ab
// --base-bee … --head-bee …`; then outputs, job summary, artifact and, on a pull request, the sticky
// comment under a marker of its own (a client A/B's comment on the same PR is left alone).
import { isDeterministic, DEFAULT_MEASURE } from '../spec/measure.js';
import * as core from '@actions/core';
import { withNodeSides } from '../bee/node-sides.js';
import { abPipeline } from '../ab/run.js';
import { markerFor, outcomeCounts } from './bundle.js';
import type { AbCounts } from '../verdict/index.js';
import { isForkPr, parsePayload, PullRequestEventSchema } from './context.js';
import {
  abOptions,
  announce,
  BuildFailure,
  flowResult,
  log,
  prebuild,
  reportBuildFailure,
  summarizeAndUpload,
  type FlowEnv,
  type FlowResult,
} from './flow-steps.js';
import { headSha } from './checkout.js';
import { postComment } from './pull-request.js';

export async function nodeAbFlow(env: FlowEnv): Promise<FlowResult> {
  const i = env.inputs;
  const nodes = i.nodeAb!;
  const client = { source: { kind: 'path' as const, path: i.path }, label: `${env.ctx.eventName || 'checkout'}@${(await headSha(i.path)).slice(0, 7)}` };
  const marker = `${markerFor(env.ctx.workflow, i.client)}:node`;
  if (i.measure.some(isDeterministic)) log(`measure: ${i.measure.join(',')} asked; a node A/B measures wall time only (one client build on both sides)`);
  let run: { markdown: string; marker: string; counts: AbCounts; result: FlowResult };
  try {
    await prebuild(env, 'head', i.client, client.source, i.buildCommand);
    const report = await withNodeSides(nodes, { log }, (n) =>
      core.group(
        `A/B of the Bee node: ${n.base.version} → ${n.head.version}, ${i.rounds} rounds interleaved`,
        async () =>
          (
            await abPipeline({
              ...abOptions(env, client, client),
              baseLabel: `bee ${n.base.version}`,
              headLabel: `bee ${n.head.version}`,
              measure: DEFAULT_MEASURE,
              nodes: n,
              marker,
              ...(env.trendUrl ? { trendUrl: env.trendUrl } : {}),
            })
          ).report,
      ),
    );
    announce(report, env.outDir);
    run = { markdown: report.markdown, marker, counts: report.counts, result: flowResult(report, i.failOn) };
  } catch (e) {
    if (!(e instanceof BuildFailure)) throw e;
    const f = reportBuildFailure(env, e, `bee-bench: ${i.client} node A/B`);
    run = { markdown: f.markdown, marker, counts: outcomeCounts({ kind: 'build-failed', failure: f.failure }), result: f.result };
  }
  await summarizeAndUpload(env, run.markdown);
  if (env.ctx.eventName === 'pull_request') {
    const ev = parsePayload(PullRequestEventSchema, env.ctx);
    await postComment(env, ev.pull_request.number, isForkPr(ev), run);
  } else if (i.comment !== 'never') log(`comment: a ${env.ctx.eventName || 'local'} run has no pull request to comment on; see the job summary`);
  return run.result;
}
