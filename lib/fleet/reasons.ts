/**
 * Why a selected job was not restarted, in words: the one place each {@link FleetJobProblem} is
 * worded, so the terminal's summary block, the execution output and the report say the same.
 * And which of them make a fleet run end "with errors" (exit 1).
 */
import { goQuote } from '../go/quote';
import { formatTimestamp } from '../restart/text';
import type { FleetJobProblem } from './events';

/** What the wording of a problem needs from the run. */
export interface ProblemContext {
  /** `-max-failed-jobs`: the budget a "not reached" job names. */
  readonly maxFailedJobs: number;
}

const NOT_REACHED: Readonly<
  Record<Extract<FleetJobProblem, { kind: 'not-reached' }>['why'], (ctx: ProblemContext) => string>
> = {
  'max-failed-jobs': (ctx) => `the failure budget (-max-failed-jobs ${ctx.maxFailedJobs}) ran out`,
  'window-ended': () => 'the maintenance window ended',
  stopped: () => 'the fleet run was stopped',
};

/** The reason of a job not restarted, as its summary line says it (after `<namespace>/<job>: `). */
export function problemText(problem: FleetJobProblem, ctx: ProblemContext): string {
  switch (problem.kind) {
    case 'sysbatch':
      return 'skipped: sysbatch jobs are not restarted';
    case 'stopped':
      return `skipped: the job is not running (status ${goQuote(problem.status)})`;
    case 'parameterized':
      return 'skipped: a parameterized job has no allocations of its own';
    case 'periodic':
      return 'skipped: a periodic job has no allocations of its own';
    case 'child':
      return `skipped: dispatched or periodic child of ${goQuote(problem.parentId)} (finite batch work)`;
    case 'nothing-in-scope':
      return 'skipped: no running allocation in scope';
    case 'fresh':
      return `skipped: every allocation in scope started after ${formatTimestamp(problem.startedBefore, 'UTC')}`;
    case 'not-inspectable':
      return `skipped: not inspectable: ${problem.templates.join('; ')}`;
    case 'locked':
      return `locked by ${problem.holder}`;
    case 'not-reached':
      return `not reached: ${NOT_REACHED[problem.why](ctx)}`;
    case 'failed':
      return `failed: ${problem.message}`;
    case 'window-ended-midway':
      return `stopped at the end of the maintenance window: ${problem.done} of ${problem.of} allocations done`;
    case 'canceled':
      return `canceled: ${problem.message}`;
  }
}

/**
 * Skips for the job's kind (the plan's classification): they never make a run end with errors,
 * because there was nothing for a restart to do.
 */
const KIND_SKIPS: ReadonlySet<FleetJobProblem['kind']> = new Set([
  'sysbatch',
  'stopped',
  'parameterized',
  'periodic',
  'child',
  'nothing-in-scope',
  'fresh',
  'not-inspectable',
]);

/**
 * Whether a problem makes the fleet run end "with errors" (exit 1): every one but a skip for the
 * job's kind and, in a scheduled run, a locked job (skipped there as a one-job scheduled run
 * skips it, `skipped-job-locked`).
 */
export function isFleetError(problem: FleetJobProblem, ctx: { readonly scheduled: boolean }): boolean {
  if (KIND_SKIPS.has(problem.kind)) return false;
  return !(problem.kind === 'locked' && ctx.scheduled);
}
