// Markdown building blocks shared by the report, the compare page and the PR comment. Cells passed
// in are already escaped (escape.ts) or generated markup; these helpers only lay them out.

export type Align = 'left' | 'right' | 'center';

const RULE: Record<Align, string> = { left: '---', right: '---:', center: ':---:' };

/** A GFM table. Cells must already be escaped; empty cells print as a dash. */
export function mdTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, align: readonly Align[] = []): string {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => (c === '' ? '—' : c)).join(' | ')} |`;
  const rule = `|${headers.map((_, i) => RULE[align[i] ?? 'left']).join('|')}|`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

/** A blockquote of one or more already-escaped lines. */
export function mdQuote(lines: readonly string[]): string {
  return lines.map((l) => (l === '' ? '>' : `> ${l}`)).join('\n');
}

/** A collapsed section; body is markdown (a blank line after <summary> lets GitHub render it). */
export function mdDetails(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

/** Join blocks with one blank line, dropping empty ones; ends with a newline. */
export function mdBlocks(blocks: ReadonlyArray<string | null | undefined | false>): string {
  return `${blocks.filter((b): b is string => typeof b === 'string' && b.length > 0).join('\n\n')}\n`;
}
