// Figures of one run joined onto another run's result: a counting or allocation run's figures
// onto the wall-time result (single runs, merged shards), matched by case id and param label.
import type { CaseResult, Result } from '../spec/schema.js';

const rowKey = (c: CaseResult) => `${c.id}\u0000${String(c.param.label)}`;

/** `into` with the figures `pick` takes from the matching case of `from`, and `meta` when any matched. */
export function attachFigures(into: Result, from: Result, pick: (c: CaseResult) => Partial<CaseResult> | null, meta: Partial<Result>): Result {
  const byKey = new Map(
    from.cases.flatMap((c) => {
      const figures = pick(c);
      return figures ? [[rowKey(c), figures] as const] : [];
    }),
  );
  if (byKey.size === 0) return into;
  return { ...into, ...meta, cases: into.cases.map((c) => ({ ...c, ...byKey.get(rowKey(c)) })) };
}
