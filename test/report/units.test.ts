// Tests of how figures and units are written.
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatChange,
  formatDuration,
  formatTimeInterval,
  formatTimeChange,
  formatAmountChange,
  formatP,
  formatPercent,
  formatPerOp,
  formatRatio,
  formatShift,
  formatThroughput,
  opLabelOf,
  sig3,
} from '../../src/report/units.js';

describe('units', () => {
  it('scales durations with three significant digits', () => {
    expect(formatDuration(812)).toBe('812 ns');
    expect(formatDuration(41_234)).toBe('41.2 µs');
    expect(formatDuration(3_100_000)).toBe('3.10 ms');
    expect(formatDuration(1_420_000_000)).toBe('1.42 s');
    expect(formatDuration(126e9)).toBe('2.1 min');
    expect(formatDuration(0)).toBe('0 ns');
    expect(formatDuration(0.25)).toBe('0.250 ns');
    expect(formatDuration(-2_500_000)).toBe('-2.50 ms');
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(Number.NaN)).toBe('—');
  });

  it('moves to the next unit when rounding reaches 1000 (or 60 s)', () => {
    expect(formatDuration(999.7)).toBe('1.00 µs');
    expect(formatDuration(999_960)).toBe('1.00 ms');
    expect(formatDuration(59.996e9)).toBe('1.0 min');
    expect(formatDuration(59.9e9)).toBe('59.9 s');
  });

  it('formats per-op times', () => {
    expect(formatPerOp(59_000)).toBe('59.0 µs/op');
    expect(formatPerOp(2.75e9, 'SOC')).toBe('2.75 s/SOC');
  });

  it('turns bytes/ns into decimal MB/s', () => {
    // 1 MiB in 15.85 ms = 66.16 MB/s (decimal)
    expect(formatThroughput(1_048_576 / 15_850_000)).toBe('66.2 MB/s');
    expect(formatThroughput(0.397)).toBe('397 MB/s');
    expect(formatThroughput(1.234)).toBe('1.23 GB/s');
    expect(formatThroughput(0.0008)).toBe('800 kB/s');
    expect(formatThroughput(undefined)).toBe('—');
  });

  it('formats sizes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1024)).toBe('1.00 KiB');
    expect(formatBytes(235 * 1024 * 1024)).toBe('235 MiB');
    expect(formatBytes(1.39 * 1024 ** 3)).toBe('1.39 GiB');
    expect(formatBytes(1023.9 * 1024)).toBe('1.00 MiB');
  });

  it('formats ratios, changes, shifts, percentages, p values', () => {
    expect(formatRatio(1)).toBe('1.00x');
    expect(formatRatio(1.1449)).toBe('1.14x');
    expect(formatRatio(12.71)).toBe('12.7x');
    expect(formatRatio(221.4)).toBe('221x');
    expect(formatChange(1.031)).toBe('+3.1%');
    expect(formatChange(0.877)).toBe('-12.3%');
    expect(formatChange(2.5)).toBe('+150%');
    expect(formatChange(0.9999)).toBe('+0.0%');
    expect(formatShift(0.877)).toBe('↓ 12.3% faster');
    expect(formatShift(1.05)).toBe('↑ 5.0% slower');
    expect(formatPercent(0.052)).toBe('5.2%');
    expect(formatTimeInterval([0.98, 1.07])).toBe('2.0% faster … 7.0% slower');
    expect(formatTimeInterval([1.261, 1.339])).toBe('26.1–33.9% slower');
    expect(formatTimeInterval([0.8, 0.9])).toBe('10.0–20.0% faster');
    expect(formatTimeChange(1.034)).toBe('3.4% slower');
    expect(formatTimeChange(0.988)).toBe('1.2% faster');
    expect(formatTimeChange(1.0004)).toBe('no change');
    expect(formatAmountChange(1.072)).toBe('7.2% more');
    expect(formatAmountChange(0.995)).toBe('0.5% fewer');
    expect(formatP(0.0004)).toBe('< 0.001');
    expect(formatP(0.0042)).toBe('0.004');
    expect(formatP(0.4123)).toBe('0.41');
    expect(sig3(0.012345)).toBe('0.0123');
  });

  it('names the per-op unit after the work param', () => {
    expect(opLabelOf(['count'])).toBe('op');
    expect(opLabelOf(['lookups'])).toBe('lookup');
    expect(opLabelOf(['files'])).toBe('file');
    expect(opLabelOf([])).toBe('op');
  });
});
