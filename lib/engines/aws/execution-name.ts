/**
 * The name `StartExecution` is given, once per command invocation. Step Functions makes a start
 * idempotent only through the name: a retry with the same name and input returns the running
 * execution (or `ExecutionAlreadyExists` once it has ended) instead of starting a second one, so
 * a start whose answer was lost cannot leave an unobserved run behind.
 */
import { randomBytes } from 'node:crypto';
import { nameSafe } from '../../workflow/continuation-name';

// One rule for every execution name, the first and each continued one.
export { EXECUTION_NAME_RE, MAX_EXECUTION_NAME_LENGTH } from '../../workflow/continuation-name';

/** How much of the job ID the name keeps, so the console shows which job a run restarts. */
const JOB_PART_LENGTH = 40;

/** `20261124T101500Z`: sortable, and free of the `:` a name may not hold. */
function compactUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A fresh, unique execution name: `<job>-<UTC time>-<16 hex digits>`, at most 80 characters of
 * `[A-Za-z0-9_-]` whatever the job ID holds (other characters become `-`).
 */
export function newExecutionName(
  jobId: string,
  now: number = Date.now(),
  random: (bytes: number) => Buffer = randomBytes,
): string {
  const job = nameSafe(jobId).slice(0, JOB_PART_LENGTH) || 'job';
  return `${job}-${compactUtc(now)}-${random(8).toString('hex')}`;
}
