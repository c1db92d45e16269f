// Mid-ranks (R's rank(ties.method = "average")) plus the tie structure the
// normal approximations need for their variance correction.

export interface Ranked {
  /** 1-based ranks, tied values share the mean of their positions. */
  ranks: Float64Array;
  /** Sizes of tie groups with more than one member. */
  ties: number[];
}

export function rank(values: ArrayLike<number>): Ranked {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (values[a] as number) - (values[b] as number));
  const ranks = new Float64Array(n);
  const ties: number[] = [];
  let i = 0;
  while (i < n) {
    let j = i + 1;
    const v = values[order[i] as number] as number;
    while (j < n && values[order[j] as number] === v) j++;
    const mid = (i + 1 + j) / 2; // mean of positions i+1 .. j
    for (let k = i; k < j; k++) ranks[order[k] as number] = mid;
    if (j - i > 1) ties.push(j - i);
    i = j;
  }
  return { ranks, ties };
}

/** sum(t^3 - t) over tie groups: the term both rank tests subtract from their variance. */
export function tieSum(ties: readonly number[]): number {
  let s = 0;
  for (const t of ties) s += t * t * t - t;
  return s;
}
