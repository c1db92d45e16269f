// An experiment into the history branch: its summary (bee-bench/experiment-summary@1, the pooled
// per-cell comparisons and the one-paragraph summary) written through the history's locked git
// writer (src/history/store.ts) beside the benchmark records, with the trend site copied in the
// same commit, so the site's experiments page lists it.
import { EXPERIMENT_SUMMARY_SCHEMA, ExperimentIdSchema, siteDir, writeHistory, type ExperimentSummary, type WriteReport } from '../../history/index.js';
import type { Analysis } from '../analysis/analyse.js';

const orNull = (v: number) => (Number.isFinite(v) ? v : null);

/** The id of an experiment: its run ids joined ("run" for one run, "runA__runB" for compare A B). */
export function experimentId(a: Analysis): string {
  const id = a.journals.map((j) => j.runId).join('__');
  const ok = ExperimentIdSchema.safeParse(id);
  if (!ok.success) throw new Error(`experiment id "${id}" (from the run ids) is not a safe file name: ${ok.error.issues[0]?.message}. Fix: pass id`);
  return id;
}

export function experimentSummary(a: Analysis, id = experimentId(a)): ExperimentSummary {
  const latest = a.journals.map((j) => j.createdAt).sort();
  return {
    schema: EXPERIMENT_SUMMARY_SCHEMA,
    id,
    created_at: latest[latest.length - 1]!,
    mode: a.mode,
    arms: a.arms.map((x) => ({ label: x.label, release: x.release, run_id: x.runId, nodes: x.nodes, client: x.client, runner: x.runner })),
    alpha: a.options.alpha,
    power_shift: a.options.powerShift,
    summary: a.summary,
    totals: { units: a.totals.units, downloads: a.totals.downloads, failed_units: a.totals.failedUnits, failed_attempts: a.totals.failedAttempts },
    sync_ceilings: a.sync.reduce((s, x) => s + x.ceilingReached, 0),
    cells: a.comparisons
      .filter((c) => c.scope === 'pooled')
      .map((c) => ({
        family: c.family,
        size: c.size,
        level: c.level,
        strategy: c.strategy,
        ...(c.arm !== undefined ? { arm: c.arm } : {}),
        a: c.aLabel,
        b: c.bLabel,
        n_a: c.a.n,
        n_b: c.b.n,
        median_a_s: orNull(c.a.median),
        median_b_s: orNull(c.b.median),
        shift_s: orNull(c.shift),
        lo_s: orNull(c.lo),
        hi_s: orNull(c.hi),
        relative: orNull(c.relative),
        p: orNull(c.p),
        q: orNull(c.q),
        direction: c.direction,
        failures_a: c.a.failures,
        failures_b: c.b.failures,
        replicates_needed: orNull(c.replicatesNeeded),
      })),
  };
}

export interface PublishExperimentOptions {
  remote: string;
  /** Token for an HTTP(S) remote (never in argv or the URL). */
  token?: string;
  workdir: string;
  /** Default gh-pages. */
  branch?: string;
  /** Default "bench". */
  folder?: string;
  /** Default: the run ids joined. */
  id?: string;
  log?: (line: string) => void;
}

export function publishExperiment(a: Analysis, o: PublishExperimentOptions): Promise<WriteReport> {
  const summary = experimentSummary(a, o.id);
  const site = siteDir();
  return writeHistory([], {
    remote: o.remote,
    workdir: o.workdir,
    ...(o.token ? { token: o.token } : {}),
    ...(o.branch ? { branch: o.branch } : {}),
    ...(o.folder ? { folder: o.folder } : {}),
    ...(site ? { siteDir: site } : {}),
    ...(o.log ? { log: o.log } : {}),
    experiments: [summary],
  });
}
