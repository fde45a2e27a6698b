// Sample quantiles: linear interpolation between order statistics (Hyndman and Fan 1996 type 7,
// the default of R and NumPy). Pure.

/** The p-quantile (0 <= p <= 1) of values already sorted ascending. */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError('quantile of no values');
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Several quantiles of unsorted values (the values are not changed). */
export function quantiles(values: ArrayLike<number>, ps: readonly number[]): number[] {
  const sorted = Float64Array.from(values).sort();
  return ps.map((p) => quantileSorted(sorted, p));
}
