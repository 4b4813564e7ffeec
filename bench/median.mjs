// The median the benchmarks report: the middle value, or the mean of the two middle ones.

/** The median of `values` (numbers; the array is not changed). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
