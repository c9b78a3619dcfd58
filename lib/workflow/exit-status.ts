/**
 * Nomad's exit code (`command/job_restart.go` `Run`) for how a run's last execution ended, and the
 * one error line to print when no progress event has said it already. One rule for both engines:
 * the local engine and a run on AWS print the same line for the same end, worded as Nomad words
 * a failure (`Error retrieving versions of job %q: %s`: what failed, a colon, the cause).
 */
import { goQuote } from '../go/quote';
import type { FreshnessOfRun } from '../restart/freshness/lines';
import { staleFails } from '../restart/freshness/stale';
import { causeMessage } from './errors';
import { FleetFailStates } from './fleet-state-names';
import { FailStates } from './state-names';

/** How an execution ended: its output, or the error and cause it ended with. */
export type ExecutionEnding =
  | { readonly status: 'SUCCEEDED'; readonly output: unknown }
  | {
      readonly status: 'FAILED' | 'ABORTED' | 'TIMED_OUT';
      readonly error: string;
      readonly cause: string;
    };

/** The exit code and the message to print on stderr, if any. */
export interface ExitStatus {
  readonly exitCode: 0 | 1;
  readonly message: string | undefined;
}

/** Fail states whose cause is Nomad's message, printed as is. */
const PRINT_CAUSE = new Set<string>([
  FailStates.invalidInput,
  FailStates.jobNotFound,
  FailStates.jobLocked,
  FailStates.rescheduleNotAllowed,
  FailStates.stepFailed,
  FailStates.executionRedriven,
]);
/** Fail states whose errors the `finished` event has already printed. */
const REPORTED = new Set<string>([FailStates.unrecoverableError, FailStates.restartFailed]);

const status = (exitCode: 0 | 1, message?: string): ExitStatus => ({ exitCode, message });

/**
 * @param end how the last execution of the run ended
 * @param ctx.executionArn that execution
 * @param ctx.stoppedByUs this command stopped it (a confirmed interrupt, without a lock table)
 */
export function exitStatusOf(
  end: ExecutionEnding,
  ctx: { readonly executionArn: string; readonly stoppedByUs: boolean },
): ExitStatus {
  switch (end.status) {
    case 'SUCCEEDED': {
      const summary = end.output as
        | { outcome?: unknown; errorText?: unknown; freshness?: FreshnessOfRun | null }
        | null
        | undefined;
      const failed = summary?.outcome === 'failed' || summary?.outcome === 'unrecoverable';
      // Beyond Nomad (`startedBefore`): allocations still stale fail the run as a failed batch does.
      const stale = Array.isArray(summary?.freshness?.stale) && staleFails(summary.freshness);
      return status(
        failed || stale || (typeof summary?.errorText === 'string' && summary.errorText !== '') ? 1 : 0,
      );
    }
    case 'FAILED': {
      // A confirmed interrupt ends the workflow as Canceled; Nomad exits 0 there.
      if (end.error === FailStates.canceled) return status(0);
      if (REPORTED.has(end.error)) return status(1);
      const cause = causeMessage(end.cause);
      if (PRINT_CAUSE.has(end.error)) return status(1, cause === '' ? end.error : cause);
      return status(1, `Restart failed: ${end.error}${cause === '' ? '' : `: ${cause}`}`);
    }
    case 'ABORTED': {
      if (ctx.stoppedByUs) return status(0);
      const cause = causeMessage(end.cause);
      return status(
        1,
        `Restart aborted: execution ${goQuote(ctx.executionArn)} was stopped${cause === '' ? '' : `: ${cause}`}`,
      );
    }
    case 'TIMED_OUT':
      return status(1, `Restart timed out: execution ${goQuote(ctx.executionArn)} ran past its time limit`);
  }
}

/** Fleet Fail states whose cause is a message to print as is (Nomad's words, or a step's). */
const FLEET_PRINT_CAUSE = new Set<string>([FleetFailStates.invalidInput, FleetFailStates.stepFailed]);

/**
 * The fleet's rule, beside the one-job one: exit 0 only when every selected job restarted or was
 * skipped for its kind (the summary's `finished`). The summary block (the `fleet-finished` event)
 * has said why when it is not; only an end without a summary gets a line here.
 * @param end how the fleet execution ended
 * @param ctx.executionArn the fleet execution
 * @param ctx.stoppedByUs this command stopped it (a confirmed interrupt): 0, as for one job
 */
export function fleetExitStatusOf(
  end: ExecutionEnding,
  ctx: { readonly executionArn: string; readonly stoppedByUs: boolean },
): ExitStatus {
  switch (end.status) {
    case 'SUCCEEDED': {
      const summary = end.output as { outcome?: unknown } | null | undefined;
      return status(summary?.outcome === 'finished' ? 0 : 1);
    }
    case 'FAILED': {
      if (end.error === FleetFailStates.fleetFinishedWithErrors) return status(1);
      const cause = causeMessage(end.cause);
      if (FLEET_PRINT_CAUSE.has(end.error)) return status(1, cause === '' ? end.error : cause);
      return status(1, `Fleet restart failed: ${end.error}${cause === '' ? '' : `: ${cause}`}`);
    }
    case 'ABORTED':
      if (ctx.stoppedByUs) return status(0);
      return status(1, `Fleet restart aborted: execution ${goQuote(ctx.executionArn)} was stopped`);
    case 'TIMED_OUT':
      return status(
        1,
        `Fleet restart timed out: execution ${goQuote(ctx.executionArn)} ran past its time limit`,
      );
  }
}
