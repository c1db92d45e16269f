// github-action-benchmark (GAB) interop: import its history (data.js or plain JSON) as records,
// export a run as its `customSmallerIsBetter` bench array so users can chain GAB after bee-bench.
//
// Export names a bench `<case id> [<label>] (<runner>)`, value = median in ns, range "± <MAD ns>",
// extra = `key: value` lines (n, client, ops, bytes, per-op). Import reads those names and extras
// back; any other bench name becomes case `gab.<slug>` with label '' under opts.runner. Values in
// time units (ns, us/µs, ms, s, with /op or /iter suffixes) and rates (ops/sec) are converted to
// ns; benches in other units (MB/s, bytes, ...) are skipped and listed. Imported records carry what
// GAB knows (commit, date) and mark the rest as unknown: event "import", host "unknown", no samples.
import { z } from 'zod';
import { InputError, describeIssues } from '../spec/errors.js';
import { RunnerSchema, type Result, type Runner } from '../spec/schema.js';
import { byRunner, byString } from './order.js';
import { recordCase } from './record.js';
import { HistoryRecordSchema, RECORD_SCHEMA_ID, type HistoryRecord, type RecordCase } from './schema.js';

export const GabBenchSchema = z.object({
  name: z.string().min(1),
  value: z.number(),
  unit: z.string(),
  range: z.string().optional(),
  extra: z.string().optional(),
});
export type GabBench = z.infer<typeof GabBenchSchema>;

export const GabEntrySchema = z.object({
  commit: z.object({
    id: z.string().min(1),
    message: z.string().default(''),
    timestamp: z.string().optional(),
    url: z.string().optional(),
    author: z.object({ name: z.string().optional(), username: z.string().optional(), email: z.string().optional() }).optional(),
  }),
  date: z.number(),
  tool: z.string(),
  benches: z.array(GabBenchSchema),
});
export type GabEntry = z.infer<typeof GabEntrySchema>;

export const GabDataSchema = z.object({
  lastUpdate: z.number().optional(),
  repoUrl: z.string().optional(),
  entries: z.record(z.string(), z.array(GabEntrySchema)),
});
export type GabData = z.infer<typeof GabDataSchema>;

const DATA_JS_PREFIX = /^\s*window\.BENCHMARK_DATA\s*=\s*/;

function lineCol(text: string, pos: number): string {
  const before = text.slice(0, pos);
  return `line ${before.split('\n').length}, column ${pos - before.lastIndexOf('\n')}`;
}

/** Reads data.js (`window.BENCHMARK_DATA = {...}`) or its JSON; errors name the file and line/column. */
export function parseGab(file: string, text: string): GabData {
  const prefix = DATA_JS_PREFIX.exec(text);
  const start = prefix ? prefix[0].length : 0;
  const body = text.slice(start).replace(/;?\s*$/, '');
  const what = prefix ? 'data.js' : 'JSON';
  const fix = 'a GAB history is `window.BENCHMARK_DATA = <JSON object>` (data.js) or that JSON object alone';
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(msg);
    const where = at ? lineCol(text, start + Number(at[1])) : `end of input (${lineCol(text, text.length)})`;
    throw new InputError(file, [`invalid ${what} at ${where}: ${msg}`], fix);
  }
  const parsed = GabDataSchema.safeParse(value);
  if (!parsed.success) throw new InputError(file, describeIssues(parsed.error), fix);
  return parsed.data;
}

// ---- names and units ----

const OUR_NAME = /^(\S+) \[(.*)\] \((js|go|rs)\)$/;

export function gabName(id: string, label: string, runner: Runner): string {
  return `${id} [${label}] (${runner})`;
}

export function parseGabName(name: string): { id: string; label: string; runner: Runner } | null {
  const m = OUR_NAME.exec(name);
  return m ? { id: m[1] as string, label: m[2] as string, runner: m[3] as Runner } : null;
}

export function gabSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'bench';
}

const TIME_NS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, sec: 1e9 };

/** The value in ns: times scale, rates (ops/sec) invert; null when the unit is neither. */
function toNs(value: number, unit: string): number | null {
  const u = unit.trim().replace(/\s+/g, '');
  const time = /^(ns|us|µs|μs|ms|s|sec)(?:\/(?:op|iter|iteration|call))?$/i.exec(u);
  if (time) return value * (TIME_NS[(time[1] as string).toLowerCase()] as number);
  if (/^(ops|op|calls|iter|iterations)\/(s|sec|second)$/i.test(u)) return value > 0 ? 1e9 / value : null;
  return null;
}

function parseExtra(extra: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of (extra ?? '').split('\n')) {
    const m = /^\s*([a-z-]+):\s*(.*?)\s*$/i.exec(line);
    if (m) out.set((m[1] as string).toLowerCase(), m[2] as string);
  }
  return out;
}

function positive(s: string | undefined): number | undefined {
  const v = s === undefined ? NaN : Number(s);
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

// ---- import ----

export interface GabImportOptions {
  /** Runner of benches whose names are not in bee-bench's export format; default js. */
  runner?: Runner;
  /** Branch the imported history belongs to (GAB does not record it); default main. */
  branch?: string;
}

export interface GabImport {
  records: HistoryRecord[];
  /** Benches left out, with where they are and why. */
  skipped: Array<{ where: string; name: string; reason: string }>;
}

const ISO = z.iso.datetime({ offset: true });
const UNKNOWN_HOST = { os: 'unknown', arch: 'unknown', cpu_model: 'unknown', cpus: 1, mem_mb: 0 };

/** GAB history -> one record per (suite entry, runner), in suite, entry and runner order. */
export function importGab(file: string, text: string, opts: GabImportOptions = {}): GabImport {
  const data = parseGab(file, text);
  const fallback = RunnerSchema.parse(opts.runner ?? 'js');
  const branch = opts.branch ?? 'main';
  const skipped: GabImport['skipped'] = [];
  const records: HistoryRecord[] = [];

  // Foreign names -> gab.<slug>, made unique over the whole file in name order.
  const foreign = new Map<string, string>();
  const names = new Set<string>();
  for (const list of Object.values(data.entries)) for (const e of list) for (const b of e.benches) if (!parseGabName(b.name)) names.add(b.name);
  const taken = new Set<string>();
  for (const name of [...names].sort(byString)) {
    const base = `gab.${gabSlug(name)}`;
    let id = base;
    for (let k = 2; taken.has(id); k++) id = `${base}-${k}`;
    taken.add(id);
    foreign.set(name, id);
  }

  for (const suite of Object.keys(data.entries).sort(byString)) {
    (data.entries[suite] ?? []).forEach((entry, i) => {
      const where = `entries[${JSON.stringify(suite)}][${i}]`;
      const byRun = new Map<Runner, Array<{ bench: GabBench; id: string; label: string; j: number }>>();
      entry.benches.forEach((bench, j) => {
        const ours = parseGabName(bench.name);
        const runner = ours?.runner ?? fallback;
        const list = byRun.get(runner) ?? [];
        list.push({ bench, id: ours?.id ?? (foreign.get(bench.name) as string), label: ours?.label ?? '', j });
        byRun.set(runner, list);
      });
      for (const runner of [...byRun.keys()].sort(byRunner)) {
        const rec = entryRecord(file, where, suite, entry, runner, byRun.get(runner)!, branch, skipped);
        if (rec) records.push(rec);
      }
    });
  }
  return { records, skipped };
}

function entryRecord(
  file: string,
  where: string,
  suite: string,
  entry: GabEntry,
  runner: Runner,
  benches: ReadonlyArray<{ bench: GabBench; id: string; label: string; j: number }>,
  branch: string,
  skipped: GabImport['skipped'],
): HistoryRecord | null {
  const cases: RecordCase[] = [];
  const seen = new Set<string>();
  let client: { name: string; version: string } | null = null;
  for (const { bench, id, label, j } of benches) {
    const at = `${where}.benches[${j}]`;
    const ns = toNs(bench.value, bench.unit);
    if (ns === null || !Number.isFinite(ns) || ns < 0) {
      skipped.push({ where: at, name: bench.name, reason: `unit "${bench.unit}" is not a time or a rate` });
      continue;
    }
    if (seen.has(`${id}\u0000${label}`)) {
      skipped.push({ where: at, name: bench.name, reason: 'duplicate bench in the same entry' });
      continue;
    }
    seen.add(`${id}\u0000${label}`);
    const extra = parseExtra(bench.extra);
    const cl = extra.get('client');
    if (cl && !client) {
      const k = cl.lastIndexOf(' ');
      if (k > 0) client = { name: cl.slice(0, k), version: cl.slice(k + 1) };
    }
    const range = /±\s*([0-9.eE+-]+)\s*(%?)/.exec(bench.range ?? '');
    const spread = range ? Number(range[1]) : NaN;
    const mad = !Number.isFinite(spread) ? null : range?.[2] === '%' ? (ns * spread) / 100 : toNs(spread, bench.unit);
    const ops = positive(extra.get('ops'));
    const bytes = positive(extra.get('bytes'));
    const c: RecordCase = {
      id,
      kind: id.startsWith('net.') ? 'net' : 'cpu',
      label,
      param: label ? { label } : {},
      status: 'ok',
      n: Math.max(1, Math.round(positive(extra.get('n')) ?? 1)),
      median_ns: ns,
      min_ns: ns,
      max_ns: ns,
      mad_ns: mad !== null && mad >= 0 && Number.isFinite(mad) ? mad : null,
      samples_ns: [],
      work: { ...(ops !== undefined ? { ops } : {}), ...(bytes !== undefined ? { bytes } : {}) },
      peak_rss_bytes: null,
    };
    cases.push(c);
  }
  if (cases.length === 0) return null;
  const started = new Date(entry.date).toISOString();
  const ts = entry.commit.timestamp && !Number.isNaN(Date.parse(entry.commit.timestamp)) ? entry.commit.timestamp : started;
  const candidate = {
    schema: RECORD_SCHEMA_ID,
    commit: {
      sha: entry.commit.id.toLowerCase(),
      message: entry.commit.message,
      author: entry.commit.author?.name ?? entry.commit.author?.username ?? '',
      timestamp: ISO.safeParse(ts).success ? ts : new Date(ts).toISOString(),
      ...(entry.commit.url ? { url: entry.commit.url } : {}),
    },
    branch,
    event: 'import',
    run: { id: `gab-${gabSlug(suite)}-${entry.date}` },
    runner,
    client: { name: client?.name ?? suite, version: client?.version ?? 'unknown', source: 'path' as const },
    host: { ...UNKNOWN_HOST, runtime: `github-action-benchmark ${entry.tool}` },
    bee: null,
    spec: { hash: '', profile: 'full' as const },
    started_at: started,
    finished_at: null,
    cases,
  };
  const parsed = HistoryRecordSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new InputError(file, describeIssues(parsed.error).map((p) => `${where} (${runner}): ${p}`), 'GAB commit ids must be hex shas');
  }
  return parsed.data;
}

// ---- export ----

/** A run as GAB's customSmallerIsBetter array: one bench per ok case/param, sorted by name. */
export function exportGab(run: Result | HistoryRecord): GabBench[] {
  const cases: RecordCase[] = run.schema === RECORD_SCHEMA_ID ? (run as HistoryRecord).cases : (run as Result).cases.map(recordCase);
  const out: GabBench[] = [];
  const seen = new Set<string>();
  for (const c of cases) {
    if (c.status !== 'ok' || c.median_ns === null) continue;
    const name = gabName(c.id, c.label, run.runner);
    if (seen.has(name)) continue;
    seen.add(name);
    const extra = [`n: ${c.n}`, `client: ${run.client.name} ${run.client.version}`];
    if (c.work.ops !== undefined) extra.push(`ops: ${c.work.ops}`);
    if (c.work.bytes !== undefined) extra.push(`bytes: ${c.work.bytes}`);
    if (c.work.ops) extra.push(`per-op: ${sig6(c.median_ns / c.work.ops)} ns`);
    const b: GabBench = { name, value: c.median_ns, unit: 'ns', extra: extra.join('\n') };
    if (c.mad_ns !== null) b.range = `± ${c.mad_ns}`;
    out.push(b);
  }
  return out.sort((a, b) => byString(a.name, b.name));
}

/** A whole GAB entry for one record (for migrating bee-bench history into a GAB data.js). */
export function gabEntry(record: HistoryRecord): GabEntry {
  return {
    commit: {
      id: record.commit.sha,
      message: record.commit.message,
      timestamp: record.commit.timestamp,
      ...(record.commit.url ? { url: record.commit.url } : {}),
      author: { name: record.commit.author },
    },
    date: Date.parse(record.started_at),
    tool: 'customSmallerIsBetter',
    benches: exportGab(record),
  };
}

/** data.js text as GAB writes it. */
export function renderGabDataJs(data: GabData): string {
  return `window.BENCHMARK_DATA = ${JSON.stringify(data, null, 2)}`;
}

function sig6(v: number): number {
  return Number(v.toPrecision(6));
}
