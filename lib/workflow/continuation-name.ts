/**
 * The name "Continue as new execution" gives the execution it starts:
 * `<job>-<first execution's name>-<12 hex digits>-<number>`, e.g.
 * `web-20261124T100000Z-3f9c0a1b2c3d4e5f-8c1d2e3f4a5b-2`, so the console shows which job and
 * which run a continued execution belongs to. The 12 hex digits are the start of the SHA-1 of
 * the run's identity (its first execution's ARN): two runs never share a successor name, even
 * when the readable part was cut or had characters replaced.
 *
 * The name must be the same on every try of one hand-over (a retried `StartExecution` then finds
 * the execution already started instead of starting a second), and the terminal must compute it
 * too (to find a successor the history has not recorded yet, and a run's earlier executions). So
 * it depends on the run alone: "Validate input" (and "Resume run", for a state from before the
 * field) writes its prefix into the state once, and the definition only appends the number.
 */
import { sha1Hex } from '../digest/sha1';

/** Step Functions' longest execution name. */
export const MAX_EXECUTION_NAME_LENGTH = 80;

/**
 * Characters every execution name here keeps to: Step Functions allows more, but only these are
 * safe in CloudWatch Logs and in the ARN a user copies into `attach`.
 * (https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html)
 */
export const EXECUTION_NAME_RE = /^[A-Za-z0-9_-]{1,80}$/;

/** Hex digits of the run's SHA-1 in the name: enough that two runs never meet. */
const RUN_DIGEST_LENGTH = 12;

/**
 * Digits kept free for the execution number: a run continues as new at most once per
 * `batchesPerExecution` batches, far fewer than a million times.
 */
const NUMBER_LENGTH = 6;

/** Room for the readable part: the rest of the 80 characters after `-<digest>-<number>`. */
const READABLE_LENGTH = MAX_EXECUTION_NAME_LENGTH - RUN_DIGEST_LENGTH - NUMBER_LENGTH - 2;

/** `text` in the characters of {@link EXECUTION_NAME_RE}: every other character becomes `-`. */
export function nameSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '-');
}

/** The last part of an execution ARN (its name), or the whole id of a local execution. */
const executionNameOf = (executionId: string) => executionId.slice(executionId.lastIndexOf(':') + 1);

/**
 * What every continued execution of run `runId` (the ARN or local id of its first execution)
 * restarting `job` (the job as the run's input names it) is named after: the job, unless the first
 * execution's name already starts with it (the CLI's do), that name, and the run's digest.
 */
export function continuationNamePrefix(runId: string, job: string): string {
  const first = nameSafe(executionNameOf(runId));
  const jobPart = nameSafe(job);
  const readable = jobPart === '' || first.startsWith(`${jobPart}-`) ? first : `${jobPart}-${first}`;
  const digest = sha1Hex(runId).slice(0, RUN_DIGEST_LENGTH);
  return `${readable.slice(0, READABLE_LENGTH)}-${digest}`;
}

/** The name of execution number `executionNumber` (2 or more) of the run `runId` restarting `job`. */
export function continuationExecutionName(runId: string, job: string, executionNumber: number): string {
  return `${continuationNamePrefix(runId, job)}-${executionNumber}`;
}
