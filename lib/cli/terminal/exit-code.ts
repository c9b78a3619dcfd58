/**
 * Nomad's exit code (`command/job_restart.go` `Run`) for how an execution ended, printing the cause of a
 * failure that no progress event has already reported.
 */

import type { ExecutionResult } from '../../engines/local/types';
import type { Formatter } from '../../restart/format';
import type { Terminal } from './terminal';

/** Fail states whose cause is Nomad's message, printed as is. */
const PRINT_CAUSE = new Set([
  'InvalidInput',
  'JobNotFound',
  'JobLocked',
  'RescheduleNotAllowed',
  'StepFailed',
]);
/** Fail states whose errors the `finished` event has already printed. */
const REPORTED = new Set(['UnrecoverableError', 'RestartFailed']);

/** 0 or 1, as Nomad exits. */
export function exitCodeOf(result: ExecutionResult, formatter: Formatter, terminal: Terminal): number {
  if (result.status === 'SUCCEEDED') {
    const summary = result.output as { outcome?: string; errorText?: string } | undefined;
    if (summary?.outcome === 'failed' || summary?.outcome === 'unrecoverable') return 1;
    return summary?.errorText ? 1 : 0;
  }
  // A confirmed interrupt ends the workflow as Canceled; Nomad exits 0 there.
  if (result.error === 'Canceled') return 0;
  if (result.error !== undefined && PRINT_CAUSE.has(result.error) && result.cause) {
    terminal.write(formatter.renderError(result.cause));
  } else if (result.status !== 'FAILED' || !REPORTED.has(result.error ?? '')) {
    const text = `Restart ${result.status.toLowerCase()}: ${result.error ?? ''} ${result.cause ?? ''}`;
    terminal.write(formatter.renderError(text.trim()));
  }
  return 1;
}
