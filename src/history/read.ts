// Reading runs/ of a history folder: every *.json file under it, validated one by one. A bad file
// is reported (file and field) and skipped; it is never modified, moved or deleted.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tryParseRecord, type InvalidRecord, type LoadedRecord } from './record.js';

export const RUNS_DIR = 'runs';

export interface RecordSet {
  /** Sorted by path. */
  records: LoadedRecord[];
  /** Sorted by file. */
  invalid: InvalidRecord[];
}

/** A symlink error: the branch's tree would lead a write or a read outside the clone. */
export class HistoryLinkError extends Error {
  constructor(readonly path: string) {
    super(
      `history: ${path} is a symbolic link in the history branch; writing or reading through it could reach files outside the clone, so nothing was published. Fix: remove the link from the branch (git rm) and publish again`,
    );
    this.name = 'HistoryLinkError';
  }
}

/** The first component of `rel` under `root` that is a symbolic link ("a", "a/b", ...), or undefined; stops at one that is absent. */
export function linkOnPath(root: string, rel: string): string | undefined {
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  for (let i = 1; i <= parts.length; i++) {
    const at = parts.slice(0, i).join('/');
    let link: boolean;
    try {
      link = lstatSync(join(root, at)).isSymbolicLink();
    } catch {
      return undefined;
    }
    if (link) return at;
  }
  return undefined;
}

/**
 * Record files under <folder>/runs, as paths relative to folder ("runs/2026/11/....json"), sorted.
 * Throws HistoryLinkError for a symbolic link at runs/ or anywhere under it: a read never follows one.
 */
export function listRecordFiles(folder: string): string[] {
  const out: string[] = [];
  const top = linkOnPath(folder, RUNS_DIR);
  if (top) throw new HistoryLinkError(top);
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
      if (e.isSymbolicLink()) throw new HistoryLinkError(child);
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
