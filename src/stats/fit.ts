// Ordinary least squares y = a + b x. Used for latency against payload size:
// time = fixed overhead + bytes / throughput, so a is the per-call overhead
// and 1 / b the marginal throughput, free of the overhead that a plain
// bytes / time ratio folds in at small sizes.

export interface LinearFit {
  /** a */
  intercept: number;
  /** b */
  slope: number;
  /** Coefficient of determination; 1 when y is constant and fitted exactly. */
  r2: number;
  /** Standard errors of slope and intercept (NaN when n < 3). */
  slopeStderr: number;
  interceptStderr: number;
  n: number;
}

export function linearFit(x: readonly number[], y: readonly number[]): LinearFit {
  if (x.length !== y.length) throw new RangeError(`x and y differ in length: ${x.length} vs ${y.length}`);
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i] as number;
    my += y[i] as number;
  }
  mx /= n;
  my /= n;
  // Centred sums: numerically safe for nanosecond times at megabyte sizes.
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] as number) - mx;
    const dy = (y[i] as number) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  const slope = sxy / sxx; // NaN when all x are equal: no size dependence can be fitted
  const intercept = my - slope * mx;
  const sse = Math.max(0, syy - slope * sxy);
  const r2 = syy === 0 ? (sxx > 0 ? 1 : NaN) : 1 - sse / syy;
  const s2 = n > 2 ? sse / (n - 2) : NaN;
  const slopeStderr = Math.sqrt(s2 / sxx);
  let sumx2 = 0;
  for (let i = 0; i < n; i++) sumx2 += (x[i] as number) ** 2;
  const interceptStderr = slopeStderr * Math.sqrt(sumx2 / n);
  return { intercept, slope, r2, slopeStderr, interceptStderr, n };
}

export interface OverheadThroughput {
  /** Fixed cost per call, in the time unit of the input. */
  overhead: number;
  /** Marginal size units per time unit (1 / slope). */
  throughput: number;
  r2: number;
  n: number;
}

/** Splits times into fixed overhead and marginal throughput. Units pass through unscaled. */
export function overheadAndThroughput(sizes: readonly number[], times: readonly number[]): OverheadThroughput {
  const f = linearFit(sizes, times);
  return { overhead: f.intercept, throughput: 1 / f.slope, r2: f.r2, n: f.n };
}
