/** Batch arithmetic of Nomad's `command/job_restart.go` `Run`. */

/**
 * The absolute batch size. A percentage is taken of the **eligible** allocations and
 * rounded up, multiplying before dividing like Nomad (5 at 50% → 3, 1% → 1, 200% of 5 → 10).
 */
export function resolveBatchSize(size: { value: number; percent: boolean }, eligibleCount: number): number {
  return size.percent ? Math.ceil((eligibleCount * size.value) / 100) : size.value;
}

/**
 * Beyond Nomad: the absolute `-max-errors` for `plannedCount` planned allocations
 * (`n%` rounded up, like the batch size). A run stops once more allocations than this failed.
 */
export function resolveMaxErrors(
  maxErrors: { value: number; percent: boolean },
  plannedCount: number,
): number {
  return resolveBatchSize(maxErrors, plannedCount);
}

/** Cuts `items` into consecutive batches of `size` (the last may be shorter). */
export function cutBatches<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`batch size must be a positive integer, got ${size}`);
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}

/**
 * Whether `Restarting <ordinal> batch of <n> allocations` headers are printed: Nomad skips
 * them when the batch size is 1 because they would repeat every line.
 */
export function printsBatchHeaders(batchSize: number): boolean {
  return batchSize > 1;
}
