// Skipped rows folded out of the comparison table: one line per skip reason, naming its cases.
// Without a Bee node every net.* case is skipped for the same reason, and seventeen identical rows
// would bury the ten that were measured.
import type { AbRow } from '../../verdict/index.js';
import { mdCode, mdText } from '../escape.js';

/** Cases named on a folded line before "and N more". */
const NAMED = 6;

/** The runners' shared reason for net cases without a node (runners/README.md). */
const NO_NODE = /^no Bee node given\b/;
const NO_NODE_HINT = 'To measure them, give a Bee node: action input `bee: dev` (or `bee-url` and `batch-id`), CLI `--bee dev`.';

export function foldSkipped(rows: readonly AbRow[]): { kept: AbRow[]; lines: string[] } {
  const byReason = new Map<string, AbRow[]>();
  for (const r of rows) {
    if (r.status !== 'skipped') continue;
    const reason = r.note ?? 'no reason given';
    byReason.set(reason, [...(byReason.get(reason) ?? []), r]);
  }
  const lines = [...byReason].map(([reason, skipped]) => {
    const cases = [...new Set(skipped.map((r) => r.caseId))];
    const named = cases.slice(0, NAMED).map(mdCode).join(', ') + (cases.length > NAMED ? ` and ${cases.length - NAMED} more` : '');
    const hint = NO_NODE.test(reason) ? `. ${NO_NODE_HINT}` : '';
    return `⏭ ${skipped.length} row${skipped.length === 1 ? '' : 's'} skipped: ${mdText(reason)}: ${named}${hint}`;
  });
  return { kept: rows.filter((r) => r.status !== 'skipped'), lines };
}
