// CSV and JSON downloads of exactly the rows a view shows, built in the page (Blob + object URL):
// nothing is fetched. CSV follows RFC 4180 and src/report's field rules (formula-looking text is
// prefixed with a quote so a spreadsheet does not run it).
import { csvField } from '../../src/report/escape.js';

export type Row = Record<string, string | number | boolean | null>;

export function toCsv(columns: readonly string[], rows: readonly Row[]): string {
  const lines = [columns.join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvField(r[c] ?? null)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function download(filename: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from ids and branch names: only [A-Za-z0-9._-] survive. */
export function fileName(...parts: string[]): string {
  return parts
    .map((p) => p.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, ''))
    .filter(Boolean)
    .join('-');
}
