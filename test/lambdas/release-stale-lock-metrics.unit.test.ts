/**
 * Scenario: a run aborted or timed out ends outside its steps, so no step emits its `run-ended`:
 * the stale-lock rule's handler, invoked as EventBridge invokes it, emits its `Runs` data point
 * under that `Outcome`. A FAILED execution is left to its steps (the Catch's "Release lock after
 * error" emits it), so it is not counted twice.
 */

import { EXECUTION } from '../approvals/helpers/approvals';
import { withoutSharedLock } from '../fixtures/shared-lock-off';
import { parseEmf } from './helpers/emf';
import { captureOutput, lambdaContext } from './helpers/fixtures';

const { handler } = await import('../../lambdas/release-stale-lock');

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';
// As the Lambda runtime sets it: outside Lambda no EMF line is printed.
process.env['AWS_LAMBDA_FUNCTION_NAME'] = 'nomad-restart-test';

describe('release-stale-lock handler’s run metric', () => {
  // No Nomad beside this test: the job's shared lock is test/faults/interrupted-run.test.ts's.
  withoutSharedLock();

  it.each([
    { status: 'ABORTED', expected: [{ service: expect.any(String), Outcome: 'aborted' }] },
    { status: 'TIMED_OUT', expected: [{ service: expect.any(String), Outcome: 'timed-out' }] },
  ])('counts a $status execution as a run ended $expected.0.Outcome', async ({ status, expected }) => {
    // Arrange
    const event = { detail: { executionArn: EXECUTION, status, input: '{"job":"web"}' } };

    // Act
    const { output } = await captureOutput(() => handler(event, lambdaContext()));

    // Assert
    const runs = parseEmf(output.split('\n').filter((l) => l.includes('"_aws"')));
    expect(runs).toEqual([
      expect.objectContaining({
        namespace: 'NomadRestart',
        name: 'Runs',
        unit: 'Count',
        value: 1,
        dimensions: expected,
      }),
    ]);
    expect(runs[0]?.line).toMatchObject({ runId: EXECUTION });
  });

  it('leaves a FAILED execution’s end to the steps that failed it', async () => {
    // Arrange
    const event = { detail: { executionArn: EXECUTION, status: 'FAILED', input: '{"job":"web"}' } };

    // Act
    const { output } = await captureOutput(() => handler(event, lambdaContext()));

    // Assert
    expect(output).not.toContain('"_aws"');
  });
});
