// Reads an experiment journal for the analysis: the journal's own streaming reader (../journal.ts:
// line by line, every row checked with the shared schema, a torn last line left out) folded into
// one record per unit (its upload, its sync wait, and only the first ok download attempt's time
// plus counts), so memory grows with the units, not with the attempts. A torn last line (a run
// killed mid-write) is reported in the notes; a bad line stops the read naming its file and line.
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { readJournal as streamJournal } from '../journal.js';
import { JOURNAL_FILE, type RunRow, type Strategy } from '../schema.js';

export interface UnitRecord {
  unit: string;
  node: string;
  release: string;
  size: number;
  level: number;
  strategy: Strategy;
  rep: number;
  /** Upload time in ms; null when the unit has no upload row or the upload failed. */
  uploadMs: number | null;
  uploadOk: boolean | null;
  uploadError?: string;
  sync?: { signal: 'tag' | 'stewardship' | 'none'; synced: boolean; waitedMs: number; detail?: string };
  /** ms of the first ok attempt (the download time); null when none succeeded (yet). */
  downloadMs: number | null;
  /** Attempt number of the first ok attempt. */
  okAttempt: number | null;
  /** Download attempts recorded, ok or not. */
  attempts: number;
  /** Failed attempts recorded (before the ok one, or all of them). */
  failedAttempts: number;
  lastError?: string;
}

export interface Journal {
  file: string;
  run: RunRow;
  units: UnitRecord[];
  /** Rows read (complete lines). */
  rows: number;
  resumes: number;
  /** Said in the report: e.g. a torn last line that was skipped. */
  notes: string[];
}

/** The run folder of a path that is the folder or its journal.jsonl. */
export function runFolder(path: string): string {
  if (statSync(path).isDirectory()) return path;
  if (basename(path) === JOURNAL_FILE) return dirname(path);
  throw new Error(`${path}: not a run folder or its ${JOURNAL_FILE}. Fix: give the folder \`bee-bench experiment run --out\` wrote`);
}

export async function readJournal(path: string): Promise<Journal> {
  const dir = runFolder(path);
  const file = `${dir}/${JOURNAL_FILE}`;
  let run: RunRow | undefined;
  const units = new Map<string, UnitRecord>();
  const notes: string[] = [];
  let rows = 0;
  let resumes = 0;
  const unitOf = (r: { unit: string; node: string; release: string; size: number; level: number; strategy: Strategy; rep: number }) => {
    let u = units.get(r.unit);
    if (!u) {
      u = {
        unit: r.unit,
        node: r.node,
        release: r.release,
        size: r.size,
        level: r.level,
        strategy: r.strategy,
        rep: r.rep,
        uploadMs: null,
        uploadOk: null,
        downloadMs: null,
        okAttempt: null,
        attempts: 0,
        failedAttempts: 0,
      };
      units.set(r.unit, u);
    }
    return u;
  };

  const { torn } = await streamJournal(dir, (row, lineNo) => {
    rows++;
    switch (row.type) {
      case 'run':
        if (run) throw badLine(file, lineNo, 'a second "run" row: a journal holds one run');
        run = row;
        break;
      case 'resume':
        resumes++;
        break;
      case 'phase':
        break;
      case 'upload': {
        const u = unitOf(row);
        u.uploadOk = row.ok;
        u.uploadMs = row.ok ? row.ms : null;
        if (row.error !== undefined) u.uploadError = row.error;
        break;
      }
      case 'sync': {
        const u = units.get(row.unit);
        if (!u) throw badLine(file, lineNo, `sync row for unit "${row.unit}" before its upload row`);
        u.sync = { signal: row.signal, synced: row.synced, waitedMs: row.waited_ms, ...(row.detail !== undefined ? { detail: row.detail } : {}) };
        break;
      }
      case 'download': {
        const u = unitOf(row);
        u.attempts++;
        if (row.ok) {
          if (u.downloadMs === null) {
            u.downloadMs = row.ms;
            u.okAttempt = row.attempt;
          }
        } else {
          u.failedAttempts++;
          if (row.error !== undefined) u.lastError = row.error;
        }
        break;
      }
    }
  });
  if (torn !== undefined)
    notes.push(`${file}: its last line is torn (${torn.length} bytes without a newline, a write the run did not finish) and was left out`);
  if (!run) throw new Error(`${file}: no "run" row; a journal starts with one (is this an experiment journal?)`);
  return { file, run, units: [...units.values()], rows, resumes, notes };
}

function badLine(file: string, line: number, message: string): Error {
  return new Error(`${file}:${line}: ${message}. Fix: the journal is written only by \`bee-bench experiment\`; restore the line or cut the file before it`);
}
