/**
 * The record of a run that ended on the failure path ("Release lock after error": the state
 * machine's Catch), which skips "Finish restart": a confirmed interrupt (`Canceled`), an error no
 * retry got past. Only a run that held the job has a record to end: one refused the job (another
 * run holds it) never wrote one, and must not write over the holder's history with its failure.
 */

import type { ProgressEvent } from '../../restart/events';
import type { RunOutcome } from '../../restart/run/outcome';
import { causeMessage } from '../../workflow/errors';
import type { TaskFailure } from '../../workflow/payloads';
import { FailStates } from '../../workflow/state-names';
import { type JobRunState, recordRunEnded } from '../kit/job-history';
import type { StepKit } from '../kit/step-kit';

/** How the failure path ends a run, by the error the Catch caught. */
export function outcomeOfFailure(error: Pick<TaskFailure, 'Error'>): RunOutcome {
  if (error.Error === FailStates.canceled) return 'canceled';
  if (error.Error === FailStates.unrecoverableError) return 'unrecoverable';
  return 'error';
}

/**
 * Ends the record of the run of `state`, which held the job, with the failure `error`; answers the
 * events (`run-ended`). A cancel keeps the run's batch errors and who stopped it; any other failure
 * leads with its own message.
 */
export async function endAfterErrorStep(
  kit: StepKit,
  state: JobRunState,
  error: Partial<TaskFailure>,
): Promise<ProgressEvent[]> {
  const { events, emit } = kit.recorder();
  const outcome = outcomeOfFailure({ Error: error.Error ?? '' });
  const record = await kit.loadRun(state.run.runId);
  const batchErrors = record.errors.map((e) => e.message);
  const cause = error.Cause === undefined || error.Cause === '' ? undefined : causeMessage(error.Cause);
  const errors =
    outcome === 'canceled' || cause === undefined
      ? batchErrors
      : [`${error.Error}: ${cause}`, ...batchErrors];
  await recordRunEnded(
    kit,
    state,
    {
      outcome,
      endedAt: kit.now(),
      errors,
      ...(outcome === 'canceled' && record.stoppedBy !== undefined ? { stoppedBy: record.stoppedBy } : {}),
    },
    emit,
  );
  return events;
}
