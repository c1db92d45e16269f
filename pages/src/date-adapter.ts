// A small UTC date adapter for Chart.js' time scale (Chart.js ships none). Every date on the site
// is UTC, labelled as such, so the same permalink reads the same everywhere.
import { _adapters, type TimeUnit } from 'chart.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const FIXED: Partial<Record<TimeUnit, number>> = { millisecond: 1, second: 1e3, minute: 6e4, hour: 36e5, day: 864e5, week: 6048e5 };
const AVG_MONTH = 2_629_746_000;

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

export function formatUtc(t: number, fmt: string): string {
  const d = new Date(t);
  const Y = d.getUTCFullYear();
  const M = d.getUTCMonth();
  const D = d.getUTCDate();
  const hm = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  switch (fmt) {
    case 'millisecond':
      return `${hm}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
    case 'second':
      return `${hm}:${pad(d.getUTCSeconds())}`;
    case 'minute':
    case 'hour':
      return hm === '00:00' ? `${MONTHS[M]} ${D}` : `${MONTHS[M]} ${D}, ${hm}`;
    case 'day':
    case 'week':
      return `${MONTHS[M]} ${D}`;
    case 'month':
      return M === 0 ? `${MONTHS[M]} ${Y}` : `${MONTHS[M]}`;
    case 'quarter':
      return `Q${Math.floor(M / 3) + 1} ${Y}`;
    case 'year':
      return String(Y);
    default:
      return `${Y}-${pad(M + 1)}-${pad(D)} ${hm} UTC`;
  }
}

function startOf(t: number, unit: TimeUnit | 'isoWeek', weekday?: number | boolean): number {
  const d = new Date(t);
  switch (unit) {
    case 'millisecond':
      return t;
    case 'second':
      return Math.floor(t / 1e3) * 1e3;
    case 'minute':
      return Math.floor(t / 6e4) * 6e4;
    case 'hour':
      return Math.floor(t / 36e5) * 36e5;
    case 'day':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'week':
    case 'isoWeek': {
      const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      const first = unit === 'isoWeek' && typeof weekday === 'number' ? weekday % 7 : 0;
      const back = (new Date(day).getUTCDay() - first + 7) % 7;
      return day - back * 864e5;
    }
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'quarter':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - (d.getUTCMonth() % 3), 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

function add(t: number, amount: number, unit: TimeUnit): number {
  const fixed = FIXED[unit];
  if (fixed !== undefined) return t + amount * fixed;
  const months = unit === 'month' ? amount : unit === 'quarter' ? amount * 3 : amount * 12;
  const d = new Date(t);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime();
}

_adapters._date.override({
  formats: () => ({
    datetime: 'datetime',
    millisecond: 'millisecond',
    second: 'second',
    minute: 'minute',
    hour: 'hour',
    day: 'day',
    week: 'week',
    month: 'month',
    quarter: 'quarter',
    year: 'year',
  }),
  parse(value: unknown): number | null {
    if (value === null || value === undefined) return null;
    if (typeof value === 'number') return Number.isFinite(value) ? value : null;
    if (value instanceof Date) return value.getTime();
    if (typeof value === 'string') {
      const t = Date.parse(value);
      return Number.isFinite(t) ? t : null;
    }
    return null;
  },
  format: (t: number, fmt: string) => formatUtc(t, fmt),
  add,
  diff(a: number, b: number, unit: TimeUnit): number {
    const fixed = FIXED[unit];
    const per = fixed ?? (unit === 'month' ? AVG_MONTH : unit === 'quarter' ? 3 * AVG_MONTH : 12 * AVG_MONTH);
    return (a - b) / per;
  },
  startOf,
  endOf: (t: number, unit: TimeUnit) => add(startOf(t, unit), 1, unit) - 1,
});

/**
 * The smallest tick unit worth using for a time span: ticks fall on whole days (or hours, months)
 * instead of every 34 hours. Chart.js still picks a larger unit when the span needs it.
 */
export function minUnitFor(spanMs: number): TimeUnit {
  if (!(spanMs > 0)) return 'minute';
  if (spanMs < 2 * 36e5) return 'minute';
  if (spanMs < 3 * 864e5) return 'hour';
  if (spanMs < 120 * 864e5) return 'day';
  if (spanMs < 3 * 365 * 864e5) return 'month';
  return 'year';
}
