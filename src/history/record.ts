// One run of one runner as an immutable history record (docs/design.md, "History store"): built from a result
// file plus the run's context, named by its run, and read back with validation that names the file
// and the field. Pure: no file system here (read.ts walks runs/).
import { EVIDENCES } from '../evidence/registry.js';
import { HEAP_ALLOCS_METRICS, HEAP_BYTES_METRICS } from '../evidence/history-metrics.js';
import { InputError, describeIssues, parseJson } from '../spec/errors.js';
import type { CaseResult, Result } from '../spec/schema.js';
import { madRaw, max, median, min } from '../stats/index.js';
import { stableJsonPretty } from './json.js';
import { allocationMedians } from '../verdict/allocations.js';
import { HistoryRecordSchema, RECORD_SCHEMA_ID, RECORD_SCHEMAS, type HistoryRecord, type RecordCase, type RecordCounts } from './schema.js';

/** What the result file does not know: the commit measured and the CI run that measured it. */
export interface RecordContext {
  commit: { sha: string; message: string; author: string; timestamp: string; url?: string };
  branch: string;
  /** GitHub event name (push, schedule, workflow_dispatch, ...) or e.g. "local". */
  event: string;
  run: { id: string; attempt?: number; url?: string };
}

/** A record with the path it is (or will be) stored at, relative to the history folder. */
export interface LoadedRecord {
  path: string;
  record: HistoryRecord;
}

/** A file under runs/ that is not a valid record: kept as is, reported, excluded from derived files. */
export interface InvalidRecord {
  file: string;
  problem: string;
}

/** The series label of a result row: its `label` param, else its params as `k=v, ...`. */
export function labelOf(param: Readonly<Record<string, number | string | boolean>>): string {
  const label = param['label'];
  if (typeof label === 'string' && label.length > 0) return label;
  return Object.keys(param)
    .filter((k) => k !== 'label')
    .sort()
    .map((k) => `${k}=${String(param[k])}`)
    .join(', ');
}

/** Summary figures of one case result; stats are null when there are no samples. MAD is unscaled (madRaw). */
export function recordCase(c: CaseResult): RecordCase {
  const s = c.samples_ns;
  const has = s.length > 0;
  const out: RecordCase = {
    id: c.id,
    kind: c.kind,
    label: labelOf(c.param),
    param: c.param,
    status: c.status,
    n: s.length,
    median_ns: has ? median(s) : null,
    min_ns: has ? min(s) : null,
    max_ns: has ? max(s) : null,
    mad_ns: has ? madRaw(s) : null,
    samples_ns: [...s],
    work: { ...c.work },
    peak_rss_bytes: c.peak_rss_bytes,
  };
  const reason = c.status === 'skipped' ? c.skip_reason : c.status === 'failed' ? c.error : undefined;
  if (reason) out.reason = reason;
  if (c.digest) out.digest = c.digest;
  const metrics = { ...allocationMetrics(c), ...(c.status === 'ok' ? evidenceMetrics(c) : {}) };
  if (Object.keys(metrics).length > 0) out.metrics = metrics;
  const counts = c.status === 'ok' ? countFigures(c) : undefined;
  if (counts) out.instructions = counts;
  return out;
}

/** The metrics the evidences keep in history (estimated cycles: their `historyMetrics`), merged. */
function evidenceMetrics(c: CaseResult): Record<string, number> {
  return Object.assign({}, ...Object.values(EVIDENCES).map((ev) => ('historyMetrics' in ev && ev.historyMetrics?.(c)) || {})) as Record<string, number>;
}

/** Work units of one iteration, what time and counts are divided by over time: bytes, else ops, else 1. */
export function workUnits(work: Readonly<{ ops?: number | undefined; bytes?: number | undefined }>): number {
  return (work.bytes ?? 0) > 0 ? work.bytes! : (work.ops ?? 0) > 0 ? work.ops! : 1;
}

/** A counted case's instructions: the median per iteration, and per op / per byte of its work. */
export function countFigures(c: Pick<CaseResult, 'instructions' | 'work'>): RecordCounts | undefined {
  const s = c.instructions;
  if (!s || s.length === 0) return undefined;
  const m = median(s);
  const { ops, bytes } = c.work;
  return {
    samples: [...s],
    median: m,
    ...(ops !== undefined && ops > 0 ? { per_op: m / ops } : {}),
    ...(bytes !== undefined && bytes > 0 ? { per_byte: m / bytes } : {}),
  };
}

/** Units of the allocation figures in RecordCase.metrics (docs/design.md "Allocations"). */
export const ALLOC_METRICS = {
  bytesPerIteration: HEAP_BYTES_METRICS.perIteration,
  allocsPerIteration: HEAP_ALLOCS_METRICS.perIteration,
  bytesPerOp: HEAP_BYTES_METRICS.perOp,
  allocsPerOp: HEAP_ALLOCS_METRICS.perOp,
} as const;

/** A case's allocation figures as metrics: the median per iteration, and per op of work (per iteration without ops). */
export function allocationMetrics(c: Pick<CaseResult, 'alloc_bytes' | 'allocs' | 'work'>): Record<string, number> | undefined {
  const m = allocationMedians(c);
  if (!m) return undefined;
  return {
    [ALLOC_METRICS.bytesPerIteration]: m.bytes,
    [ALLOC_METRICS.bytesPerOp]: m.bytesPerOp,
    ...(m.allocs !== undefined && m.allocsPerOp !== undefined
      ? { [ALLOC_METRICS.allocsPerIteration]: m.allocs, [ALLOC_METRICS.allocsPerOp]: m.allocsPerOp }
      : {}),
  };
}

/** Result + run context -> record, validated (a bad context is named field by field). */
export function toRecord(result: Result, ctx: RecordContext): HistoryRecord {
  const candidate: HistoryRecord = {
    schema: RECORD_SCHEMA_ID,
    commit: { ...ctx.commit, sha: ctx.commit.sha.toLowerCase() },
    branch: ctx.branch,
    event: ctx.event,
    run: { ...ctx.run },
    runner: result.runner,
    client: result.client,
    host: result.host,
    bee: result.bee,
    spec: result.spec,
    started_at: result.started_at,
    finished_at: result.finished_at,
    cases: result.cases.map(recordCase),
  };
  if (result.counter && candidate.cases.some((c) => c.instructions)) candidate.counter = { ...result.counter };
  const parsed = HistoryRecordSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new InputError(
      `history record of the ${result.runner} result`,
      describeIssues(parsed.error),
      'pass a run context with a hex commit sha, ISO timestamps and non-empty branch, event and run id',
    );
  }
  return parsed.data;
}

/** 2026-11-20T23:15:00.123+00:00 -> 20261120T231500Z (UTC, whole seconds). */
export function compactTimestamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a timestamp: ${iso}`);
  return `${d.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/** A run id as a file-name segment: [A-Za-z0-9._-] only, at most 80 characters. */
export function fileSegment(s: string): string {
  const safe = s.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
  return safe.length === 0 || /^\.+$/.test(safe) ? '_' : safe;
}

/** runs/YYYY/MM/<timestamp>-<sha7>-<runner>-<run_id>.json, all from the record (UTC start time). */
export function recordPath(r: Pick<HistoryRecord, 'started_at' | 'commit' | 'runner' | 'run'>): string {
  const ts = compactTimestamp(r.started_at);
  return `runs/${ts.slice(0, 4)}/${ts.slice(4, 6)}/${ts}-${r.commit.sha.slice(0, 7)}-${r.runner}-${fileSegment(r.run.id)}.json`;
}

/** The exact bytes a record is stored as (sorted keys, two-space indent, samples on one line). */
export function serializeRecord(r: HistoryRecord): string {
  return stableJsonPretty(r);
}

const SCHEMA_FAMILY = RECORD_SCHEMA_ID.slice(0, RECORD_SCHEMA_ID.indexOf('@') + 1);

/** Whether a parsed document is a history record (any version), not a result. */
export const isRecord = (doc: { schema: string }): doc is HistoryRecord => (RECORD_SCHEMAS as readonly string[]).includes(doc.schema);

/** Parses and validates a stored record; throws InputError naming the file and each bad field. */
export function parseRecord(file: string, text: string): HistoryRecord {
  const value = parseJson(file, text);
  const schema = value !== null && typeof value === 'object' ? (value as { schema?: unknown }).schema : undefined;
  if (typeof schema === 'string' && !(RECORD_SCHEMAS as readonly string[]).includes(schema) && schema.startsWith(SCHEMA_FAMILY)) {
    throw new InputError(
      file,
      [`schema: unknown record version "${schema}" (this bee-bench reads ${RECORD_SCHEMAS.join(' and ')})`],
      'upgrade bee-bench to read it; the record is left untouched',
    );
  }
  const parsed = HistoryRecordSchema.safeParse(value);
  if (!parsed.success)
    throw new InputError(
      file,
      describeIssues(parsed.error),
      `a history record must match ${RECORD_SCHEMAS.join(' or ')} (src/history/schema.ts); the file is left untouched`,
    );
  return parsed.data;
}

/** parseRecord, but a bad file becomes an InvalidRecord instead of an exception. */
export function tryParseRecord(file: string, text: string): LoadedRecord | InvalidRecord {
  try {
    return { path: file, record: parseRecord(file, text) };
  } catch (e) {
    if (e instanceof InputError) return { file, problem: e.problems.join('; ') };
    throw e;
  }
}
