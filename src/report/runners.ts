// The runners a run was asked for and did not get (every report names them, with why and the
// fix), the Runners table both report formats draw, and the machine's load while it ran: what a
// reader asks before reading any figure.
import { RUNNER_LABEL, type AggregateModel, type NotRun } from './model.js';
import { formatBytes } from './units.js';

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

/** How one output format writes a Runners table cell: escaped text, code, and a not-run status. */
export interface RunnerMarkup {
  text(s: string): string;
  code(s: string): string;
  /** "**skipped**: <reason> (fix: <fix>)" in the format's own emphasis, escaped. */
  status(n: NotRun): string;
}

export const RUNNER_HEADERS = ['Runner', 'Status', 'Client', 'Version', 'Source', 'Runtime', 'Host', 'Bee', 'Started'] as const;

/** The Runners table's rows: one per runner that ran, then one per runner that did not (with why). */
export function runnerRows(model: AggregateModel, m: RunnerMarkup): string[][] {
  const ran = model.runners.map((r) => [
    m.text(r.label),
    'ran',
    m.code(r.client.name),
    `${m.text(r.client.version)}${r.client.commit ? ` (${m.code(r.client.commit.slice(0, 12))})` : ''}`,
    m.text(r.client.source),
    m.text(r.host.runtime),
    m.text(`${r.host.os}/${r.host.arch}, ${r.host.cpu_model}, ${r.host.cpus} CPUs, ${formatBytes(r.host.mem_mb * 2 ** 20)}`),
    r.bee ? m.text(r.bee.version) : 'none',
    m.text(r.startedAt),
  ]);
  const notRun = notRunOf(model).map((n) => [m.text(RUNNER_LABEL[n.runner]), m.status(n), ...Array<string>(RUNNER_HEADERS.length - 2).fill('—')]);
  return [...ran, ...notRun];
}
