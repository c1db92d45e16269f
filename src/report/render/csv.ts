// report.csv: one row per case x param x runner, raw numbers in base units (ns, bytes) so a
// spreadsheet or pandas gets the figures unrounded. RFC 4180: CRLF line ends, quoting per field.
// A runner the run was asked for and did not get (bee-go skipped) is a row of its own first: its
// runner, status and reason (with the fix), the case columns empty; a comment line would not be CSV.
import { csvField } from '../escape.js';
import { notRunOf, notRunReason } from '../model/tables.js';
import { RUNNER_LABEL, runnersOf, type AggregateModel } from '../model/types.js';
import { mbPerS } from '../units.js';
import { showsAllocations } from '../model/memory.js';
import { precisionText } from '../model/cell.js';
import type { Cell, Row } from '../model/types.js';

/** Why the cell's figure is low-precision, or that its row's ratio rests on another runner's that is; empty otherwise. */
function lowPrecisionField(row: Row, cell: Cell): string {
  if (cell.lowPrecision) return precisionText(row, cell.lowPrecision);
  return row.lowPrecision && cell.ratio !== undefined ? 'row: its ratio rests on a low-precision figure of another runner' : '';
}

export const CSV_COLUMNS = [
  'runner',
  'client_version',
  'case',
  'group',
  'kind',
  'label',
  'params',
  'status',
  'n',
  'median_ns',
  'min_ns',
  'max_ns',
  'mad_ns',
  'cv',
  'p95_ns',
  'ratio_to_fastest',
  'mb_per_s',
  'per_op_ns',
  'peak_rss_bytes',
  'cpu_wall_ratio',
  'digest',
  'skip_reason_or_error',
  'low_precision',
] as const;

/** Appended when some cell has allocation figures (--measure allocations): per op of work, raw. */
export const CSV_ALLOC_COLUMNS = ['allocs_per_op', 'alloc_bytes_per_op', 'memory_story'] as const;

export function renderCsv(model: AggregateModel): string {
  const runners = runnersOf(model);
  const version = new Map(model.runners.map((r) => [r.runner, r.client.version]));
  const withAlloc = showsAllocations(model);
  const header = [...CSV_COLUMNS, ...(withAlloc ? CSV_ALLOC_COLUMNS : [])];
  const lines = [header.join(',')];
  for (const n of notRunOf(model)) {
    const fields = header.map((column) => {
      if (column === 'runner') return RUNNER_LABEL[n.runner];
      if (column === 'status') return n.status;
      if (column === 'skip_reason_or_error') return notRunReason(n);
      return undefined;
    });
    lines.push(fields.map((f) => csvField(f)).join(','));
  }
  for (const g of model.groups) {
    for (const c of g.cases) {
      for (const row of c.rows) {
        for (const runner of runners) {
          const cell = row.cells[runner];
          if (!cell) continue;
          const fields: Array<string | number | undefined | null> = [
            RUNNER_LABEL[runner],
            version.get(runner),
            row.caseId,
            row.group,
            row.kind,
            row.label,
            JSON.stringify(cell.param),
            cell.status,
            cell.n,
            cell.medianNs,
            cell.minNs,
            cell.maxNs,
            cell.madNs,
            cell.cv,
            cell.p95Ns,
            cell.ratio,
            cell.bytesPerNs === undefined ? undefined : mbPerS(cell.bytesPerNs),
            cell.perOpNs,
            cell.peakRssBytes,
            cell.cpuWallRatio,
            cell.digest,
            cell.reason,
            lowPrecisionField(row, cell),
            ...(withAlloc ? [cell.alloc?.allocsPerOp, cell.alloc?.bytesPerOp, cell.alloc?.story] : []),
          ];
          lines.push(fields.map((f) => csvField(f)).join(','));
        }
      }
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
