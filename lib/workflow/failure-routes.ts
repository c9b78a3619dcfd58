/**
 * Which `Fail` state a caught error ends in. The definition's failure funnel builds its "Which
 * error?" Choice from {@link FAIL_ROUTES} (definition.ts), and a terminal run whose plan fails
 * before the local engine is loaded (lib/engines/local/plan-first.ts) ends by
 * {@link failStateOf}: one table, so the two can never send an error to different ends.
 */
import { WORKFLOW_ERROR_NAMES } from './errors';
import { FailStates } from './state-names';

/** Errors (their ASL `Error`) that end in the Fail state `fail`. */
export interface FailRoute {
  readonly errors: readonly string[];
  readonly fail: string;
}

/** "Which error?", in the Choice's order; an error none names ends in {@link OTHERWISE_FAIL_STATE}. */
export const FAIL_ROUTES: readonly FailRoute[] = [
  {
    errors: [WORKFLOW_ERROR_NAMES.jobNotFound, WORKFLOW_ERROR_NAMES.multipleJobsMatched],
    fail: FailStates.jobNotFound,
  },
  { errors: [WORKFLOW_ERROR_NAMES.jobLocked], fail: FailStates.jobLocked },
  { errors: [WORKFLOW_ERROR_NAMES.rescheduleNotAllowed], fail: FailStates.rescheduleNotAllowed },
  // The "Cancel requested" Pass state names its error after the Fail state itself.
  { errors: [FailStates.canceled], fail: FailStates.canceled },
];

/** Where "Which error?" sends any other error. */
export const OTHERWISE_FAIL_STATE = FailStates.stepFailed;

/**
 * "Validate input"'s own Catch: bad input ends at once in `InvalidInput`, before the failure
 * funnel (a run that never held the lock must not release it).
 */
export const INVALID_INPUT_ROUTE: FailRoute = {
  errors: [WORKFLOW_ERROR_NAMES.invalidInput],
  fail: FailStates.invalidInput,
};

/** The Fail state "Which error?" ends an error named `error` in. */
export function failStateOf(error: string): string {
  return FAIL_ROUTES.find((route) => route.errors.includes(error))?.fail ?? OTHERWISE_FAIL_STATE;
}
