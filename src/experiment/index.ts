// The experiment's entry point for the CLI and the action: build the chosen runner (src/build, as
// the other pipelines do), open the run folder's session and run the phases asked for, always
// closing the runners and the journal; a SIGINT/SIGTERM kills the runners and leaves the journal
// as it stands (every row already fsync'd), ready to be continued.
import { buildRunner, type ClientSource } from '../build/index.js';
import type { RunnerCommand } from '../build/builder.js';
import { downloadPhase, syncPhase, uploadPhase } from './phases.js';
import type { Design } from './schema.js';
import { closeSession, openSession, type RunnerName, type Session } from './session.js';

export type PhaseName = 'upload' | 'sync' | 'download';

export interface ExperimentOptions {
  dir: string;
  design?: Design;
  runner: RunnerName;
  /** How the runner is built; or `command` to use one already built. */
  source?: ClientSource;
  cacheDir?: string;
  buildCommand?: string;
  command?: RunnerCommand;
  phases: readonly PhaseName[];
  log: (line: string) => void;
}

const RUN: Record<PhaseName, (s: Session) => Promise<void>> = { upload: uploadPhase, sync: syncPhase, download: downloadPhase };

export async function runExperiment(o: ExperimentOptions): Promise<void> {
  const command =
    o.command ??
    (await buildRunner({ runner: o.runner, source: o.source ?? { kind: 'registry' }, cacheDir: o.cacheDir, buildCommand: o.buildCommand, log: o.log })).command;
  const s = await openSession({ dir: o.dir, design: o.design, runner: o.runner, command, log: o.log });
  const onSignal = (signal: NodeJS.Signals) => {
    o.log(`experiment: ${signal}: stopping; the journal holds every finished row (continue with the same --out)`);
    for (const r of s.runners.values()) r.kill();
    s.journal.close();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (const p of o.phases) await RUN[p](s);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await closeSession(s);
  }
}

export { runStatus } from './status.js';
export { designFromWords, loadDesign } from './design.js';
