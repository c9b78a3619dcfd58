/**
 * The name `StartExecution` is given, once per command invocation. Step Functions makes a start
 * idempotent only through the name: a retry with the same name and input returns the running
 * execution (or `ExecutionAlreadyExists` once it has ended) instead of starting a second one, so
 * a start whose answer was lost cannot leave an unobserved run behind.
 */
import { randomBytes } from 'node:crypto';

/** Step Functions' longest execution name. */
export const MAX_EXECUTION_NAME_LENGTH = 80;
/**
 * Characters every execution name here keeps to: Step Functions allows more, but only these are
 * safe in CloudWatch Logs and in the ARN a user copies into `attach`.
 */
export const EXECUTION_NAME_RE = /^[A-Za-z0-9_-]{1,80}$/;
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
  const job = jobId.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, JOB_PART_LENGTH) || 'job';
  return `${job}-${compactUtc(now)}-${random(8).toString('hex')}`;
}
