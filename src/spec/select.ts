// Case selection and param resolution: the same rules the runners implement (runners/README.md),
// here for the engine, which must know what a runner will run before it runs it.
import type { Profile, Runner, Spec, SpecCase, SpecParam } from './schema.js';

export type ParamValues = Record<string, number | string | boolean>;

/** `*` matches any run of characters (dots included), `?` one character; whole-id match. */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

export class SelectionError extends Error {
  override name = 'SelectionError';
}

/** Cases in spec order matching any glob; no globs selects all. A glob matching nothing throws. */
export function selectCases(spec: Spec, globs: readonly string[]): SpecCase[] {
  if (globs.length === 0) return [...spec.cases];
  const patterns = globs.map((g) => ({ glob: g, re: globToRegExp(g) }));
  for (const p of patterns) {
    if (!spec.cases.some((c) => p.re.test(c.id))) {
      throw new SelectionError(`case glob "${p.glob}" matches no case in the spec (ids look like cpu.bmt.file-root)`);
    }
  }
  return spec.cases.filter((c) => patterns.some((p) => p.re.test(c.id)));
}

/** The param a runner runs: declared values with its per_runner override merged over them. */
export function effectiveParam(param: SpecParam, runner: Runner): ParamValues {
  const { per_runner, digest_with: _digest, ...base } = param;
  return { ...(base as ParamValues), ...(per_runner?.[runner] ?? {}) };
}

/** The params of a case in a profile, large ones only when asked for. */
export function profileParams(c: SpecCase, profile: Profile, large = false): SpecParam[] {
  return c.params[profile].filter((p) => large || !p.large);
}

export function caseIters(spec: Spec, c: SpecCase, profile: Profile): number {
  return c.iters?.[profile] ?? spec.profiles[profile].iters;
}

/** Work per iteration: the product of the named param values, per runner-effective param. */
export function workOf(c: SpecCase, param: ParamValues): { ops?: number; bytes?: number } {
  const product = (names: readonly string[]) => names.reduce((acc, n) => acc * Number(param[n]), 1);
  const work: { ops?: number; bytes?: number } = {};
  if (c.work.ops.length > 0) work.ops = product(c.work.ops);
  if (c.work.bytes && c.work.bytes.length > 0) work.bytes = product(c.work.bytes);
  return work;
}
