// Former case ids (a case's `formerly` in the spec): a renamed case keeps its history. Whatever
// names a case from before the rename — a history record, a --case glob, a result file, an
// imported bench — reads as the case's current id through here.
import type { Spec } from './schema.js';
import { globToRegExp } from './select.js';

/** Former id -> current id. */
export type CaseAliases = ReadonlyMap<string, string>;

export const NO_ALIASES: CaseAliases = new Map();

export function caseAliases(spec: Pick<Spec, 'cases'>): CaseAliases {
  return new Map(spec.cases.flatMap((c) => (c.formerly ?? []).map((old) => [old, c.id] as const)));
}

/** The case's id today: its current id for a former one, else the id unchanged. */
export const currentId = (aliases: CaseAliases, id: string): string => aliases.get(id) ?? id;

/**
 * One line per --case glob that names cases by a former id and no current one
 * ("case cpu.ecdsa.sign-1000 is now cpu.ecdsa.sign"), so a user's old command keeps working and says how to update it.
 */
export function renamedCaseNotes(spec: Pick<Spec, 'cases'>, globs: readonly string[]): string[] {
  const notes: string[] = [];
  for (const glob of globs) {
    const re = globToRegExp(glob);
    if (spec.cases.some((c) => re.test(c.id))) continue;
    const renamed = spec.cases.filter((c) => (c.formerly ?? []).some((old) => re.test(old)));
    if (renamed.length === 0) continue;
    const olds = renamed.flatMap((c) => (c.formerly ?? []).filter((old) => re.test(old)));
    notes.push(
      /[*?]/.test(glob)
        ? `case glob "${glob}" matches former ids only (${olds.join(', ')}): it selects ${renamed.map((c) => c.id).join(', ')}; use the current id${renamed.length === 1 ? '' : 's'}`
        : `case ${glob} is now ${renamed.map((c) => c.id).join(', ')} (renamed; its history continues under the new id): use the new id`,
    );
  }
  return notes;
}
