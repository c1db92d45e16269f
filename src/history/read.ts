// Reading runs/ of a history folder: every *.json file under it, validated one by one. A bad file
// is reported (file and field) and skipped; it is never modified, moved or deleted.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tryParseRecord, type InvalidRecord, type LoadedRecord } from './record.js';

export const RUNS_DIR = 'runs';

export interface RecordSet {
  /** Sorted by path. */
  records: LoadedRecord[];
  /** Sorted by file. */
  invalid: InvalidRecord[];
}

/** Record files under <folder>/runs, as paths relative to folder ("runs/2026/11/....json"), sorted. */
export function listRecordFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries;
    try {
      entries = readdirSync(join(folder, rel), { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else if (e.isFile() && e.name.endsWith('.json')) out.push(child);
    }
  };
  walk(RUNS_DIR);
  return out.sort();
}

export function readRecords(folder: string): RecordSet {
  const set: RecordSet = { records: [], invalid: [] };
  for (const file of listRecordFiles(folder)) {
    const got = tryParseRecord(file, readFileSync(join(folder, file), 'utf8'));
    if ('record' in got) set.records.push(got);
    else set.invalid.push(got);
  }
  return set;
}
