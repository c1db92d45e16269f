// A row profile written back as a callgrind file (format version 1) that callgrind_annotate,
// KCachegrind and QCachegrind open: every function's own instructions and its calls per
// iteration (rounded), under the names shown in the report.
import type { RowProfile } from './row-profile.js';

/** Text callgrind's format cannot carry in a name (a line break would start a new line). */
const oneLine = (s: string) => s.replace(/[\r\n]/g, ' ');

export function callgrindText(p: RowProfile, title: string, name: (fn: string) => string = (f) => f): string {
  const fileIds = new Map<string, number>();
  const fnIds = new Map<string, number>();
  const ref = (ids: Map<string, number>, key: string) => {
    const id = ids.get(key);
    if (id !== undefined) return `(${id})`;
    ids.set(key, ids.size + 1);
    return `(${ids.size}) ${oneLine(key)}`;
  };
  const fileOf = (fn: string) => p.functions.get(fn)?.file || '???';
  const lines: string[] = [];
  let total = 0;
  for (const f of [...p.functions.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const self = Math.round(f.self);
    total += self;
    lines.push(`fl=${ref(fileIds, fileOf(f.name))}`, `fn=${ref(fnIds, name(f.name))}`, `0 ${self}`);
    for (const [callee, e] of p.edges.get(f.name) ?? []) {
      const calls = Math.max(1, Math.round(e.calls));
      lines.push(`cfl=${ref(fileIds, fileOf(callee))}`, `cfn=${ref(fnIds, name(callee))}`, `calls=${calls} 0`, `0 ${Math.round(e.ir)}`);
    }
  }
  return [
    '# callgrind format',
    'version: 1',
    'creator: bee-bench',
    `cmd: ${oneLine(title)}`,
    'desc: Instructions per timed iteration (the mean over the counted iterations)',
    'positions: line',
    'events: Ir',
    `summary: ${total}`,
    '',
    ...lines,
    `totals: ${total}`,
    '',
  ].join('\n');
}
