// A row profile as a pprof profile (profile.proto, gzipped), so `go tool pprof` reads it and
// diffs two of them (`-diff_base`). Encoded here: the format is a handful of protobuf messages
// (github.com/google/pprof/proto/profile.proto), and only the fields pprof needs are written.
import { gzipSync } from 'node:zlib';

const varint = (n: number): number[] => {
  const out: number[] = [];
  let v = BigInt(Math.max(0, Math.round(n)));
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
};
const key = (field: number, wire: 0 | 2) => varint((field << 3) | wire);
const int = (field: number, n: number) => [...key(field, 0), ...varint(n)];
const bytes = (field: number, b: ArrayLike<number>) => [...key(field, 2), ...varint(b.length), ...Array.from(b)];
const packed = (field: number, ns: readonly number[]) => bytes(field, ns.flatMap(varint));

/** A pprof profile of `stacks` (root first), one sample type: instructions per iteration. */
export function pprofBytes(stacks: ReadonlyArray<{ stack: string[]; ir: number }>, name: (fn: string) => string = (f) => f): Buffer {
  const strings = [''];
  const str = new Map<string, number>([['', 0]]);
  const s = (t: string) => {
    let i = str.get(t);
    if (i === undefined) {
      i = strings.length;
      strings.push(t);
      str.set(t, i);
    }
    return i;
  };
  const fnIds = new Map<string, number>();
  const fid = (fn: string) => {
    let i = fnIds.get(fn);
    if (i === undefined) fnIds.set(fn, (i = fnIds.size + 1));
    return i;
  };
  const out: number[] = [];
  out.push(...bytes(1, [...int(1, s('instructions')), ...int(2, s('count'))]));
  for (const { stack, ir } of stacks) {
    const value = Math.round(ir);
    if (value <= 0) continue;
    // Location ids equal function ids (one location per function); leaf first.
    out.push(...bytes(2, [...packed(1, [...stack].reverse().map(fid)), ...packed(2, [value])]));
  }
  for (const [fn, id] of fnIds) {
    out.push(...bytes(4, [...int(1, id), ...bytes(4, int(1, id))]));
    const shown = s(name(fn));
    out.push(...bytes(5, [...int(1, id), ...int(2, shown), ...int(3, shown)]));
  }
  for (const t of strings) out.push(...bytes(6, Buffer.from(t, 'utf8')));
  out.push(...bytes(11, [...int(1, s('instructions')), ...int(2, s('count'))]), ...int(12, 1));
  return gzipSync(Buffer.from(out));
}
