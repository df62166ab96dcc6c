/**
 * Runs `task` for every item with at most `concurrency` running at once, in the items' order, and resolves
 * with every result in that order once all have settled. `task` should not throw (return a failure value
 * instead); a throw rejects the whole run. When `signal` aborts, items not started yet are passed to
 * `skipped` instead.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<R>,
  skipped: (item: T) => R,
  signal?: AbortSignal,
): Promise<R[]> {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error(`concurrency must be a whole number of at least 1, got ${concurrency}`);
  }
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      const item = items[index] as T;
      results[index] = signal?.aborted ? skipped(item) : await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
