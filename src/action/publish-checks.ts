// What the publish job checks in a measure job's publish.json before a single file is written:
// the records it would append name the run's commit with the commit's real time, cases and labels
// the spec defines, and sizes a real run has. A check that fails refuses the whole artifact with one
// line saying what and why; rows of other clients in a client's own artifact are left out (the job
// that wrote them ran that client's code). Kept over the result files (src/spec/schema.ts), so the
// record format (src/history) can grow without this file.
import { serializeRecord, toRecord, type RecordContext } from '../history/record.js';
import { MAX_RUN_PROFILES_BYTES } from '../history/profiles.js';
import type { RunProfiles } from '../profile/schema.js';
import type { LoadedSpec } from '../spec/load.js';
import type { Result, Runner } from '../spec/schema.js';
import type { PublishBundle } from './publish-bundle.js';
import type { TrustedCommit } from './publish-source.js';

export const PUBLISH_CAPS = {
  /** Timed iterations of one case (the full profile runs 1000 of the longest-running case). */
  samplesPerCase: 10_000,
  /** Parameters of one case's row. */
  paramsPerCase: 32,
  /** Records one publish appends: one per client. */
  recordsPerPublish: 3,
} as const;

/**
 * The bytes one publish may add to the history branch, summed before anything is written: each
 * record file, its profile side file, and a point in a series file for every row. A record of
 * every quick case with 1,000 samples each (the full profile's most) is about 0.4 MB: a record
 * may be five times that, a publish of three clients' records ten times.
 */
export const WRITE_BUDGET = {
  /** One record file. */
  recordBytes: 2 << 20,
  /** Everything one publish adds: records, side files, series points. */
  publishBytes: 4 << 20,
  /** What one point adds to a series file at most: its text fields are capped (TEXT_CAPS), the rest are numbers. */
  pointBytes: 2048,
} as const;

/** How long after the present a run may claim to have happened (the history's own skew, src/history/store.ts). */
const FUTURE_SLACK_MS = 10 * 60_000;

/** How long before its commit's time a run may claim to have started (committers' clocks drift). */
const CLOCK_SLACK_MS = 24 * 3600_000;

export class PublishRefusal extends Error {
  override name = 'PublishRefusal';
}

export interface BundleExpectation {
  /** The client the artifact's name gives it, or undefined for the nightly's merged artifact (every client). */
  client?: Runner;
  /** The commit of the run, with its time, from the API. */
  commit: TrustedCommit;
  spec: LoadedSpec;
  /** The present (ms), for refusing a run dated after it; default Date.now(). */
  now?: number;
}

/** The results of publish.json that may be appended, and a line for each left out; throws PublishRefusal otherwise. */
export function acceptedResults(b: PublishBundle, e: BundleExpectation): { results: Result[]; notes: string[] } {
  const sha = e.commit.sha;
  if (e.client && b.client !== e.client) throw new PublishRefusal(`publish.json names client ${b.client}, but this is ${e.client}'s artifact`);
  if (b.head_sha !== sha || b.commit.sha !== sha) throw new PublishRefusal(`it is for ${b.commit.sha.slice(0, 12)}, the run measured ${sha.slice(0, 12)}`);
  if (Date.parse(b.commit.timestamp) !== Date.parse(e.commit.timestamp))
    throw new PublishRefusal(`commit.timestamp ${b.commit.timestamp} is not the time of ${sha.slice(0, 12)} (${e.commit.timestamp}, from the API)`);
  const notes: string[] = [];
  const results = b.results.filter((r) => {
    if (!e.client || r.runner === e.client) return true;
    notes.push(`the ${r.runner} result in ${e.client}'s artifact is left out: the job that wrote it ran ${e.client}'s code`);
    return false;
  });
  const runners = new Set<Runner>();
  for (const r of results) {
    if (runners.has(r.runner)) throw new PublishRefusal(`two ${r.runner} results in one artifact`);
    runners.add(r.runner);
    checkResult(r, e);
  }
  if (results.length === 0) throw new PublishRefusal(`no result of ${e.client ?? 'any client'} in it`);
  return { results, notes };
}

function checkResult(r: Result, e: BundleExpectation): void {
  const what = `the ${r.runner} result`;
  if (r.spec.hash !== e.spec.hash)
    throw new PublishRefusal(
      `${what} names spec ${r.spec.hash.slice(0, 12)}, this job's spec is ${e.spec.hash.slice(0, 12)}: measure and publish with one bee-bench version`,
    );
  const earliest = Date.parse(e.commit.timestamp) - CLOCK_SLACK_MS;
  for (const [field, at] of [
    ['started_at', r.started_at],
    ['finished_at', r.finished_at],
  ] as const) {
    if (at && Date.parse(at) < earliest) throw new PublishRefusal(`${what}'s ${field} ${at} is before its commit was made (${e.commit.timestamp})`);
    if (at && Date.parse(at) > (e.now ?? Date.now()) + FUTURE_SLACK_MS) throw new PublishRefusal(`${what}'s ${field} ${at} is in the future`);
  }
  // Every row a (case, label) of the spec for the result's profile, once: the series it can make are the spec's.
  const labels = new Map(e.spec.spec.cases.map((c) => [c.id, new Set((c.params[r.spec.profile] ?? []).map((p) => p.label))]));
  const seen = new Set<string>();
  for (const c of r.cases) {
    const known = labels.get(c.id);
    if (!known) throw new PublishRefusal(`${what} has case ${JSON.stringify(c.id.slice(0, 100))}, which is not in the spec`);
    const label = typeof c.param['label'] === 'string' ? c.param['label'] : '';
    if (!known.has(label))
      throw new PublishRefusal(
        `${what} has case ${c.id} with label ${JSON.stringify(label.slice(0, 100))}, which the spec's ${r.spec.profile} profile does not define`,
      );
    const key = `${c.id}\u0000${label}`;
    if (seen.has(key)) throw new PublishRefusal(`${what} has case ${c.id} [${label}] twice`);
    seen.add(key);
    if (Object.keys(c.param).length > PUBLISH_CAPS.paramsPerCase)
      throw new PublishRefusal(`${what} has case ${c.id} with more than ${PUBLISH_CAPS.paramsPerCase} params`);
    const longest = Math.max(c.samples_ns.length, c.cpu_ns.length, c.instructions?.length ?? 0, c.allocs?.length ?? 0, c.alloc_bytes?.length ?? 0);
    if (longest > PUBLISH_CAPS.samplesPerCase)
      throw new PublishRefusal(`${what} has case ${c.id} with ${longest} samples, more than the ${PUBLISH_CAPS.samplesPerCase} a run takes`);
  }
}

/**
 * The bound on what one publish writes, checked before it writes: at most one record per client and
 * only series the spec defines, so the files it adds are at most records + the spec's series.
 */
export function checkWriteBound(results: readonly Result[]): void {
  if (results.length > PUBLISH_CAPS.recordsPerPublish)
    throw new PublishRefusal(`${results.length} records in one publish, more than the ${PUBLISH_CAPS.recordsPerPublish} (one per client) it writes`);
  const runners = results.map((r) => r.runner);
  const twice = runners.find((r, i) => runners.indexOf(r) !== i);
  if (twice) throw new PublishRefusal(`two ${twice} records in one publish (two artifacts for one client)`);
}

/**
 * The compact profiles of publish.json that go with the accepted results: only of their runners,
 * and only rows those results counted (a profile of a row the record does not hold is left out,
 * with a note). The schema already capped names, lists and rows; the store caps the file's bytes.
 */
export function acceptedProfiles(b: PublishBundle, results: readonly Result[]): { profiles: RunProfiles[]; notes: string[] } {
  const notes: string[] = [];
  const profiles: RunProfiles[] = [];
  for (const p of b.profiles ?? []) {
    const result = results.find((r) => r.runner === p.runner);
    if (!result) {
      notes.push(`the ${p.runner} profiles are left out: no accepted ${p.runner} result`);
      continue;
    }
    if (profiles.some((q) => q.runner === p.runner)) throw new PublishRefusal(`two ${p.runner} profile sets in one artifact`);
    const counted = new Set(result.cases.filter((c) => c.status === 'ok' && c.instructions).map((c) => `${c.id}\u0000${String(c.param['label'] ?? '')}`));
    const rows = p.rows.filter((row) => counted.has(`${row.caseId}\u0000${row.label}`) && row.runner === p.runner);
    if (rows.length < p.rows.length) notes.push(`${p.rows.length - rows.length} ${p.runner} profile row(s) left out: not a row the ${p.runner} result counted`);
    if (rows.length > 0) profiles.push({ runner: p.runner, rows });
  }
  return { profiles, notes };
}

const mib = (n: number) => `${(n / (1 << 20)).toFixed(1)} MiB`;

/**
 * What one artifact's accepted results would add to the history branch: each record as the store
 * serialises it, its side file, and a series point per ok row. Throws PublishRefusal naming the
 * record and its size when a record alone is over the budget.
 */
export function writeCost(results: readonly Result[], profiles: readonly RunProfiles[], ctx: RecordContext): number {
  let total = 0;
  for (const r of results) {
    const bytes = Buffer.byteLength(serializeRecord(toRecord(r, ctx)));
    if (bytes > WRITE_BUDGET.recordBytes) {
      const samples = r.cases.reduce((n, c) => n + c.samples_ns.length + (c.instructions?.length ?? 0), 0);
      throw new PublishRefusal(
        `the ${r.runner} record would be ${mib(bytes)} (cases: ${r.cases.length} rows, ${samples} samples), more than the ${mib(WRITE_BUDGET.recordBytes)} a record may be`,
      );
    }
    const side = profiles.some((p) => p.runner === r.runner) ? MAX_RUN_PROFILES_BYTES : 0;
    total += bytes + side + r.cases.filter((c) => c.status === 'ok').length * WRITE_BUDGET.pointBytes;
  }
  return total;
}

/**
 * The artifacts that fit the publish's budget, in order: each one's cost is added while the sum
 * stays within WRITE_BUDGET.publishBytes; one that would pass it is refused with a line saying so.
 */
export function withinBudget<T extends { cost: number; name: string }>(items: readonly T[]): { kept: T[]; refused: string[] } {
  const kept: T[] = [];
  const refused: string[] = [];
  let sum = 0;
  for (const it of items) {
    if (sum + it.cost > WRITE_BUDGET.publishBytes)
      refused.push(
        `artifact ${it.name} refused: it would write ${mib(it.cost)}, and with the ${mib(sum)} before it this publish would pass its budget of ${mib(WRITE_BUDGET.publishBytes)}; not appended`,
      );
    else {
      kept.push(it);
      sum += it.cost;
    }
  }
  return { kept, refused };
}
