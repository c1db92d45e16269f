// `bee-bench history export-gab`: a result or record as github-action-benchmark JSON, or with
// --data-js history folders as its data.js.
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exportGab, exportGabData, parseRecord, readRecords, RECORD_SCHEMA_ID, renderGabDataJs, type HistoryRecord } from '../../history/index.js';
import { writeText } from '../../report/write.js';
import { InputError } from '../../spec/errors.js';
import { loadResult } from '../../spec/load.js';
import type { Result } from '../../spec/schema.js';
import { UsageError, type Values } from '../flags.js';
import type { CliCommand } from '../command.js';

export function historyExportGab(v: Values, paths: string[]): number {
  if (v['data-js']) {
    if (paths.length === 0) throw new UsageError('history export-gab --data-js needs history folders (holding runs/) or record files');
    writeOrPrint(v, renderGabDataJs(exportGabData(paths.flatMap((p) => historyRecords(resolve(p))))) + '\n');
    return 0;
  }
  if (paths.length !== 1) throw new UsageError('history export-gab needs one result or record file (or --data-js with history folders)');
  writeOrPrint(v, `${JSON.stringify(exportGab(resultOrRecord(resolve(paths[0]!))), null, 2)}\n`);
  return 0;
}

function writeOrPrint(v: Values, text: string): void {
  if (v.out) writeText(resolve(v.out), text);
  else process.stdout.write(text);
}

/** A result file, or a history record (recognised by its schema id). */
function resultOrRecord(file: string): Result | HistoryRecord {
  const text = readFileSync(file, 'utf8');
  let schema: unknown;
  try {
    schema = (JSON.parse(text) as { schema?: unknown } | null)?.schema;
  } catch {
    return loadResult(file); // names the file and the JSON error
  }
  return typeof schema === 'string' && schema.startsWith(RECORD_SCHEMA_ID.slice(0, RECORD_SCHEMA_ID.indexOf('@') + 1))
    ? parseRecord(file, text)
    : loadResult(file);
}

/** The valid records of a history folder (its runs/), or one record file; invalid ones stop the export. */
function historyRecords(path: string): HistoryRecord[] {
  if (!statSync(path).isDirectory()) return [parseRecord(path, readFileSync(path, 'utf8'))];
  const set = readRecords(path);
  if (set.invalid.length > 0)
    throw new InputError(join(path, set.invalid[0]!.file), [set.invalid[0]!.problem], 'fix or remove the invalid record before exporting');
  if (set.records.length === 0)
    throw new UsageError(`${path}: no records under runs/ (give the history folder, e.g. the bench/ folder of the gh-pages branch)`);
  return set.records.map((r) => r.record);
}

/** `bee-bench history export-gab`: its help, its flags and what it runs. */
export const historyExportGabCli: CliCommand = {
  name: 'history export-gab',
  usage: [
    'bee-bench history export-gab RESULT.json|RECORD.json [--out FILE]',
    'bee-bench history export-gab --data-js HISTORY_DIR|RECORD.json... [--out FILE]',
  ],
  summary: 'benches for github-action-benchmark, or a whole data.js back',
  details: 'Prints to stdout unless --out FILE is given.',
  fails: 'never (unreadable input is bad input: 2)',
  flags: ['out', 'data-js'],
  run: historyExportGab,
};
