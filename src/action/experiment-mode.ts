// mode: experiment: the Bee release experiment (src/experiment, docs/experiment.md) as an action
// step: one phase (or all, or the report) on a run folder in the workspace, through the runner
// named by `client`, built on its registry client. The folder is the state: a workflow restores
// it (cache or artifact) to continue a run and saves it after, whatever the step's outcome.
import * as core from '@actions/core';
import { join } from 'node:path';
import { loadDesign, runExperiment, runStatus, type PhaseName } from '../experiment/index.js';
import { experimentReport } from '../experiment/report/index.js';
import { NOTHING, type FlowResult } from './flow-steps.js';
import type { ActionInputs } from './inputs.js';

const PHASES: Record<Exclude<ActionInputs['experiment']['command'], 'report'>, readonly PhaseName[]> = {
  run: ['upload', 'sync', 'download'],
  upload: ['upload'],
  wait: ['sync'],
  download: ['sync', 'download'],
};

const log = (line: string) => core.info(line);

export async function experimentFlow(inputs: ActionInputs, cacheDir: string): Promise<FlowResult> {
  const e = inputs.experiment;
  if (e.command === 'report') {
    const r = await experimentReport({ journals: [e.out], out: join(e.out, 'report'), alpha: inputs.alpha });
    await core.summary.addRaw(`${r.summary}\n`).write();
    core.setOutput('report-path', join(e.out, 'report'));
    core.setOutput('results-path', e.out);
    return NOTHING;
  }
  await runExperiment({
    dir: e.out,
    ...(e.design ? { design: loadDesign(e.design) } : {}),
    runner: inputs.client!,
    source: { kind: 'registry' },
    cacheDir,
    ...(inputs.buildCommand ? { buildCommand: inputs.buildCommand } : {}),
    phases: PHASES[e.command],
    log,
  });
  const st = await runStatus(e.out);
  await core.summary.addCodeBlock(st.text).write();
  core.setOutput('results-path', e.out);
  return NOTHING;
}
