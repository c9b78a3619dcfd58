/**
 * The name of the one-job execution a fleet starts for a job: `<job>-<namespace>-<16 hex digits>`,
 * e.g. `web-prod-3f9c0a1b2c3d4e5f`. Deterministic (the digest is of the fleet run, the namespace
 * and the job), so a retried start finds the execution already started instead of starting a
 * second (Step Functions refuses a second execution of the same name with another input, and
 * returns the first one for the same input). Job first, so the console reads like the job list,
 * and a continued execution's name keeps the job readable (`lib/workflow/continuation-name.ts`).
 */
import { createHash } from 'node:crypto';

/** Step Functions' longest execution name. */
const MAX_NAME_LENGTH = 80;

/** Hex digits of the digest: enough that two jobs of two fleets never meet. */
const DIGEST_LENGTH = 16;

/**
 * The characters kept (the set `lib/workflow/continuation-name.ts` keeps to: safe in CloudWatch
 * Logs and in an ARN); every other character of a job ID (`/`, `.`, spaces...) becomes `-`.
 * https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html
 */
const UNSAFE = /[^A-Za-z0-9_-]/g;

/** The one-job execution name of `job` in `namespace` under fleet run `runId`. */
export function executionName(runId: string, namespace: string, job: string): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([runId, namespace, job]), 'utf8')
    .digest('hex')
    .slice(0, DIGEST_LENGTH);
  const readable = `${job}-${namespace}`.replace(UNSAFE, '-');
  return `${readable.slice(0, MAX_NAME_LENGTH - DIGEST_LENGTH - 1)}-${digest}`;
}
