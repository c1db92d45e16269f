// Reads an experiment journal (journal.jsonl, or its run folder) line by line, never whole: each row
// is validated with the shared schema (../schema.ts) and folded into one record per unit (its
// upload, its sync wait, and only the first ok download attempt's time plus counts), so memory grows
// with the units, not with the attempts. A torn last line (a run killed mid-write) is skipped and
// reported; any other bad line stops the read with its file and line number.
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { JOURNAL_FILE, JournalRowSchema, type RunRow, type Strategy } from '../schema.js';

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

/** The journal file of a path that is the file itself or the run folder holding it. */
export function journalPath(path: string): string {
  return statSync(path).isDirectory() ? join(path, JOURNAL_FILE) : path;
}

export async function readJournal(path: string): Promise<Journal> {
  const file = journalPath(path);
  const stream = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let run: RunRow | undefined;
  const units = new Map<string, UnitRecord>();
  const notes: string[] = [];
  let rows = 0;
  let resumes = 0;
  let lineNo = 0;
  let pendingBad: { line: number; message: string } | undefined;

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

  for await (const text of lines) {
    lineNo++;
    if (pendingBad) throw badLine(file, pendingBad.line, pendingBad.message);
    if (text.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      // Only the last line may be torn; decide once the next line shows whether there is one.
      pendingBad = { line: lineNo, message: `not JSON (${(e as Error).message})` };
      continue;
    }
    const parsed = JournalRowSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badLine(file, lineNo, `${issue?.path.join('.') || 'row'}: ${issue?.message ?? 'invalid'}`);
    }
    rows++;
    const row = parsed.data;
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
  }
  if (pendingBad) notes.push(`${file}: the last line (${pendingBad.line}) is torn (${pendingBad.message}) and was skipped, as a resumed run does`);
  if (!run) throw new Error(`${file}: no "run" row; a journal starts with one (is this an experiment journal?)`);
  return { file, run, units: [...units.values()], rows, resumes, notes };
}

function badLine(file: string, line: number, message: string): Error {
  return new Error(`${file}:${line}: ${message}. Fix: the journal is written only by \`bee-bench experiment\`; restore the line or cut the file before it`);
}
