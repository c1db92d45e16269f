// Case selection and param resolution: the same rules the runners implement (runners/README.md),
// here for the engine, which must know what a runner will run before it runs it.
import type { RunSize, Runner, Spec, SpecCase, SpecParam } from './schema.js';
import { closest } from './suggest.js';

export type ParamValues = Record<string, number | string | boolean>;

/** `*` matches any run of characters (dots included), `?` one character; whole-id match. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

export class SelectionError extends Error {
  override name = 'SelectionError';
}

/**
 * Cases in spec order matching any glob; no globs selects all. A glob matching nothing throws. A
 * glob that matches no current id selects the cases it matches by a former id (`formerly`; the
 * CLI and the action say so, src/spec/aliases.ts renamedCaseNotes).
 */
export function selectCases(spec: Spec, globs: readonly string[]): SpecCase[] {
  if (globs.length === 0) return [...spec.cases];
  const patterns = globs.map((g) => ({ glob: g, re: globToRegExp(g) }));
  const matches = (c: SpecCase, re: RegExp) => re.test(c.id);
  const formerlyMatches = (c: SpecCase, re: RegExp) => (c.formerly ?? []).some((old) => re.test(old));
  const picked = patterns.map((p) => ({
    ...p,
    test: spec.cases.some((c) => matches(c, p.re)) ? matches : formerlyMatches,
  }));
  for (const p of picked) {
    if (!spec.cases.some((c) => p.test(c, p.re))) throw new SelectionError(noMatch(spec, p.glob));
  }
  return spec.cases.filter((c) => picked.some((p) => p.test(c, p.re)));
}

/** Why a glob matched nothing, with the glob it was likely meant as. */
function noMatch(spec: Spec, glob: string): string {
  const head = `case glob "${glob}" matches no case in the spec`;
  if (!/[*?]/.test(glob)) {
    // An id prefix without a wildcard (--case cpu.keccak): the glob of that group.
    const prefix = glob.endsWith('.') ? glob : `${glob}.`;
    const under = spec.cases.filter((c) => c.id.startsWith(prefix));
    if (under.length > 0)
      return `${head}; did you mean "${prefix}*" (${under.length} case${under.length === 1 ? '' : 's'}: ${under.map((c) => c.id).join(', ')})?`;
  }
  const near = spec.cases.map((c) => c.id).filter((id) => id.includes(glob.replace(/[*?]/g, '')) && glob.replace(/[*?]/g, '').length >= 3);
  if (near.length > 0) return `${head}; ids containing it: ${near.slice(0, 5).join(', ')}${near.length > 5 ? ', …' : ''}`;
  // A typo in a whole id (--case cpu.keccak.bulkk): the closest id, current or former.
  if (!/[*?]/.test(glob)) {
    const ids = spec.cases.flatMap((c) => [c.id, ...(c.formerly ?? [])]);
    const typo = closest(glob, ids);
    if (typo) return `${head}; did you mean "${typo}"?`;
  }
  return `${head} (ids look like cpu.bmt.file-root; * matches any run of characters)`;
}

/** The param a runner runs: declared values with its per_runner override merged over them. */
export function effectiveParam(param: SpecParam, runner: Runner): ParamValues {
  const { per_runner, digest_with: _digest, ...base } = param;
  return { ...(base as ParamValues), ...(per_runner?.[runner] ?? {}) };
}

/** The params of a case in a profile, large ones only when asked for. */
export function profileParams(c: SpecCase, profile: RunSize, large = false): SpecParam[] {
  return c.params[profile].filter((p) => large || !p.large);
}

export function caseIters(spec: Spec, c: SpecCase, profile: RunSize): number {
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
