// push, workflow_dispatch and every other non-PR event: a single run of the head (the checkout at
// `path`, or head-ref in a worktree), or, when base-ref is given, an A/B between the two refs.
// Results go to the outputs, the job summary and an artifact; there is no pull request to comment on.
import * as core from '@actions/core';
import { readFileSync } from 'node:fs';
import { resolveRef, headSha, worktree, worktreeDir } from './checkout.js';
import { alertsApply, raiseAlerts, recordsBeforeAppend } from './alerts.js';
import { appendHistory, NO_HISTORY, refName, trendUrl } from './history.js';
import { headCommit } from '../history/index.js';
import { writePublishBundle } from './publish-bundle.js';
import {
  BuildFailure,
  flowResult,
  log,
  NOTHING,
  reportBuildFailure,
  runAbPipeline,
  runSinglePipeline,
  summarizeAndUpload,
  type FlowEnv,
  type FlowResult,
  type SideSource,
} from './flow-steps.js';

async function sideAt(env: FlowEnv, ref: string): Promise<SideSource> {
  const sha = await resolveRef(env.inputs.path, ref, log);
  const dir = await worktree(env.inputs.path, sha, worktreeDir(env.ctx.temp, sha), log);
  // A sha names itself; a branch or tag is shown with the commit it resolved to.
  const label = /^[0-9a-f]{7,40}$/.test(ref) && sha.startsWith(ref) ? sha.slice(0, 7) : `${ref}@${sha.slice(0, 7)}`;
  return { source: { kind: 'path', path: dir }, label };
}

export async function refsFlow(env: FlowEnv): Promise<FlowResult> {
  const { inputs, ctx } = env;
  if (inputs.comment !== 'never') log(`comment: a ${ctx.eventName || 'local'} run has no pull request to comment on; see the job summary`);
  const { head, base } = await core.group('git: refs', async () => {
    const head: SideSource = inputs.headRef
      ? await sideAt(env, inputs.headRef)
      : { source: { kind: 'path', path: inputs.path }, label: `${ctx.eventName || 'checkout'}@${(await headSha(inputs.path)).slice(0, 7)}` };
    const base = inputs.baseRef ? await sideAt(env, inputs.baseRef) : undefined;
    log(base ? `A/B: base ${base.label}, head ${head.label}` : `single run of ${head.label}`);
    return { head, base };
  });
  const title = `bee-bench: ${inputs.client} ${base ? `${base.label} → ` : ''}${head.label}`;
  const failedBuild = async (e: unknown): Promise<FlowResult> => {
    if (!(e instanceof BuildFailure)) throw e;
    const f = reportBuildFailure(env, e, title);
    await summarizeAndUpload(env, f.markdown);
    return f.result;
  };
  if (base) {
    try {
      const run = await runAbPipeline(env, base, head);
      await summarizeAndUpload(env, run.markdown);
      return flowResult(run, env.inputs.failOn);
    } catch (e) {
      return failedBuild(e);
    }
  }
  let out;
  try {
    // The measure input: counts (where valgrind is) judge the alerts and keep the compact profiles.
    out = await runSinglePipeline(env, head, inputs.measure);
  } catch (e) {
    return failedBuild(e);
  }
  // The records for the publish job (mode: publish) travel in the artifact as data.
  if (!inputs.headRef)
    writePublishBundle(env.outDir, {
      client: inputs.client,
      event: ctx.eventName || 'local',
      ref: refName(env),
      commit: headCommit(inputs.path),
      results: out.results,
      profiles: out.profiles,
    });
  let summary = readFileSync(out.reports.markdown, 'utf8');
  let regressions = 0;
  let alertFailure: unknown;
  if (inputs.history === 'gh-pages') {
    if (inputs.headRef) log('history: not appended: head-ref measures another commit than the checkout the history would name');
    else {
      const alerting = alertsApply(env);
      const before = alerting ? await recordsBeforeAppend(env) : NO_HISTORY;
      await core.group('history: append', () => appendHistory(env, out.results, log, out.profiles));
      const url = trendUrl(env);
      if (url) summary += `\n[Trend charts](${url})\n`;
      const result = out.results.find((r) => r.runner === inputs.client);
      if (alerting && result) {
        // An API failure must not cost the summary and the artifact: they are written first.
        try {
          const alerts = await raiseAlerts(
            env,
            result,
            before,
            undefined,
            out.profiles.find((p) => p.runner === result.runner),
          );
          regressions = alerts.regressions;
          summary += `\n${alerts.summary}\n`;
        } catch (e) {
          alertFailure = e;
          summary += `\n**Alerts failed**: ${e instanceof Error ? e.message : String(e)}\n`;
        }
      }
    }
  }
  await summarizeAndUpload(env, summary);
  if (alertFailure) throw alertFailure;
  const own = out.results.find((r) => r.runner === inputs.client);
  return { ...NOTHING, regressions, failed: own?.cases.filter((c) => c.status === 'failed').length ?? 0 };
}
