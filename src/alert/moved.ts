// Where an alerting counted row moved: the difference between the last good run's compact profile
// of the row (its side file in the history store, src/history/profiles.ts) and the alerting run's
// (from its own artifact), with the PR's difference (src/profile/compact.ts). Pure data: the
// publish job runs no client code, it diffs two validated lists of names and numbers. When either
// side has no profile of the row, the reason, for the issue to say plainly.
import type { HistoryRecord } from '../history/schema.js';
import { diffCompact, type ProfileDiff, type RunProfiles } from '../profile/index.js';
import type { RunSize, Runner } from '../spec/schema.js';
import type { AbRow } from '../verdict/index.js';

export type Moved = { diff: ProfileDiff; since: string } | { none: string };

export interface MovedSources {
  client: Runner;
  branch: string;
  profile: RunSize;
  /** The branch's records before this run. */
  records: readonly HistoryRecord[];
  /** A record's side file of compact profiles, or why it has none. */
  profilesOf: (r: HistoryRecord) => RunProfiles | string;
  /** This run's compact profiles of the client, when it kept any. */
  current?: RunProfiles;
}

const short = (sha: string) => sha.slice(0, 7);

/** For a counted row (undefined for others): its difference from the last good run `since`, or why there is none. */
export function movedFinder(s: MovedSources): (row: AbRow, since: string | null) => Moved | undefined {
  const cache = new Map<HistoryRecord, RunProfiles | string>();
  const profilesOf = (r: HistoryRecord) => {
    if (!cache.has(r)) cache.set(r, s.profilesOf(r));
    return cache.get(r)!;
  };
  const find = (rows: RunProfiles['rows'], row: AbRow) => rows.find((p) => p.caseId === row.caseId && p.label === row.label);
  return (row, since) => {
    if (!row.evidence.instructions?.judged) return undefined;
    if (!since) return { none: 'there is no earlier run of the branch to compare with' };
    const now = s.current ? find(s.current.rows, row) : undefined;
    if (!now) return { none: 'this run kept no function profile of the row' };
    const good = s.records
      .filter((r) => r.commit.sha === since && r.runner === s.client && r.branch === s.branch && r.spec.profile === s.profile)
      .sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at))[0];
    if (!good) return { none: `the last good run (${short(since)}) is not in the history store` };
    const kept = profilesOf(good);
    if (typeof kept === 'string') return { none: `the last good run (${short(since)}) has no function profile on record (${kept})` };
    const before = find(kept.rows, row);
    if (!before) return { none: `the last good run (${short(since)}) has no function profile of this row on record` };
    return { diff: diffCompact(before, now), since };
  };
}
