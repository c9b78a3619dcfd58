/**
 * Errors of the restart steps themselves. Every Nomad failure a restart reports has its
 * message class in the domain (`../errors`: `NomadQueryError`, `AllocationStepError`,
 * `AllocationRestartError`...); these cover what only the steps can get wrong.
 */
import { RestartError } from '../../restart/errors';

/** Base class of the steps' own errors. */
export class RestartStepError extends RestartError {
  override readonly kind: string = 'step';
}

/** A batch index outside the stored plan: the state machine's cursor and the plan disagree. */
export class PlanBatchOutOfRangeError extends RestartStepError {
  override readonly kind = 'plan-batch-out-of-range';

  public constructor(batchIndex: number, batchCount: number) {
    super(`Batch index ${batchIndex} is outside the plan, which has ${batchCount} batches`);
  }
}

/**
 * `Allocation "<id>" disappeared while waiting for its replacement`: Nomad garbage-collected
 * an allocation of the chain mid-wait, so its replacement can no longer be followed (or, with
 * `-wait-healthy`, its health can no longer be judged).
 */
export class AllocationVanishedError extends RestartStepError {
  override readonly kind = 'allocation-vanished';

  public constructor(displayedId: string, waitingFor = 'its replacement') {
    super(`Allocation "${displayedId}" disappeared while waiting for ${waitingFor}`);
  }
}
