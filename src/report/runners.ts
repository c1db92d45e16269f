// The runners a run was asked for and did not get (every report names them, with why and the
// fix), and the machine's load while it ran: what a reader asks before reading any figure.
import { RUNNER_LABEL, type AggregateModel, type NotRun } from './model.js';

export function notRunOf(model: AggregateModel): NotRun[] {
  return model.notRun ?? [];
}

/** "bee-go skipped: <reason> (fix: <fix>)". Plain text: the caller escapes. */
export function notRunLine(n: NotRun): string {
  return `${RUNNER_LABEL[n.runner]} ${n.status}: ${n.reason}${n.fix ? ` (fix: ${n.fix})` : ''}`;
}

/** A 5-minute load average above the CPU count: processes queued for a CPU during the run. */
export function loaded(model: AggregateModel): boolean {
  const e = model.environment;
  return e !== undefined && e.loadAverage[1] > e.cpus;
}

/** The environment line under the Runners table; null without environment data. `esc` escapes text. */
export function environmentLine(model: AggregateModel, esc: (s: string) => string): string | null {
  const e = model.environment;
  if (!e) return null;
  const avg = e.loadAverage.map((v) => v.toFixed(2)).join(' / ');
  const text = `Environment: load average ${avg} (1 / 5 / 15 min, at the end of the run) on ${e.cpus} CPUs.`;
  return esc(
    loaded(model)
      ? `⚠ ${text} The machine was loaded: wall times include waiting for a CPU and read high; ratios between runners that ran one after the other can move with the load.`
      : text,
  );
}
