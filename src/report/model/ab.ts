// The A/B model (docs/design.md "PR comment"): what every A/B renderer reads (the comment and
// job summary, ab.json, the fork-safe comment job's bundle, an alert's table): the input a
// pipeline builds once from its judged rows (src/ab), the order rows are shown in, and the
// evidence columns a report shows (from the evidences' views, src/evidence/views.ts).
import { COLUMN_VIEWS, settingOf, type EvidenceEnv } from '../../evidence/views.js';
import type { MeasureKind } from '../../spec/measure.js';
import type { Host, RunSize, Runner } from '../../spec/schema.js';
import { wallOf, type AbRow, type LoadShift } from '../../verdict/index.js';
import type { ProfileDiff } from '../../profile/schema.js';
import type { AggregateModel } from './types.js';

export interface AbReportInput {
  title: string;
  /** Hidden HTML comment identifying workflow + client; the sticky comment is found by it. */
  marker: string;
  runner: Runner;
  /** Refs or shas of the two sides. */
  baseLabel: string;
  headLabel: string;
  rows: AbRow[];
  alpha: number;
  threshold: number;
  rounds: number;
  profile: RunSize;
  env: EvidenceEnv & {
    host: Host | string;
    clientBase: string;
    clientHead: string;
    specHash: string;
    wallTimeMs: number;
    stoppedEarly?: boolean | string;
    /** Set when the machine's load moved during the rounds (src/verdict loadShift). */
    loadShift?: LoadShift;
    /** A node A/B: each side's Bee node ("Bee 2.8.0-41d6efc6 (dev node of …)"); one client build on both sides. */
    nodes?: { base: string; head: string };
  };
  /** Aggregate of the other runners (released versions) for context. */
  crossClient?: AggregateModel;
  trendUrl?: string;
  /** Set when base is the branch's history instead of a build of the base in this job. */
  baseline?: { kind: 'history'; branch: string; runs: number };
  /** Flagged rows' function profile differences (src/profile): "Where it moved" under the table. */
  profiles?: ProfileDiff[];
}

/** The evidences with a column of their own a table shows. */
export type Evidence = ReadonlySet<MeasureKind>;

const isRegression = (r: AbRow) => r.status === 'ok' && r.verdict === 'regression';
const isImprovement = (r: AbRow) => r.status === 'ok' && r.verdict === 'improvement';
export const isUnchanged = (r: AbRow) => r.status === 'ok' && !isRegression(r) && !isImprovement(r);

/** Regressions (largest first), improvements (largest first), then the rest in input order. */
export function orderRows(rows: readonly AbRow[]): AbRow[] {
  const ratio = (r: AbRow) => wallOf(r)?.ratio ?? 1;
  const regressions = rows.filter(isRegression).sort((a, b) => ratio(b) - ratio(a));
  const improvements = rows.filter(isImprovement).sort((a, b) => ratio(a) - ratio(b));
  const rest = rows.filter((r) => !isRegression(r) && !isImprovement(r));
  return [...regressions, ...improvements, ...rest];
}

/** The evidences with a column in this report: asked for (their settings are there) or seen on a row. */
export function columnsOf(input: { env: EvidenceEnv; rows: readonly AbRow[] }): Evidence {
  return new Set(
    COLUMN_VIEWS.filter((v) => settingOf(input.env, v.kind) !== undefined || input.rows.some((r) => r.evidence[v.kind] !== undefined)).map((v) => v.kind),
  );
}
