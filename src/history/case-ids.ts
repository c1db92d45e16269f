// Records are immutable: one written before a case was renamed keeps the old id in its file. Every
// reader that judges or charts records sees them under today's ids (the spec's `formerly`,
// src/spec/aliases.ts), so an old series and a new run form one series, one baseline, one alert.
import { currentId, type CaseAliases } from '../spec/aliases.js';
import type { LoadedRecord } from './record.js';
import type { HistoryRecord } from './schema.js';

/** The record with each case under its current id; the same object when nothing was renamed. */
export function withCurrentIds(record: HistoryRecord, aliases: CaseAliases): HistoryRecord {
  if (!record.cases.some((c) => aliases.has(c.id))) return record;
  return { ...record, cases: record.cases.map((c) => (aliases.has(c.id) ? { ...c, id: currentId(aliases, c.id) } : c)) };
}

/** withCurrentIds over loaded records (their paths unchanged). */
export function loadedWithCurrentIds(records: readonly LoadedRecord[], aliases: CaseAliases): LoadedRecord[] {
  return records.map((l) => {
    const record = withCurrentIds(l.record, aliases);
    return record === l.record ? l : { ...l, record };
  });
}
