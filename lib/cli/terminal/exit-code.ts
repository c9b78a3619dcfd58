/**
 * The exit code of a run on the local engine, and its one error line: the run's end read as a
 * run on AWS reads it (`lib/workflow/exit-status.ts`), so both print the same line.
 */

import type { ExecutionResult } from '../../engines/local/types';
import type { Formatter } from '../../restart/format';
import { type ExecutionEnding, exitStatusOf, fleetExitStatusOf } from '../../workflow/exit-status';
import type { Terminal } from './terminal';

/** The local engine's result as an execution's end (its failures carry an error and a cause). */
function endingOf(result: ExecutionResult): ExecutionEnding {
  if (result.status === 'SUCCEEDED') return { status: 'SUCCEEDED', output: result.output };
  return { status: result.status, error: result.error ?? '', cause: result.cause ?? '' };
}

/** 0 or 1, as Nomad exits; prints the cause of a failure that no progress event has reported. */
export function exitCodeOf(result: ExecutionResult, formatter: Formatter, terminal: Terminal): number {
  const executionArn = result.executions.at(-1)?.executionArn ?? '';
  // Nothing stops a local run but its own workflow: an abort here is not this command's.
  const status = exitStatusOf(endingOf(result), { executionArn, stoppedByUs: false });
  if (status.message !== undefined) terminal.write(formatter.renderError(status.message));
  return status.exitCode;
}

/**
 * A fleet run's exit code on the local engine (the fleet's rule: 0 only when every selected job
 * restarted or was skipped for its kind); prints the cause of an end the summary block did not say.
 * @param stoppedByUs a confirmed interrupt stopped the fleet: 0, as for one job
 */
export function fleetExitCodeOf(
  result: ExecutionResult,
  formatter: Formatter,
  terminal: Terminal,
  stoppedByUs: boolean,
): number {
  const executionArn = result.executions[0]?.executionArn ?? '';
  const status = fleetExitStatusOf(endingOf(result), { executionArn, stoppedByUs });
  if (status.message !== undefined) terminal.write(formatter.renderError(status.message));
  return status.exitCode;
}
