// The experiment's journal (journal.jsonl in the run folder): append-only, one JSON row per line,
// each line written and fsync'd before the next step, so a run killed at any point (kill -9
// included) keeps every row it finished. Reading streams the file line by line into a fold of
// per-unit state (what is uploaded, synced, downloaded): memory grows with the units, never with
// the rows or the payloads. A torn last line (the write the kill interrupted) is cut off, kept
// in journal.torn beside it and reported; a bad line anywhere else is an error naming its line.
import { appendFileSync, closeSync, createReadStream, existsSync, fstatSync, fsyncSync, openSync, readSync, ftruncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describeIssues, InputError } from '../spec/errors.js';
import { JOURNAL_FILE, JOURNAL_SCHEMA, JournalRowSchema, type JournalRow, type RunRow } from './schema.js';

export interface UploadState {
  ok: boolean;
  sha256: string;
  reference?: string;
  tag?: number;
}

export interface DownloadState {
  /** Attempts journaled so far. */
  attempts: number;
  ok: boolean;
}

export interface JournalState {
  run?: RunRow;
  uploads: Map<string, UploadState>;
  synced: Map<string, boolean>;
  downloads: Map<string, DownloadState>;
  /** Phases with a "done" row. */
  phasesDone: Set<string>;
  rows: number;
  resumes: number;
  /** The torn last line cut off when the journal was opened for writing (undefined: none). */
  torn?: string;
}

export const journalPath = (dir: string): string => join(dir, JOURNAL_FILE);

const emptyState = (): JournalState => ({
  uploads: new Map(),
  synced: new Map(),
  downloads: new Map(),
  phasesDone: new Set(),
  rows: 0,
  resumes: 0,
});

/** Adds one row to the fold. */
export function foldRow(s: JournalState, row: JournalRow): void {
  s.rows++;
  switch (row.type) {
    case 'run':
      s.run = row;
      break;
    case 'upload':
      s.uploads.set(row.unit, {
        ok: row.ok,
        sha256: row.sha256,
        ...(row.reference ? { reference: row.reference } : {}),
        ...(row.tag !== undefined ? { tag: row.tag } : {}),
      });
      break;
    case 'sync':
      s.synced.set(row.unit, row.synced);
      break;
    case 'download': {
      const d = s.downloads.get(row.unit) ?? { attempts: 0, ok: false };
      d.attempts = Math.max(d.attempts, row.attempt);
      d.ok ||= row.ok;
      s.downloads.set(row.unit, d);
      break;
    }
    case 'phase':
      if (row.state === 'done') s.phasesDone.add(row.phase);
      break;
    case 'resume':
      s.resumes++;
      break;
  }
}

/** Whether the file's last byte is a newline (an empty file counts as complete). */
function endsComplete(file: string): { size: number; complete: boolean } {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return { size, complete: true };
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return { size, complete: b[0] === 0x0a };
  } finally {
    closeSync(fd);
  }
}

/**
 * Streams the journal's complete lines through `onRow` (every row checked with the schema).
 * A last line without its newline is torn: it is returned, not read.
 */
export async function readJournal(dir: string, onRow: (row: JournalRow, line: number) => void): Promise<{ torn?: string; completeBytes: number }> {
  const file = journalPath(dir);
  if (!existsSync(file)) throw new InputError(file, ['no journal here'], `start a run with \`bee-bench experiment run --out ${dir}\``);
  const { size, complete } = endsComplete(file);
  let completeBytes = size;
  let torn: string | undefined;
  if (!complete) {
    // Find the start of the torn line: the byte after the last newline.
    const fd = openSync(file, 'r');
    try {
      const tail = Math.min(size, 1 << 20);
      const b = Buffer.alloc(tail);
      readSync(fd, b, 0, tail, size - tail);
      const nl = b.lastIndexOf(0x0a);
      completeBytes = nl < 0 ? size - tail : size - tail + nl + 1;
      torn = b.subarray(nl + 1).toString('utf8');
    } finally {
      closeSync(fd);
    }
  }
  if (completeBytes === 0) return { torn, completeBytes };
  const lines = createInterface({ input: createReadStream(file, { start: 0, end: completeBytes - 1 }), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new InputError(
        `${file}:${n}`,
        ['not JSON (a journal is append-only: only its last line may be torn)'],
        'restore the file or start a new run folder',
      );
    }
    const r = JournalRowSchema.safeParse(json);
    if (!r.success) throw new InputError(`${file}:${n}`, describeIssues(r.error), `a ${JOURNAL_SCHEMA} row`);
    onRow(r.data, n);
  }
  return { torn, completeBytes };
}

/** The journal's fold (no writing). */
export async function loadJournal(dir: string): Promise<JournalState> {
  const s = emptyState();
  const { torn } = await readJournal(dir, (row) => foldRow(s, row));
  if (torn !== undefined) s.torn = torn;
  return s;
}

/** An open journal: rows are appended and fsync'd one by one; the fold stays current. */
export class JournalWriter {
  private constructor(
    private fd: number,
    readonly file: string,
    readonly state: JournalState,
  ) {}

  /**
   * Opens dir's journal for appending: reads what is there (a torn last line is cut off, kept in
   * journal.torn and named in state.torn) or starts an empty one.
   */
  static async open(dir: string): Promise<JournalWriter> {
    const file = journalPath(dir);
    const state = emptyState();
    if (!existsSync(file)) {
      const fd = openSync(file, 'a');
      return new JournalWriter(fd, file, state);
    }
    const { torn, completeBytes } = await readJournal(dir, (row) => foldRow(state, row));
    const fd = openSync(file, 'r+');
    if (torn !== undefined) {
      appendFileSync(join(dir, 'journal.torn'), `${torn}\n`);
      ftruncateSync(fd, completeBytes);
      fsyncSync(fd);
      state.torn = torn;
    }
    closeSync(fd);
    return new JournalWriter(openSync(file, 'a'), file, state);
  }

  /** Appends one row (checked with the schema first) and fsyncs it. */
  append(row: JournalRow): void {
    const checked = JournalRowSchema.parse(row);
    writeSync(this.fd, `${JSON.stringify(checked)}\n`);
    fsyncSync(this.fd);
    foldRow(this.state, checked);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

export const now = (): string => new Date().toISOString();
