// Scenario: the table "Which error?" is built from is the one a terminal run reads when its plan
// fails before the engine is loaded (lib/engines/local/plan-first.ts). That run ends at the first
// such error, so none of them may be one a Lambda step's Retry would try again.
import { FAIL_ROUTES, failStateOf, INVALID_INPUT_ROUTE } from '../../lib/workflow/failure-routes';
import { IDEMPOTENT_STEP_RETRY_ERRORS } from '../../lib/workflow/private/retry-catch';

describe('failure routes', () => {
  it.each([
    ['JobNotFoundError', 'JobNotFound'],
    ['MultipleJobsMatchedError', 'JobNotFound'],
    ['JobLockedError', 'JobLocked'],
    ['RescheduleNotAllowedError', 'RescheduleNotAllowed'],
    ['Canceled', 'Canceled'],
    ['NomadTransientError', 'StepFailed'],
    ['TypeError', 'StepFailed'],
  ])('sends %s to %s', (error, fail) => {
    // Act
    const sent = failStateOf(error);

    // Assert
    expect(sent).toBe(fail);
  });

  it('names no error a Lambda step retries', () => {
    // Arrange
    const routed = [...FAIL_ROUTES, INVALID_INPUT_ROUTE].flatMap((route) => route.errors);

    // Act
    const retried = routed.filter((error) => IDEMPOTENT_STEP_RETRY_ERRORS.includes(error));

    // Assert
    expect(routed.length).toBeGreaterThan(4);
    expect(retried).toEqual([]);
  });
});
