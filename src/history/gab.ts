// github-action-benchmark (GAB) interop: import its history (data.js or plain JSON) as records, and
// export records back to GAB, losslessly: import -> export gives the same entries (names, values,
// units, ranges, extras, commits, dates, tools, suites).
//
// Import keeps every bench. Each becomes a case holding the bench verbatim (case.gab) and, when its
// unit is a time (ns, us/µs, ms, s, with /op, /iter, ... suffixes) or a rate (ops/sec), its time
// in ns for the charts; Go's old-style combined unit ("ns/op\t16 B/op\t1 allocs/op") gives the
// time from its first part and the rest as case.metrics. Benches without a time (MB/s, B/op, %, ...)
// are stored as skipped cases and listed with the reason. The record keeps the entry's suite, tool,
// date and commit object (record.source). Names in bee-bench's own export format
// (`<case id> [<label>] (<runner>)`) map back to their case and runner; any other name becomes case
// `gab.<slug>` under the runner of its tool (cargo -> rs, go -> go, benchmarkjs -> js; others
// js unless --runner says).
//
// Export of a record of our own names a bench `<case id> [<label>] (<runner>)`, value = median in
// ns, range "± <MAD ns>", extra = `key: value` lines (n, client, ops, bytes, per-op). A counted
// case gives a second bench, `<case id> [<label>] (<runner>) instructions`, unit
// "instructions/iter", value = the median count per iteration, extra = samples, per-op, per-byte,
// aa-spread and counter lines with exact numbers, so import gives the record's counts back.
import { z } from 'zod';
import { InputError, describeIssues } from '../spec/errors.js';
import { RunnerSchema, type Result, type Runner } from '../spec/schema.js';
import { currentId, NO_ALIASES, type CaseAliases } from '../spec/aliases.js';
import { byRunner, byString } from './order.js';
import { isRecord, recordCase } from './record.js';
import { GabBenchSchema, HistoryRecordSchema, RECORD_SCHEMA_ID, type HistoryRecord, type RecordCase } from './schema.js';

export { GabBenchSchema };
export type GabBench = z.infer<typeof GabBenchSchema>;

export const GabEntrySchema = z.object({
  // Loose: every member GAB wrote (committer, tree_id, distinct, ...) is kept for export.
  commit: z.looseObject({
    id: z.string().min(1),
    message: z.string().optional(),
    timestamp: z.string().optional(),
    url: z.string().optional(),
    author: z.looseObject({ name: z.string().optional(), username: z.string().optional(), email: z.string().optional() }).optional(),
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

/** The instruction-count bench of a case: its time bench's name plus this, in this unit. */
const COUNT_SUFFIX = ' instructions';
export const GAB_COUNT_UNIT = 'instructions/iter';

export function gabCountName(id: string, label: string, runner: Runner): string {
  return `${gabName(id, label, runner)}${COUNT_SUFFIX}`;
}

/** Our instruction-count bench's case, or null for any other bench. */
export function parseGabCountName(b: Pick<GabBench, 'name' | 'unit'>): { id: string; label: string; runner: Runner } | null {
  if (b.unit !== GAB_COUNT_UNIT || !b.name.endsWith(COUNT_SUFFIX)) return null;
  return parseGabName(b.name.slice(0, -COUNT_SUFFIX.length));
}

export function gabSlug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'bench'
  );
}

const TIME_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, sec: 1e9, second: 1e9, seconds: 1e9 };

/** The value in ns: times scale, rates (ops/sec) invert; null when the unit is neither. */
function toNs(value: number, unit: string): number | null {
  const u = unit.trim().replace(/\s+/g, '');
  const time = /^(ns|us|µs|μs|ms|s|sec|seconds?)(?:\/(?:op|iter|iteration|call))?$/i.exec(u);
  if (time) return value * (TIME_NS[(time[1] as string).toLowerCase()] as number);
  if (/^(ops|op|calls|iter|iterations)\/(s|sec|second)$/i.test(u)) return value > 0 ? 1e9 / value : null;
  return null;
}

/**
 * A bench's time in ns (null when it has none, with the reason) and the further figures of a
 * tab-separated Go unit: "ns/op\t  16 B/op\t  1 allocs/op" -> time from ns/op, {B/op: 16, allocs/op: 1}.
 */
export function gabFigures(value: number, unit: string): { ns: number | null; metrics: Record<string, number>; reason?: string } {
  const [head = '', ...rest] = unit.split('\t').map((p) => p.trim());
  const metrics: Record<string, number> = {};
  for (const part of rest) {
    const m = /^([-+]?[0-9.]+(?:e[-+]?[0-9]+)?)\s+(\S.*)$/i.exec(part);
    if (m && Number.isFinite(Number(m[1]))) metrics[m[2] as string] = Number(m[1]);
  }
  const ns = toNs(value, head);
  if (ns === null && toNs(1, head) !== null) return { ns, metrics, reason: `rate ${value} ${head} has no time per operation` };
  if (ns === null) return { ns, metrics, reason: `unit "${head}" is not a time or a rate` };
  if (!Number.isFinite(ns) || ns < 0) return { ns: null, metrics, reason: `value ${value} ${head} is not a usable time` };
  return { ns, metrics };
}

/** The bee-bench runner whose series an imported tool's benches join (runner labels on the site). */
const TOOL_RUNNER: Record<string, Runner> = { cargo: 'rs', go: 'go', benchmarkjs: 'js' };

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
  /** Runner of benches whose names are not in bee-bench's export format; default: by tool, else js. */
  runner?: Runner;
  /** Branch the imported history belongs to (GAB does not record it); default main. */
  branch?: string;
  /** Former case ids (the spec's formerly): a bench named by one is stored under the case's current id, its name kept verbatim for export. */
  aliases?: CaseAliases;
}

export interface GabImport {
  records: HistoryRecord[];
  /** Benches stored without a time (not charted), with where they are and why. */
  skipped: Array<{ where: string; name: string; reason: string }>;
  /** Benches with a time: the points the site will chart. */
  charted: number;
}

const ISO = z.iso.datetime({ offset: true });
const UNKNOWN_HOST = { os: 'unknown', arch: 'unknown', cpu_model: 'unknown', cpus: 1, mem_mb: 0 };

interface Placed {
  bench: GabBench;
  id: string;
  label: string;
  j: number;
}

/** GAB history -> one record per (suite entry, runner), in suite, entry and runner order. */
export function importGab(file: string, text: string, opts: GabImportOptions = {}): GabImport {
  const data = parseGab(file, text);
  const branch = opts.branch ?? 'main';
  const aliases = opts.aliases ?? NO_ALIASES;
  const out: GabImport = { records: [], skipped: [], charted: 0 };

  // Foreign names -> gab.<slug>, made unique over the whole file in name order.
  const foreign = new Map<string, string>();
  const names = new Set<string>();
  for (const list of Object.values(data.entries))
    for (const e of list) for (const b of e.benches) if (!parseGabName(b.name) && !parseGabCountName(b)) names.add(b.name);
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
      const fallback = RunnerSchema.parse(opts.runner ?? TOOL_RUNNER[entry.tool] ?? 'js');
      const byRun = new Map<Runner, Placed[]>();
      const countsBy = new Map<Runner, Placed[]>();
      entry.benches.forEach((bench, j) => {
        const counted = parseGabCountName(bench);
        if (counted) {
          const list = countsBy.get(counted.runner) ?? [];
          list.push({ bench, id: currentId(aliases, counted.id), label: counted.label, j });
          countsBy.set(counted.runner, list);
          if (!byRun.has(counted.runner)) byRun.set(counted.runner, []);
          return;
        }
        const ours = parseGabName(bench.name);
        const runner = ours?.runner ?? fallback;
        const list = byRun.get(runner) ?? [];
        list.push({ bench, id: ours ? currentId(aliases, ours.id) : (foreign.get(bench.name) as string), label: ours?.label ?? '', j });
        byRun.set(runner, list);
      });
      for (const runner of [...byRun.keys()].sort(byRunner)) {
        const placed = { benches: byRun.get(runner)!, counts: countsBy.get(runner) ?? [] };
        out.records.push(entryRecord(file, where, { suite, repoUrl: data.repoUrl }, entry, runner, placed, branch, out));
      }
    });
  }
  return out;
}

function importedCase({ bench, id, label }: Placed, at: string, out: GabImport): RecordCase {
  const extra = parseExtra(bench.extra);
  const { ns, metrics, reason } = gabFigures(bench.value, bench.unit);
  const range = /±\s*([0-9.eE+-]+)\s*(%?)/.exec(bench.range ?? '');
  const spread = range ? Number(range[1]) : NaN;
  const mad = ns === null || !Number.isFinite(spread) ? null : range?.[2] === '%' ? (ns * spread) / 100 : toNs(spread, bench.unit.split('\t')[0] ?? '');
  const ops = positive(extra.get('ops'));
  const bytes = positive(extra.get('bytes'));
  const samples = /(\d+) samples/.exec(bench.extra ?? '');
  const n = Math.round(positive(extra.get('n')) ?? positive(samples?.[1]) ?? 1);
  const c: RecordCase = {
    id,
    kind: id.startsWith('net.') ? 'net' : 'cpu',
    label,
    param: label ? { label } : {},
    status: ns === null ? 'skipped' : 'ok',
    n: ns === null ? 0 : n,
    median_ns: ns,
    min_ns: ns,
    max_ns: ns,
    mad_ns: mad !== null && mad >= 0 && Number.isFinite(mad) ? mad : null,
    samples_ns: [],
    work: { ...(ops !== undefined ? { ops } : {}), ...(bytes !== undefined ? { bytes } : {}) },
    peak_rss_bytes: null,
    gab: { ...bench },
  };
  if (Object.keys(metrics).length > 0) c.metrics = metrics;
  if (reason) {
    c.reason = reason;
    out.skipped.push({ where: at, name: bench.name, reason });
  } else out.charted++;
  return c;
}

function entryRecord(
  file: string,
  where: string,
  origin: { suite: string; repoUrl: string | undefined },
  entry: GabEntry,
  runner: Runner,
  { benches, counts }: { benches: readonly Placed[]; counts: readonly Placed[] },
  branch: string,
  out: GabImport,
): HistoryRecord {
  const cases: RecordCase[] = [];
  const seen = new Map<string, number>();
  let client: { name: string; version: string } | null = null;
  for (const placed of benches) {
    // The same name twice in one entry: both kept, the later ones labelled #2, #3, ...
    const key = `${placed.id}\u0000${placed.label}`;
    const k = (seen.get(key) ?? 0) + 1;
    seen.set(key, k);
    const label = k === 1 ? placed.label : `${placed.label}#${k}`;
    cases.push(importedCase({ ...placed, label }, `${where}.benches[${placed.j}]`, out));
    const cl = parseExtra(placed.bench.extra).get('client');
    if (cl && !client) {
      const at = cl.lastIndexOf(' ');
      if (at > 0) client = { name: cl.slice(0, at), version: cl.slice(at + 1) };
    }
  }
  let counter: HistoryRecord['counter'];
  for (const placed of counts) {
    const { instructions, version } = importedCounts(placed.bench);
    counter ??= version ? { tool: 'callgrind', version } : undefined;
    const c = cases.find((k) => k.id === placed.id && k.label === placed.label && !k.instructions);
    if (c) Object.assign(c, { instructions, gab_instructions: { ...placed.bench } });
    else {
      // A count without a time bench: a case with no time (not charted), its count kept for export.
      const { gab: _time, ...bare } = importedCase({ ...placed, bench: { ...placed.bench, unit: 'instructions only' } }, `${where}.benches[${placed.j}]`, out);
      cases.push({ ...bare, instructions, gab_instructions: { ...placed.bench } });
    }
  }
  const started = new Date(entry.date).toISOString();
  const ts = entry.commit.timestamp && !Number.isNaN(Date.parse(entry.commit.timestamp)) ? entry.commit.timestamp : started;
  const candidate = {
    schema: RECORD_SCHEMA_ID,
    commit: {
      sha: entry.commit.id.toLowerCase(),
      message: entry.commit.message ?? '',
      author: entry.commit.author?.name ?? entry.commit.author?.username ?? '',
      timestamp: ISO.safeParse(ts).success ? ts : new Date(ts).toISOString(),
      ...(entry.commit.url ? { url: entry.commit.url } : {}),
    },
    branch,
    event: 'import',
    run: { id: `gab-${gabSlug(origin.suite)}-${entry.date}` },
    runner,
    client: { name: client?.name ?? origin.suite, version: client?.version ?? 'unknown', source: 'path' as const },
    host: { ...UNKNOWN_HOST, runtime: `github-action-benchmark ${entry.tool}` },
    bee: null,
    spec: { hash: '', profile: 'full' as const },
    started_at: started,
    finished_at: null,
    cases,
    ...(counter ? { counter } : {}),
    source: {
      format: 'github-action-benchmark' as const,
      suite: origin.suite,
      tool: entry.tool,
      date: entry.date,
      ...(origin.repoUrl !== undefined ? { repo_url: origin.repoUrl } : {}),
      commit: entry.commit,
    },
  };
  const parsed = HistoryRecordSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new InputError(
      file,
      describeIssues(parsed.error).map((p) => `${where} (${runner}): ${p}`),
      'GAB commit ids must be hex shas',
    );
  }
  return parsed.data;
}

// ---- export ----

function generatedBench(c: RecordCase, run: Pick<HistoryRecord, 'runner' | 'client'>): GabBench | null {
  if (c.status !== 'ok' || c.median_ns === null) return null;
  const extra = [`n: ${c.n}`, `client: ${run.client.name} ${run.client.version}`];
  if (c.work.ops !== undefined) extra.push(`ops: ${c.work.ops}`);
  if (c.work.bytes !== undefined) extra.push(`bytes: ${c.work.bytes}`);
  if (c.work.ops) extra.push(`per-op: ${sig6(c.median_ns / c.work.ops)} ns`);
  // Keys in GabBenchSchema's order, as import reads them back: a round trip is equal byte for byte.
  return {
    name: gabName(c.id, c.label, run.runner),
    value: c.median_ns,
    unit: 'ns',
    ...(c.mad_ns !== null ? { range: `± ${c.mad_ns}` } : {}),
    extra: extra.join('\n'),
  };
}

const present = <T>(x: T | null): T[] => (x === null ? [] : [x]);

/** A counted case's instruction bench: exact numbers, so import restores the record's counts. */
function countBench(c: RecordCase, run: Pick<HistoryRecord, 'runner' | 'counter'>): GabBench | null {
  const k = c.instructions;
  if (c.status !== 'ok' || !k) return null;
  const extra = [`samples: ${k.samples.join(',')}`];
  if (k.per_op !== undefined) extra.push(`per-op: ${k.per_op}`);
  if (k.per_byte !== undefined) extra.push(`per-byte: ${k.per_byte}`);
  if (k.aa_spread !== undefined) extra.push(`aa-spread: ${k.aa_spread}`);
  if (run.counter) extra.push(`counter: ${run.counter.tool} ${run.counter.version}`);
  return { name: gabCountName(c.id, c.label, run.runner), value: k.median, unit: GAB_COUNT_UNIT, extra: extra.join('\n') };
}

/** The counts an instruction bench carries (its extra lines), and the counter version it names. */
function importedCounts(bench: GabBench): { instructions: NonNullable<RecordCase['instructions']>; version?: string } {
  const extra = parseExtra(bench.extra);
  const samples = (extra.get('samples') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const exact = (key: string) => {
    const v = extra.get(key);
    const n = v === undefined ? NaN : Number(v);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  const perOp = exact('per-op');
  const perByte = exact('per-byte');
  const spread = exact('aa-spread');
  const version = /^callgrind\s+(\S+)$/.exec(extra.get('counter') ?? '')?.[1];
  return {
    instructions: {
      samples: samples.length > 0 ? samples : [Math.max(1, Math.round(bench.value))],
      median: bench.value,
      ...(perOp ? { per_op: perOp } : {}),
      ...(perByte ? { per_byte: perByte } : {}),
      ...(spread !== undefined ? { aa_spread: spread } : {}),
    },
    ...(version ? { version } : {}),
  };
}

/**
 * A run as GAB benches. An imported record gives back its benches verbatim, in their order; any
 * other run gives one customSmallerIsBetter bench per ok case/param, sorted by name.
 */
export function exportGab(run: Result | HistoryRecord): GabBench[] {
  if (isRecord(run) && run.source) {
    const rec = run;
    return rec.cases.flatMap((c) => [
      ...(c.gab ? [{ ...c.gab }] : present(generatedBench(c, rec))),
      ...(c.gab_instructions ? [{ ...c.gab_instructions }] : present(countBench(c, rec))),
    ]);
  }
  const cases: RecordCase[] = isRecord(run) ? run.cases : run.cases.map(recordCase);
  const out: GabBench[] = [];
  const seen = new Set<string>();
  for (const c of cases) {
    for (const b of [generatedBench(c, run), countBench(c, run)]) {
      if (!b || seen.has(b.name)) continue;
      seen.add(b.name);
      out.push(b);
    }
  }
  return out.sort((a, b) => byString(a.name, b.name));
}

/** A whole GAB entry for one record: an imported one's own, else one made from the record. */
export function gabEntry(record: HistoryRecord): GabEntry {
  const src = record.source;
  if (src) return { commit: src.commit as GabEntry['commit'], date: src.date, tool: src.tool, benches: exportGab(record) };
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

/** Suite of records that were not imported. */
export const NATIVE_SUITE = 'bee-bench';

/**
 * Records -> a GAB history: per suite (an imported record's own, else "bee-bench"), one entry per
 * (date, commit), oldest first; the records of one entry (one per runner) share it, benches in
 * runner order. Imported records give back exactly the entries they came from.
 */
export function exportGabData(records: readonly HistoryRecord[]): GabData {
  const sorted = [...records].sort((a, b) => gabDate(a) - gabDate(b) || byString(recordKey(a), recordKey(b)) || byRunner(a.runner, b.runner));
  const entries: GabData['entries'] = {};
  const open = new Map<string, GabEntry>();
  let repoUrl: string | undefined;
  for (const r of sorted) {
    const suite = r.source?.suite ?? NATIVE_SUITE;
    repoUrl ??= r.source?.repo_url;
    const key = `${suite}\u0000${gabDate(r)}\u0000${r.commit.sha}`;
    const e = open.get(key);
    if (e) {
      e.benches.push(...exportGab(r));
      continue;
    }
    const fresh = gabEntry(r);
    open.set(key, fresh);
    (entries[suite] ??= []).push(fresh);
  }
  const dates = sorted.map(gabDate);
  return { lastUpdate: dates.length > 0 ? Math.max(...dates) : 0, ...(repoUrl !== undefined ? { repoUrl } : {}), entries };
}

function gabDate(r: HistoryRecord): number {
  return r.source?.date ?? Date.parse(r.started_at);
}

function recordKey(r: HistoryRecord): string {
  return `${r.source?.suite ?? NATIVE_SUITE}\u0000${r.commit.sha}`;
}

/** data.js text as GAB writes it. */
export function renderGabDataJs(data: GabData): string {
  return `window.BENCHMARK_DATA = ${JSON.stringify(data, null, 2)}`;
}

function sig6(v: number): number {
  return Number(v.toPrecision(6));
}
