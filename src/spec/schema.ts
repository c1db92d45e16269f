// zod schemas for the two files that cross the runner boundary: the case spec every runner reads
// and the result file every runner writes (docs/design.md, "Result file"). spec/result.schema.json is
// generated from ResultSchema; nothing else describes these shapes.
import { z } from 'zod';

export const RUNNERS = ['js', 'go', 'rs'] as const;
export const RunnerSchema = z.enum(RUNNERS);
export type Runner = z.infer<typeof RunnerSchema>;

/**
 * A run's size: quick (the PR and push default) or full. Stored as `profile` in plans, results and
 * history records, which keep their field names; function profiles are src/profile's.
 */
export const RUN_SIZES = ['quick', 'full'] as const;
export const RunSizeSchema = z.enum(RUN_SIZES);
export type RunSize = z.infer<typeof RunSizeSchema>;

export const KindSchema = z.enum(['cpu', 'net']);
export type Kind = z.infer<typeof KindSchema>;

const hex = (bytes?: number) => z.string().regex(bytes ? new RegExp(`^[0-9a-f]{${bytes * 2}}$`) : /^[0-9a-f]+$/, 'lowercase hex without 0x');

/**
 * The most characters a string of a result may hold: what a real run writes, with room to spare.
 * A result is read where it enters (a runner's file, a piece, an artifact's publish.json), so a
 * 15 MiB client version or a 1 MiB param never reaches a record, a series file or a comment.
 */
export const TEXT_CAPS = {
  /** Case ids, param keys and labels, a client's name. */
  name: 200,
  /** A client version, a runtime, an OS, a CPU model, a counter's name: "1.2.3-rc.1+abc", "Intel(R) Xeon(R) ...". */
  short: 300,
  /** A param's text value (a path, a URL, a mode). */
  value: 1_000,
  /** A commit (a sha, or `git describe`). */
  commit: 100,
  /** A skip reason or a case's error message (a stack's first lines, a node's answer). */
  message: 8_000,
} as const;
/** A string of at most `max` characters; a longer one is refused naming its length, never quoting it. */
export const capped = (max: number) =>
  z.string().max(max, { error: (i) => `${typeof i.input === 'string' ? i.input.length : '?'} characters, more than the ${max} a real run writes` });

const ParamValueSchema = z.union([z.number(), capped(TEXT_CAPS.value), z.boolean()]);
export const ParamValuesSchema = z.record(capped(TEXT_CAPS.name), ParamValueSchema);

/** Retrieval strategies in Swarm-Redundancy-Strategy order (0..3). */
export const STRATEGIES = ['NONE', 'DATA', 'PROX', 'RACE'] as const;

/**
 * The Swarm upload and download options a net case can take as params (docs/cases.md, "Erasure
 * coding and upload mode"), and the cases whose runners implement them; absent = the client's default.
 */
export const NET_OPTION_CASES = {
  redundancy_level: ['net.bytes.upload', 'net.bzz.upload', 'net.bytes.download', 'net.bzz.download'],
  deferred: ['net.bytes.upload', 'net.bzz.upload'],
  strategy: ['net.bytes.download', 'net.bzz.download'],
  fallback: ['net.bytes.download', 'net.bzz.download'],
} as const;

/** A param as the spec declares it: values plus the per-runner scaling and the digest input. */
export const SpecParamSchema = z
  .object({
    label: z.string().min(1),
    large: z.boolean().optional(),
    per_runner: z.partialRecord(RunnerSchema, ParamValuesSchema).optional(),
    digest_with: ParamValuesSchema.optional(),
    /** Swarm-Redundancy-Level of the upload (0 NONE … 4 PARANOID). */
    redundancy_level: z.number().int().min(0).max(4).optional(),
    /** Swarm-Deferred-Upload: false is a direct upload. */
    deferred: z.boolean().optional(),
    /** Swarm-Redundancy-Strategy of the download. */
    strategy: z.enum(STRATEGIES).optional(),
    /** Swarm-Redundancy-Fallback-Mode of the download. */
    fallback: z.boolean().optional(),
  })
  .catchall(ParamValueSchema);
export type SpecParam = z.infer<typeof SpecParamSchema>;

const perProfile = <T extends z.ZodType>(t: T) => z.object({ quick: t, full: t });

const CaseIdSchema = z.string().regex(/^(cpu|net)\.[a-z0-9.-]+$/, 'ids look like cpu.group.name or net.group.name');

export const SpecCaseSchema = z
  .object({
    id: CaseIdSchema,
    /**
     * Ids this case had before (a rename keeps its history): history records, --case globs, result
     * files and imports that name one read as this case (src/spec/aliases.ts).
     */
    formerly: z.array(CaseIdSchema).min(1).optional(),
    kind: KindSchema,
    group: z.string().min(1),
    doc: z.string().min(1),
    work: z.object({ ops: z.array(z.string()), bytes: z.array(z.string()).optional() }),
    digest: z
      .object({
        doc: z.string().min(1),
        form: z.enum(['value', 'sha256-concat']),
        /** Another case whose digest of the same input must be equal (a net reference and the offline root). */
        same_as: z.string().optional(),
      })
      .nullable(),
    iters: z.partialRecord(RunSizeSchema, z.number().int().positive()).optional(),
    /**
     * Known digest disagreements of this case, one per FINDINGS.md entry: the report shows a
     * disagreement of exactly these runners as known, with the link; any other still stands out.
     */
    known: z
      .array(
        z.object({
          finding: z.string().regex(/^B\d+[a-z]?$/, 'a FINDINGS.md id such as B1'),
          runners: z.array(RunnerSchema).min(1),
          doc: z.string().min(1),
          url: z.string().url(),
        }),
      )
      .optional(),
    /** Its work spreads over every CPU: A/B rounds must not pin it to one (src/run/pin.ts). */
    parallel: z.boolean().optional(),
    params: perProfile(z.array(SpecParamSchema).min(1)),
  })
  .superRefine((c, ctx) => {
    if (!c.id.startsWith(`${c.kind}.`)) {
      ctx.addIssue({ code: 'custom', path: ['kind'], message: `kind "${c.kind}" does not match the id prefix of ${c.id}` });
    }
    for (const profile of RUN_SIZES) {
      c.params[profile].forEach((p, i) => {
        const scaled = new Set(Object.values(p.per_runner ?? {}).flatMap((v) => Object.keys(v ?? {})));
        for (const key of scaled) {
          // A scaled key changes the op's input per runner; the digest must pin it or the
          // cross-client digest comparison compares different inputs.
          if (c.digest && !(key in (p.digest_with ?? {}))) {
            ctx.addIssue({
              code: 'custom',
              path: ['params', profile, i, 'digest_with'],
              message: `per_runner scales "${key}" but digest_with does not fix it`,
            });
          }
        }
        for (const [option, cases] of Object.entries(NET_OPTION_CASES)) {
          if (option in p && !(cases as readonly string[]).includes(c.id))
            ctx.addIssue({
              code: 'custom',
              path: ['params', profile, i, option],
              message: `"${option}" is a param of ${cases.join(', ')} only: no runner reads it in ${c.id}`,
            });
        }
        for (const name of [...c.work.ops, ...(c.work.bytes ?? [])]) {
          if (typeof p[name] !== 'number') {
            ctx.addIssue({ code: 'custom', path: ['params', profile, i, name], message: `work names "${name}" but the param has no number by that name` });
          }
        }
      });
    }
  });
export type SpecCase = z.infer<typeof SpecCaseSchema>;

export const SpecSchema = z
  .object({
    schema: z.literal('bee-bench/spec@1'),
    doc: z.string().optional(),
    profiles: perProfile(
      z.object({
        iters: z.number().int().positive(),
        warmup: z.object({ cpu: z.number().int().nonnegative(), net: z.number().int().nonnegative() }),
        case_timeout_s: z.number().positive(),
      }),
    ),
    fixtures: z.object({
      data_label: z.string(),
      key_label: z.string(),
      digest_label: z.string(),
      chunk_payload_bytes: z.number().int().positive(),
      doc: z.string().optional(),
    }),
    groups: z.array(z.object({ id: z.string(), title: z.string(), note: z.string() })).min(1),
    cases: z.array(SpecCaseSchema).min(1),
  })
  .superRefine((s, ctx) => {
    const groups = new Set(s.groups.map((g) => g.id));
    const seen = new Set<string>();
    s.cases.forEach((c, i) => {
      if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: ['cases', i, 'id'], message: `duplicate case id ${c.id}` });
      seen.add(c.id);
      if (!groups.has(c.group)) ctx.addIssue({ code: 'custom', path: ['cases', i, 'group'], message: `unknown group "${c.group}"` });
    });
    // A former id names one case only, and never a case of today: either would make an old record ambiguous.
    const former = new Map<string, string>();
    s.cases.forEach((c, i) => {
      (c.formerly ?? []).forEach((old, j) => {
        const path = ['cases', i, 'formerly', j];
        if (seen.has(old)) ctx.addIssue({ code: 'custom', path, message: `"${old}" is a current case id; remove it from formerly of ${c.id}` });
        else if (former.has(old))
          ctx.addIssue({ code: 'custom', path, message: `"${old}" is already a former id of ${former.get(old)}; a former id names one case` });
        former.set(old, c.id);
      });
    });
    s.cases.forEach((c, i) => {
      const other = c.digest?.same_as;
      if (other !== undefined && !s.cases.some((o) => o.id === other && o.digest)) {
        ctx.addIssue({ code: 'custom', path: ['cases', i, 'digest', 'same_as'], message: `"${other}" is not a case with a digest` });
      }
    });
  });
export type Spec = z.infer<typeof SpecSchema>;

export const HostSchema = z.object({
  os: capped(TEXT_CAPS.short),
  arch: capped(TEXT_CAPS.short),
  cpu_model: capped(TEXT_CAPS.short),
  cpus: z.number().int().positive(),
  mem_mb: z.number().int().nonnegative(),
  runtime: capped(TEXT_CAPS.short),
});
export type Host = z.infer<typeof HostSchema>;

export const ClientSchema = z.object({
  name: capped(TEXT_CAPS.name).min(1),
  version: capped(TEXT_CAPS.short).min(1),
  source: z.enum(['registry', 'path']),
  commit: capped(TEXT_CAPS.commit).optional(),
});
export type Client = z.infer<typeof ClientSchema>;

const nsArray = z.array(z.number().int().nonnegative());

export const CaseResultSchema = z
  .object({
    id: capped(TEXT_CAPS.name).min(1),
    kind: KindSchema,
    param: ParamValuesSchema,
    status: z.enum(['ok', 'skipped', 'failed']),
    skip_reason: capped(TEXT_CAPS.message).min(1).optional(),
    error: capped(TEXT_CAPS.message).min(1).optional(),
    warmup: z.number().int().nonnegative(),
    samples_ns: nsArray,
    cpu_ns: nsArray,
    peak_rss_bytes: z.number().int().nonnegative().nullable(),
    work: z.object({ bytes: z.number().nonnegative().optional(), ops: z.number().nonnegative().optional() }),
    digest: hex().max(TEXT_CAPS.value).optional(),
    /** Instructions executed by each timed iteration, counted under a CPU simulator (result.counter). */
    instructions: z.array(z.number().int().positive()).optional(),
    /** Estimated cycles of each timed iteration (Ir + 10 x L1 misses + 100 x last-level misses) from the same counting run with callgrind's cache simulation (docs/evidence.md). */
    cycles: z.array(z.number().int().positive()).optional(),
    /** Heap allocations made inside each timed iteration, by the runtime's own accounting (result.alloc_counter); absent where the runtime cannot count them (bee-js counts bytes only). */
    allocs: z.array(z.number().int().nonnegative()).optional(),
    /** Bytes those allocations requested, per timed iteration. */
    alloc_bytes: z.array(z.number().int().nonnegative()).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.status === 'ok' && c.samples_ns.length === 0) ctx.addIssue({ code: 'custom', path: ['samples_ns'], message: 'an ok case needs at least one sample' });
    if (c.status === 'skipped' && !c.skip_reason) ctx.addIssue({ code: 'custom', path: ['skip_reason'], message: 'a skipped case needs skip_reason' });
    if (c.status === 'failed' && !c.error) ctx.addIssue({ code: 'custom', path: ['error'], message: 'a failed case needs error' });
    if (c.cpu_ns.length !== c.samples_ns.length)
      ctx.addIssue({ code: 'custom', path: ['cpu_ns'], message: `cpu_ns has ${c.cpu_ns.length} entries, samples_ns ${c.samples_ns.length}` });
    // One entry per timed iteration of the allocation run: a wall result carries that run's
    // figures (the allocations evidence attaches them), as it carries a counting run's instructions, so only the two
    // allocation arrays must agree with each other.
    if (c.allocs && c.alloc_bytes && c.allocs.length !== c.alloc_bytes.length) {
      ctx.addIssue({ code: 'custom', path: ['allocs'], message: `allocs has ${c.allocs.length} entries, alloc_bytes ${c.alloc_bytes.length}` });
    }
  });
export type CaseResult = z.infer<typeof CaseResultSchema>;

export const RESULT_SCHEMA_ID = 'bee-bench/result@1';

/** What counted the instructions of a result's cases: the tool and its version. */
export const CounterSchema = z.object({ tool: z.literal('callgrind'), version: capped(TEXT_CAPS.short).min(1) });
export type Counter = z.infer<typeof CounterSchema>;

/** What counted a result's allocations: the runtime's accounting, named (e.g. "go runtime/metrics /gc/heap/allocs"). */
export const AllocCounterSchema = z.object({ method: capped(TEXT_CAPS.short).min(1) });
export type AllocCounter = z.infer<typeof AllocCounterSchema>;

export const ResultSchema = z.object({
  schema: z.literal(RESULT_SCHEMA_ID),
  runner: RunnerSchema,
  client: ClientSchema,
  bee: z.object({ url: capped(TEXT_CAPS.value), version: capped(TEXT_CAPS.short) }).nullable(),
  spec: z.object({ hash: hex(32), profile: RunSizeSchema }),
  host: HostSchema,
  started_at: z.iso.datetime({ offset: true }),
  finished_at: z.iso.datetime({ offset: true }).nullable(),
  cases: z.array(CaseResultSchema),
  /** Present when some case carries `instructions`. */
  counter: CounterSchema.optional(),
  /** Present when some case carries `alloc_bytes`: how the runner counted (runners/README.md "Allocations"). */
  alloc_counter: AllocCounterSchema.optional(),
});
export type Result = z.infer<typeof ResultSchema>;

export const InfoSchema = z.object({ runner: RunnerSchema, client: ClientSchema, runtime: capped(TEXT_CAPS.short), host: HostSchema });
export type Info = z.infer<typeof InfoSchema>;
