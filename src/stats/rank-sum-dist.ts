// Exact null distribution of the Mann–Whitney U statistic (R's pwilcox /
// qwilcox). No maintained npm package provides it, so it is built here by the
// classic recurrence on the largest observation of the pooled sample:
//   f(u; m, n) = m/(m+n) f(u - n; m-1, n) + n/(m+n) f(u; m, n-1)
// carried in probabilities (all terms positive, so no cancellation and no
// overflow where the counts C(m+n, m) exceed 2^53).

const CACHE_LIMIT = 32;
const cache = new Map<string, Float64Array>();

/** P(U <= u) for u = 0 .. m*n. */
function cumulative(m: number, n: number): Float64Array {
  const a = Math.min(m, n);
  const b = Math.max(m, n); // U's law is symmetric in (m, n)
  const key = `${a},${b}`;
  const hit = cache.get(key);
  if (hit) return hit;

  let prev: Float64Array[] = Array.from({ length: b + 1 }, () => Float64Array.of(1));
  for (let i = 1; i <= a; i++) {
    const cur: Float64Array[] = [Float64Array.of(1)];
    for (let j = 1; j <= b; j++) {
      const out = new Float64Array(i * j + 1);
      const fx = prev[j] as Float64Array; // largest is an x: it beats all j y's
      const fy = cur[j - 1] as Float64Array; // largest is a y: adds nothing
      const wx = i / (i + j);
      const wy = j / (i + j);
      for (let u = 0; u < fy.length; u++) out[u] = wy * (fy[u] as number);
      for (let u = 0; u < fx.length; u++) out[u + j] = (out[u + j] as number) + wx * (fx[u] as number);
      cur.push(out);
    }
    prev = cur;
  }
  const dens = prev[b] as Float64Array;
  const cum = new Float64Array(dens.length);
  let s = 0;
  for (let u = 0; u < dens.length; u++) cum[u] = s += dens[u] as number;
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, cum);
  return cum;
}

/** P(U <= q) for sample sizes m and n. */
export function pwilcox(q: number, m: number, n: number): number {
  const u = Math.floor(q + 1e-7);
  if (u < 0) return 0;
  if (u >= m * n) return 1;
  return cumulative(m, n)[u] as number;
}

/** Smallest q with P(U <= q) >= p (with R's 10 eps slack against rounding). */
export function qwilcox(p: number, m: number, n: number): number {
  const cum = cumulative(m, n);
  const target = p - 10 * Number.EPSILON;
  for (let u = 0; u < cum.length; u++) if ((cum[u] as number) >= target) return u;
  return m * n;
}
