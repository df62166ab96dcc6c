/** One measured point: a wall time for a number of resources. */
interface TimePoint {
  readonly resources: number;
  readonly ms: number;
}

/** time ~ coefficient x resources^exponent, fitted by least squares on log time against log resources. */
interface GrowthFit {
  /** 1 is linear, 2 quadratic; 0 a constant cost. */
  readonly exponent: number;
  /** ms at 1 resource on the fitted curve. */
  readonly coefficient: number;
  /** The points the fit used. */
  readonly points: number;
}

/**
 * Fits time = c x n^k over `points` (ordinary least squares of ln time on ln n). Undefined when fewer than two
 * distinct resource counts remain, or when a count or time is not positive (its logarithm does not exist).
 */
export function fitGrowth(points: readonly TimePoint[]): GrowthFit | undefined {
  const usable = points.filter((p) => p.resources > 0 && p.ms > 0 && Number.isFinite(p.ms));
  if (new Set(usable.map((p) => p.resources)).size < 2) return undefined;
  const xs = usable.map((p) => Math.log(p.resources));
  const ys = usable.map((p) => Math.log(p.ms));
  const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    const dx = (xs[i] ?? 0) - mx;
    sxy += dx * ((ys[i] ?? 0) - my);
    sxx += dx * dx;
  }
  const exponent = sxy / sxx;
  return { exponent, coefficient: Math.exp(my - exponent * mx), points: usable.length };
}

/**
 * The largest exponent compatible with "time per resource at 10x the resources within `ratio`x": time per
 * resource grows as n^(k-1), so 10^(k-1) <= ratio.
 */
export function exponentBound(ratio: number, scale = 10): number {
  return 1 + Math.log(ratio) / Math.log(scale);
}
