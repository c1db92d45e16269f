// The resolved plan (bee-bench/plan@1): what one runner process runs, unit by unit, with every
// spec rule already applied. The engine is the only reader of the spec; the runners execute a
// plan and know nothing of profiles, globs, per-runner scaling or digest inputs. Unit numbers
// are what the pacing protocol and the counting dumps name, so base and head (and every shard)
// agree on them by construction.
import { z } from 'zod';
import { KindSchema, RunSizeSchema, RunnerSchema, type RunSize, type Runner, type Spec } from './schema.js';
import { caseIters, effectiveParam, globToRegExp, profileParams, selectCases, workOf, type ParamValues } from './select.js';

export const PLAN_SCHEMA_ID = 'bee-bench/plan@1';

const ParamValuesSchema = z.record(z.string(), z.union([z.number(), z.string(), z.boolean()]));

export const FAULTS = ['throw', 'hang', 'reject'] as const;
export const FaultSchema = z.enum(FAULTS);
export type Fault = z.infer<typeof FaultSchema>;

export const PlanUnitSchema = z.strictObject({
  /** Position in the full (unsharded) plan; strictly increasing within a plan. */
  unit: z.number().int().nonnegative(),
  id: z.string().regex(/^(cpu|net)\.[a-z0-9.-]+$/),
  kind: KindSchema,
  /** The effective param this runner runs (label included); the result records it as `param`. */
  param: ParamValuesSchema.refine((p) => typeof p.label === 'string' && p.label !== '', 'needs a non-empty string "label"'),
  /** The untimed digest evaluation: its output form and its input (null: the case has no digest). */
  digest: z.strictObject({ form: z.enum(['value', 'sha256-concat']), param: ParamValuesSchema }).nullable(),
  /** Work of one iteration, for per-op and per-byte figures. */
  work: z.strictObject({ ops: z.number().nonnegative().optional(), bytes: z.number().nonnegative().optional() }),
  warmup: z.number().int().nonnegative(),
  iters: z.number().int().positive(),
  /** Budget of the unit from setup to its last iteration, s. */
  timeout_s: z.number().positive(),
  /** Work spreads over every CPU (A/B rounds do not pin it). */
  parallel: z.boolean().optional(),
  /** Test hook: the timed iteration throws, hangs or leaks a rejection/panic. */
  fault: FaultSchema.optional(),
  /** Calibration hook: extra CPU work inside the timed region, as a fraction of the operation's own. */
  slowdown: z.number().nonnegative().optional(),
  /** Calibration hook: extra bytes allocated inside the timed region while measuring allocations, as a fraction of the region's own. */
  alloc_extra: z.number().nonnegative().optional(),
});
export type PlanUnit = z.infer<typeof PlanUnitSchema>;

export const PlanSchema = z
  .strictObject({
    schema: z.literal(PLAN_SCHEMA_ID),
    runner: RunnerSchema,
    profile: RunSizeSchema,
    /** Hex SHA-256 of the spec file the plan was resolved from; runners copy it into result.spec.hash. */
    spec_hash: z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex SHA-256'),
    fixtures: z.strictObject({
      data_label: z.string(),
      key_label: z.string(),
      digest_label: z.string(),
      chunk_payload_bytes: z.number().int().positive(),
    }),
    units: z.array(PlanUnitSchema),
  })
  .superRefine((p, ctx) => {
    p.units.forEach((u, i) => {
      if (i > 0 && u.unit <= p.units[i - 1]!.unit)
        ctx.addIssue({ code: 'custom', path: ['units', i, 'unit'], message: `unit numbers must increase (${p.units[i - 1]!.unit} then ${u.unit})` });
      if (!u.id.startsWith(`${u.kind}.`)) ctx.addIssue({ code: 'custom', path: ['units', i, 'kind'], message: `kind "${u.kind}" does not match ${u.id}` });
    });
  });
export type Plan = z.infer<typeof PlanSchema>;

/** The engine's test and calibration hooks, resolved into the plan (runners/README.md "Hooks"). */
export interface PlanHooks {
  fault?: { glob: string; mode: Fault };
  slowdown?: { glob: string; fraction: number };
  allocExtra?: { glob: string; fraction: number };
  /** Timed iterations of every unit (counting runs, tests). */
  iters?: number;
  /** Budget of every unit, s. */
  timeoutS?: number;
}

export interface PlanRequest {
  spec: Spec;
  specHash: string;
  runner: Runner;
  profile: RunSize;
  cases?: readonly string[];
  large?: boolean;
  hooks?: PlanHooks;
}

/** Every selected case with every param of the profile, in spec order, numbered from 0, hooks applied. */
export function resolvePlan(r: PlanRequest): Plan {
  const { spec, runner, profile } = r;
  const profileDef = spec.profiles[profile];
  const units: PlanUnit[] = [];
  for (const c of selectCases(spec, r.cases ?? [])) {
    for (const p of profileParams(c, profile, r.large)) {
      const param = effectiveParam(p, runner);
      units.push({
        unit: units.length,
        id: c.id,
        kind: c.kind,
        param,
        digest: c.digest ? { form: c.digest.form, param: { ...param, ...(p.digest_with ?? {}) } as ParamValues } : null,
        work: workOf(c, param),
        warmup: profileDef.warmup[c.kind],
        iters: caseIters(spec, c, profile),
        timeout_s: profileDef.case_timeout_s,
        ...(c.parallel ? { parallel: true } : {}),
      });
    }
  }
  return applyHooks({ schema: PLAN_SCHEMA_ID, runner, profile, spec_hash: r.specHash, fixtures: pickFixtures(spec), units }, r.hooks ?? {});
}

/** The plan with the test and calibration hooks set on the units they match. */
export function applyHooks(plan: Plan, hooks: PlanHooks): Plan {
  const matches = (hook: { glob: string } | undefined, id: string) => hook !== undefined && globToRegExp(hook.glob).test(id);
  const units = plan.units.map(
    (u): PlanUnit => ({
      ...u,
      ...(hooks.iters ? { iters: hooks.iters } : {}),
      ...(hooks.timeoutS ? { timeout_s: hooks.timeoutS } : {}),
      ...(matches(hooks.fault, u.id) ? { fault: hooks.fault!.mode } : {}),
      ...(matches(hooks.slowdown, u.id) ? { slowdown: hooks.slowdown!.fraction } : {}),
      ...(matches(hooks.allocExtra, u.id) ? { alloc_extra: hooks.allocExtra!.fraction } : {}),
    }),
  );
  return { ...plan, units };
}

/** The units of the given cases (unit numbers kept, so pacing and dumps still name them). */
export function planOf(plan: Plan, keep: (u: PlanUnit) => boolean): Plan {
  return { ...plan, units: plan.units.filter(keep) };
}

/** Budget of one runner process for a plan: its units' budgets plus start-up slack. */
export function planBudgetMs(plan: Plan, slackMs: number): number {
  return plan.units.reduce((ms, u) => ms + u.timeout_s * 1000, slackMs);
}

function pickFixtures(spec: Spec): Plan['fixtures'] {
  const { data_label, key_label, digest_label, chunk_payload_bytes } = spec.fixtures;
  return { data_label, key_label, digest_label, chunk_payload_bytes };
}
