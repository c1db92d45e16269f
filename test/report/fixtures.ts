// Realistic result files for the report tests and the report benchmark: built from the real spec
// with the runner-effective params, then validated with ResultSchema so they stay real.
import { loadSpec } from '../../src/spec/load.js';
import type { AbReportInput } from '../../src/report/model/ab.js';
import { ResultSchema, type CaseResult, type RunSize, type Result, type Runner, type Spec, type SpecCase } from '../../src/spec/schema.js';
import { effectiveParam, profileParams, workOf, type ParamValues } from '../../src/spec/select.js';

export const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  'a | b | c',
  'tick ` tock ``',
  '@org/team please look',
  '[click](javascript:alert(1))',
  ']( javascript:alert(1))',
  '# heading\n## another\r\nline',
  '</script><script>alert(1)</script>',
  '<!-- hidden --> & &amp;',
  '**bold** _it_ ~~strike~~ ![img](x)',
];

export function realSpec(): { spec: Spec; hash: string } {
  const { spec, hash } = loadSpec(new URL('../../spec/bench-spec.json', import.meta.url).pathname);
  return { spec, hash };
}

const CLIENTS: Record<Runner, { name: string; version: string }> = {
  js: { name: '@ethersphere/bee-js', version: '12.1.0' },
  go: { name: 'github.com/ethswarm-tools/bee-go', version: '1.1.0' },
  rs: { name: 'bee-rs', version: '1.2.0' },
};

/** Deterministic noise in [-1, 1). */
export function noise(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  };
}

export interface ResultOptions {
  profile?: RunSize;
  n?: number;
  /** ns per work unit (per byte for byte cases, per op otherwise); default by runner. */
  unitCost?: (c: SpecCase, runner: Runner) => number;
  /** Relative jitter of samples, default 0.03. */
  jitter?: number;
  skip?: (c: SpecCase, runner: Runner) => string | undefined;
  fail?: (c: SpecCase, runner: Runner) => string | undefined;
  digest?: (c: SpecCase, runner: Runner) => string | undefined;
  bee?: boolean;
  hash?: string;
  large?: boolean;
  startedAt?: string;
}

const DEFAULT_FACTOR: Record<Runner, number> = { rs: 1, go: 1.2, js: 10 };

export function syntheticResult(runner: Runner, spec: Spec, hash: string, o: ResultOptions = {}): Result {
  const profile = o.profile ?? 'quick';
  const n = o.n ?? 5;
  const rnd = noise(runner.charCodeAt(0) * 7919 + n);
  const cases: CaseResult[] = [];
  for (const c of spec.cases) {
    for (const p of profileParams(c, profile, o.large ?? false)) {
      const param: ParamValues = effectiveParam(p, runner);
      const work = workOf(c, param);
      const skip = o.skip?.(c, runner) ?? (c.kind === 'net' && !o.bee ? 'no Bee node given (--bee-url and --batch-id)' : undefined);
      const base = { id: c.id, kind: c.kind, param, warmup: spec.profiles[profile].warmup[c.kind], work } as const;
      if (skip) {
        cases.push({ ...base, status: 'skipped', skip_reason: skip, samples_ns: [], cpu_ns: [], peak_rss_bytes: null });
        continue;
      }
      const units = work.bytes ?? work.ops ?? 1;
      const cost = o.unitCost ? o.unitCost(c, runner) : (c.kind === 'net' ? 20 : 2) * DEFAULT_FACTOR[runner];
      const median = Math.max(50, Math.round(cost * units + 20_000));
      const samples = Array.from({ length: n }, () => Math.max(1, Math.round(median * (1 + (o.jitter ?? 0.03) * rnd()))));
      const cpu = samples.map((s) => Math.round(s * (c.kind === 'net' ? 0.3 : c.id.includes('parallel') ? 3.8 : 0.99)));
      const fail = o.fail?.(c, runner);
      const digest = o.digest ? o.digest(c, runner) : c.digest ? 'ab'.repeat(32) : undefined;
      const cr: CaseResult = {
        ...base,
        status: fail ? 'failed' : 'ok',
        samples_ns: samples,
        cpu_ns: cpu,
        peak_rss_bytes: Math.round(100 * 2 ** 20 + (work.bytes ?? 0) * (runner === 'js' ? 14 : 1.2)),
      };
      if (fail) cr.error = fail;
      if (digest) cr.digest = digest;
      cases.push(cr);
    }
  }
  const started = o.startedAt ?? '2026-05-02T10:00:00Z';
  return ResultSchema.parse({
    schema: 'bee-bench/result@1',
    runner,
    client: { ...CLIENTS[runner], source: 'registry' },
    bee: o.bee ? { url: 'http://127.0.0.1:1633', version: '2.8.0' } : null,
    spec: { hash: o.hash ?? hash, profile },
    host: {
      os: 'linux',
      arch: 'x64',
      cpu_model: 'AMD EPYC 7763',
      cpus: 2,
      mem_mb: 7940,
      runtime: { js: 'node 20.20.2', go: 'go1.25.1', rs: 'rustc 1.90.0' }[runner],
    },
    started_at: started,
    finished_at: started.replace('10:00', '10:30'),
    cases,
  });
}

/** A hand-made case result, validated. */
export function caseResult(partial: Partial<CaseResult> & Pick<CaseResult, 'id' | 'param'>): CaseResult {
  const samples = partial.samples_ns ?? [];
  return {
    kind: partial.id.startsWith('net.') ? 'net' : 'cpu',
    status: 'ok',
    warmup: 1,
    samples_ns: samples,
    cpu_ns: partial.cpu_ns ?? samples,
    peak_rss_bytes: null,
    work: {},
    ...partial,
  };
}

/** A hand-made result file, validated. */
export function result(runner: Runner, cases: CaseResult[], hash = 'aa'.repeat(32), extra: Partial<Result> = {}): Result {
  return ResultSchema.parse({
    schema: 'bee-bench/result@1',
    runner,
    client: { ...CLIENTS[runner], source: 'registry' },
    bee: null,
    spec: { hash, profile: 'quick' },
    host: { os: 'linux', arch: 'x64', cpu_model: 'test cpu', cpus: 2, mem_mb: 4096, runtime: 'rt' },
    started_at: '2026-05-02T10:00:00Z',
    finished_at: '2026-05-02T10:10:00Z',
    cases,
    ...extra,
  });
}

/** The result with allocation figures on its ok CPU cases, as an allocation run attaches them; `figures` per case, undefined for none. */
export function withAllocations(r: Result, figures: (c: CaseResult) => { bytes: number; allocs?: number } | undefined, method = 'test accounting'): Result {
  const cases = r.cases.map((c) => {
    const f = c.status === 'ok' && c.kind === 'cpu' ? figures(c) : undefined;
    if (!f) return c;
    const each = (x: number) => c.samples_ns.map(() => x);
    return { ...c, alloc_bytes: each(f.bytes), ...(f.allocs !== undefined ? { allocs: each(f.allocs) } : {}) };
  });
  return ResultSchema.parse({ ...r, cases, alloc_counter: { method } });
}

/** An A/B comment's input as the pipeline gives it, with the defaults; `env` fields merge over the defaults'. */
export function abInput(rows: AbReportInput['rows'], o: Omit<Partial<AbReportInput>, 'env'> & { env?: Partial<AbReportInput['env']> } = {}): AbReportInput {
  const { env, ...rest } = o;
  return {
    title: 't',
    marker: 'bee-bench:js',
    runner: 'js',
    baseLabel: 'main',
    headLabel: 'pr',
    rows,
    alpha: 0.02,
    threshold: 0.02,
    rounds: 12,
    profile: 'quick',
    ...rest,
    env: { host: 'h', clientBase: 'b', clientHead: 'h', specHash: 'ab', wallTimeMs: 1, ...env },
  };
}
