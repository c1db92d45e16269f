// The one place figures are scaled into units for people (benchstat's benchunit, in spirit).
// Every renderer (markdown, HTML, CSV headers aside, PR comment) formats through these functions,
// so "41.2 µs" means the same thing everywhere. Three significant digits throughout; CSV keeps raw
// numbers and never comes here.

/** Format v with three significant digits (trailing zeros kept: 3.10, 41.2, 812). */
export function sig3(v: number): string {
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return v.toPrecision(3);
}

/** The value sig3 would print, as a number, to pick a unit after rounding (999.7 ns is 1.00 µs). */
function rounded3(v: number): number {
  return Number(sig3(v));
}

const DASH = '—';

const TIME_UNITS: ReadonlyArray<{ unit: string; ns: number }> = [
  { unit: 'ns', ns: 1 },
  { unit: 'µs', ns: 1e3 },
  { unit: 'ms', ns: 1e6 },
  { unit: 's', ns: 1e9 },
];

/**
 * A duration in nanoseconds: "812 ns", "41.2 µs", "3.10 ms", "1.42 s", "2.1 min" (minutes with one
 * decimal from 60 s up). Negative durations (a fit's intercept) keep their sign.
 */
export function formatDuration(ns: number | null | undefined): string {
  if (ns == null || !Number.isFinite(ns)) return DASH;
  if (ns < 0) return `-${formatDuration(-ns)}`;
  if (ns === 0) return '0 ns';
  for (const u of TIME_UNITS) {
    const v = ns / u.ns;
    if (u.unit === 's') {
      if (rounded3(v) < 60) return `${sig3(v)} s`;
      break;
    }
    if (rounded3(v) < 1000) return `${sig3(v)} ${u.unit}`;
  }
  const min = ns / 60e9;
  return `${min < 100 ? min.toFixed(1) : min.toFixed(0)} min`;
}

/** Time per op: "59.0 µs/op", "2.75 s/SOC". */
export function formatPerOp(nsPerOp: number | null | undefined, opLabel = 'op'): string {
  if (nsPerOp == null || !Number.isFinite(nsPerOp)) return DASH;
  return `${formatDuration(nsPerOp)}/${opLabel}`;
}

/** The footnote every page with a throughput figure carries. */
export const THROUGHPUT_FOOTNOTE = 'MB/s and GB/s are decimal: 1 MB = 10^6 bytes (sizes use binary KiB/MiB/GiB).';

/** Bytes per nanosecond as the decimal MB/s figure (1 byte/ns = 1000 MB/s). */
export function mbPerS(bytesPerNs: number): number {
  return bytesPerNs * 1e3;
}

/** Throughput from bytes per nanosecond: "66.1 MB/s", "1.23 GB/s", "812 kB/s" (decimal units). */
export function formatThroughput(bytesPerNs: number | null | undefined): string {
  if (bytesPerNs == null || !Number.isFinite(bytesPerNs) || bytesPerNs < 0) return DASH;
  const mb = mbPerS(bytesPerNs);
  if (mb === 0) return '0 MB/s';
  if (rounded3(mb) >= 1000) return `${sig3(mb / 1e3)} GB/s`;
  if (mb < 1) return `${sig3(mb * 1e3)} kB/s`;
  return `${sig3(mb)} MB/s`;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A size in bytes, binary units: "512 B", "1.00 KiB", "235 MiB", "1.39 GiB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null || !Number.isFinite(bytes)) return DASH;
  if (bytes < 0) return `-${formatBytes(-bytes)}`;
  let v = bytes;
  let i = 0;
  while (i < BYTE_UNITS.length - 1 && rounded3(v) >= 1024) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(v)} B` : `${sig3(v)} ${BYTE_UNITS[i]}`;
}

/** A ratio: "1.00x", "1.14x", "12.7x", "221x". */
export function formatRatio(r: number | null | undefined): string {
  if (r == null || !Number.isFinite(r)) return DASH;
  return `${sig3(r)}x`;
}

/** One decimal below 100, none above: "3.1", "12.3", "150". */
function pct(v: number): string {
  const a = Math.abs(v);
  return a >= 99.95 ? v.toFixed(0) : v.toFixed(1);
}

/** A percentage change from a new/old ratio: 1.031 -> "+3.1%", 0.877 -> "-12.3%". */
export function formatChange(ratio: number | null | undefined): string {
  if (ratio == null || !Number.isFinite(ratio)) return DASH;
  const p = (ratio - 1) * 100;
  const s = pct(p).replace(/^-(0(\.0)?)$/, '$1');
  return s.startsWith('-') ? `${s}%` : `+${s}%`;
}

/**
 * A change in words, the one wording every output uses (comment, job summary, annotations,
 * compare, bisect, alerts): a time ratio reads "3.4% slower" / "1.2% faster", whatever unit the
 * figures beside it are shown in (MB/s rises as time falls, so a signed percent misled there);
 * a count or byte ratio reads "7.2% more" / "0.5% fewer". Below 0.05% either way: "no change".
 */
export function formatTimeChange(ratio: number | null | undefined): string {
  return changeWords(ratio, 'slower', 'faster');
}

/** A count or byte ratio in words: (1.072, 'bytes') -> "7.2% more bytes", (1, 'allocs') -> "no change in allocs". */
export function formatAmountChange(ratio: number | null | undefined, noun?: string): string {
  const words = changeWords(ratio, 'more', 'fewer');
  if (!noun || words === DASH) return words;
  return words === 'no change' ? `no change in ${noun}` : `${words} ${noun}`;
}

function changeWords(ratio: number | null | undefined, up: string, down: string): string {
  if (ratio == null || !Number.isFinite(ratio)) return DASH;
  const p = (ratio - 1) * 100;
  const size = pct(Math.abs(p));
  if (size === '0.0') return 'no change';
  return `${size}% ${p > 0 ? up : down}`;
}

/**
 * A row's noise floor beside its change: the wall interval's half-width or the A/A spread of a
 * deterministic figure, as a fraction: 0.0001 -> "±0.01%", 0.019 -> "±1.9%".
 */
export function formatNoise(fraction: number | null | undefined): string {
  if (fraction == null || !Number.isFinite(fraction)) return DASH;
  const p = Math.abs(fraction) * 100;
  return `±${p < 1 ? p.toFixed(2) : pct(p)}%`;
}

/**
 * A 95% interval of time ratios in words: [1.261, 1.339] -> "26.1–33.9% slower",
 * [0.964, 1.017] -> "3.6% faster … 1.7% slower".
 */
export function formatTimeInterval(ci: readonly [number, number] | null | undefined): string {
  if (!ci) return DASH;
  const [lo, hi] = [formatTimeChange(ci[0]), formatTimeChange(ci[1])];
  const same = /^([\d.]+)% (\w+)$/.exec(lo);
  const other = /^([\d.]+)% (\w+)$/.exec(hi);
  if (same && other && same[2] === other[2]) {
    // Both ends on one side: the smaller change first.
    const [a, b] = [same[1]!, other[1]!].sort((x, y) => Number(x) - Number(y));
    return `${a}–${b}% ${same[2]}`;
  }
  return `${lo} … ${hi}`;
}

/** A geomean shift in words: 0.877 -> "↓ 12.3% faster", 1.05 -> "↑ 5.0% slower". */
export function formatShift(ratio: number | null | undefined): string {
  if (ratio == null || !Number.isFinite(ratio)) return DASH;
  if (ratio < 1) return `↓ ${pct((1 - ratio) * 100)}% faster`;
  if (ratio > 1) return `↑ ${pct((ratio - 1) * 100)}% slower`;
  return '= unchanged';
}

/** A plain percentage given as a fraction: 0.052 -> "5.2%". */
export function formatPercent(fraction: number | null | undefined): string {
  if (fraction == null || !Number.isFinite(fraction)) return DASH;
  return `${pct(fraction * 100)}%`;
}

/** A p or q value: "< 0.001", "0.004", "0.03", "0.41", "1.00". */
export function formatP(p: number | null | undefined): string {
  if (p == null || !Number.isFinite(p)) return DASH;
  if (p < 0.001) return '< 0.001';
  if (p < 0.01) return p.toFixed(3);
  return p.toFixed(2);
}

/** A count with thousands separators: 10000 -> "10,000". */
export function formatCount(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return DASH;
  return Math.round(n).toLocaleString('en-US');
}

/** The unit a case's per-op figure is quoted in, from the spec's work.ops param names. */
export function opLabelOf(opNames: readonly string[]): string {
  if (opNames.length !== 1) return 'op';
  const name = opNames[0] ?? 'op';
  if (name === 'count') return 'op';
  // "lookups" -> "lookup", "files" -> "file", "reads" -> "read"
  return name.endsWith('s') && name.length > 1 ? name.slice(0, -1) : name;
}

/** The unit a set of durations reads best in (for a chart axis): the unit of their median value. */
export function durationAxisUnit(ns: readonly number[]): { unit: string; ns: number } {
  const v = [...ns].filter((x) => Number.isFinite(x) && x > 0).sort((a, b) => a - b);
  const mid = v[Math.floor(v.length / 2)];
  if (mid === undefined) return { unit: 'ms', ns: 1e6 };
  let pick: { unit: string; ns: number } = { unit: 'ns', ns: 1 };
  for (const u of TIME_UNITS) if (mid >= u.ns) pick = u;
  return { unit: pick.unit, ns: pick.ns };
}
