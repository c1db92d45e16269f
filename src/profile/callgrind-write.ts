// A row profile written back as a callgrind file (format version 1) that callgrind_annotate,
// KCachegrind and QCachegrind open: every function's own instructions and its calls per
// iteration (rounded), under the names shown in the report. Where the dumps had line records a
// function's cost is written by source line (`fi=`/`fe=` for lines of code inlined from another
// file, calls at the line they were made from), with files named as the report shows them, from
// the client's source root, and library code inlined into client code at the client's line it came
// from (source-lines.ts): `callgrind_annotate --auto=yes -I <checkout>` annotates the client's sources.
import { splitLineKey } from './callgrind-read.js';
import type { RowProfile } from './row-profile.js';
import { placer, shownFiles } from './source-lines.js';

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
  const shown = shownFiles(p);
  const { place } = placer(p);
  const fileOf = (fn: string) => shown(p.functions.get(fn)?.file ?? '') || '???';
  const lines: string[] = [];
  let total = 0;
  for (const f of [...p.functions.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const home = fileOf(f.name);
    lines.push(`fl=${ref(fileIds, home)}`, `fn=${ref(fnIds, name(f.name))}`);
    // Own cost and calls by line, grouped by file; what no line holds stays at line 0 of the function's file.
    // By file, then line (a function's lines can be thousands: bee-go's runtime with instruction addresses).
    const byFile = new Map<string, Map<number, { line: number; self: number; calls: Map<string, number> }>>();
    for (const [key, l] of f.lines) {
      // Code inlined from a library is written at the client's line it came from, where traced (source-lines.ts).
      const { src, line } = place(key, l);
      const s = src.shown || shown(splitLineKey(key).file) || home;
      const at = byFile.get(s) ?? new Map<number, { line: number; self: number; calls: Map<string, number> }>();
      byFile.set(s, at);
      const same = at.get(line);
      if (!same) at.set(line, { line, self: l.self, calls: new Map(l.calls) });
      else {
        same.self += l.self;
        for (const [callee, ir] of l.calls) same.calls.set(callee, (same.calls.get(callee) ?? 0) + ir);
      }
    }
    let restSelf = f.self;
    const restCalls = new Map([...(p.edges.get(f.name) ?? [])].map(([callee, e]) => [callee, { ...e }]));
    const callLines = (callee: string, at: number, ir: number) => {
      const e = p.edges.get(f.name)?.get(callee);
      const rest = restCalls.get(callee);
      if (!e || !rest || e.ir <= 0) return;
      const calls = Math.min(rest.calls, e.calls * (ir / e.ir));
      rest.calls -= calls;
      rest.ir -= ir;
      lines.push(
        `cfl=${ref(fileIds, fileOf(callee))}`,
        `cfn=${ref(fnIds, name(callee))}`,
        `calls=${Math.max(1, Math.round(calls))} 0`,
        `${at} ${Math.round(ir)}`,
      );
    };
    const files = [...byFile.keys()].sort((a, b) => (a === home ? -1 : b === home ? 1 : a.localeCompare(b)));
    for (const file of files) {
      if (file !== home) lines.push(`fi=${ref(fileIds, file)}`);
      for (const l of [...byFile.get(file)!.values()].sort((a, b) => a.line - b.line)) {
        const self = Math.round(l.self);
        if (self !== 0) lines.push(`${l.line} ${self}`);
        total += self;
        restSelf -= l.self;
        for (const [callee, ir] of l.calls) callLines(callee, l.line, ir);
      }
      if (file !== home) lines.push(`fe=${ref(fileIds, home)}`);
    }
    const rest = Math.round(restSelf);
    if (rest !== 0 || f.lines.size === 0) lines.push(`0 ${rest}`);
    total += rest;
    for (const [callee, e] of restCalls) {
      if (Math.round(e.ir) <= 0 && f.lines.size > 0) continue;
      lines.push(
        `cfl=${ref(fileIds, fileOf(callee))}`,
        `cfn=${ref(fnIds, name(callee))}`,
        `calls=${Math.max(1, Math.round(e.calls))} 0`,
        `0 ${Math.round(e.ir)}`,
      );
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
