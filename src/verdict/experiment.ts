// The release experiment's one decision per cell, as Swarm's release reports colour their figures:
// a cell favours a release when its BH-adjusted q is below alpha, in the direction of the
// Hodges–Lehmann shift of B against A (B - A: a negative shift means B is faster); otherwise
// the cell shows no clear difference.
export type CellDirection = 'a-faster' | 'b-faster' | 'unclear';

export function cellDirection(q: number, shift: number, alpha: number): CellDirection {
  if (!(q < alpha) || shift === 0 || !Number.isFinite(shift)) return 'unclear';
  return shift < 0 ? 'b-faster' : 'a-faster';
}
