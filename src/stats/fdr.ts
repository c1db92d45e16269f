// Benjamini–Hochberg false-discovery-rate adjustment, R's p.adjust(p, "BH"):
// q_(i) = min over k >= i of (m / k) p_(k), capped at 1. A PR table tests many
// rows at once; BH keeps the expected share of false alarms among flagged rows
// at alpha. NaN p-values pass through and do not count towards m (R's NA rule).
export function benjaminiHochberg(p: readonly number[]): number[] {
  const idx = p.map((_, i) => i).filter((i) => !Number.isNaN(p[i] as number));
  const m = idx.length;
  const q: number[] = p.map(() => NaN);
  idx.sort((a, b) => (p[b] as number) - (p[a] as number)); // descending p
  let running = Infinity;
  idx.forEach((i, r) => {
    const k = m - r; // rank of p[i] in ascending order
    running = Math.min(running, ((p[i] as number) * m) / k);
    q[i] = Math.min(1, running);
  });
  return q;
}
