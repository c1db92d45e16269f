// Kill-and-resume for the experiment tests: the CLI in a process of its own (`experiment run`),
// SIGKILLed once the journal holds a given number of download rows, then the same command again
// until it finishes; and the check that the journal lost and repeated nothing.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { JournalRowSchema, type DownloadRow, type JournalRow, type UploadRow } from '../../src/experiment/schema.js';

const ROOT = join(import.meta.dirname, '..', '..');

export function journalRows(dir: string): JournalRow[] {
  const text = readFileSync(join(dir, 'journal.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JournalRowSchema.parse(JSON.parse(l)));
}

const countDownloads = (dir: string): number => {
  const file = join(dir, 'journal.jsonl');
  if (!existsSync(file)) return 0;
  return (readFileSync(file, 'utf8').match(/"type":"download"/g) ?? []).length;
};

/** Runs the CLI; with killAt, SIGKILLs it (its whole group) once the journal has that many download rows. Bounded by limitMs. */
export function cliRun(
  args: string[],
  o: { killAt?: number; dir: string; limitMs: number },
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const limit = setTimeout(() => {
      kill();
      reject(new Error(`experiment CLI did not finish within ${o.limitMs} ms; stderr:\n${stderr.slice(-3000)}`));
    }, o.limitMs);
    const watch =
      o.killAt === undefined
        ? undefined
        : setInterval(() => {
            if (countDownloads(o.dir) >= o.killAt!) kill();
          }, 20);
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      if (watch) clearInterval(watch);
      resolve({ code, signal, stderr });
    });
  });
}

/** Every unit uploaded once and downloaded with attempts 1..k, none twice; every unit has an ok attempt or used up `attempts`. */
export function expectNothingLostOrRepeated(rows: readonly JournalRow[], units: number, attempts: number): void {
  expect(rows.filter((r) => r.type === 'run')).toHaveLength(1);
  const uploads = rows.filter((r): r is UploadRow => r.type === 'upload');
  expect(uploads).toHaveLength(units);
  expect(new Set(uploads.map((u) => u.unit)).size).toBe(units);
  const syncs = rows.filter((r) => r.type === 'sync').map((r) => (r as { unit: string }).unit);
  expect(new Set(syncs).size).toBe(syncs.length);
  const byUnit = new Map<string, DownloadRow[]>();
  for (const r of rows) if (r.type === 'download') byUnit.set(r.unit, [...(byUnit.get(r.unit) ?? []), r]);
  expect(byUnit.size).toBe(uploads.filter((u) => u.ok).length);
  for (const [unit, list] of byUnit) {
    expect(
      list.map((r) => r.attempt),
      unit,
    ).toEqual(list.map((_, i) => i + 1));
    const firstOk = list.findIndex((r) => r.ok);
    expect(firstOk === -1 ? list.length : firstOk + 1, `${unit}: attempts after its first ok one, or too few`).toBe(firstOk === -1 ? attempts : list.length);
  }
}
