/**
 * Scenario: the plan function runs the deployment check's read only when the check's own Task
 * says so (`deploymentCheck: true` in its payload): it then needs the job to read, and a payload
 * without one is refused as the state machine's fault, before any Nomad request.
 */
import { lambdaContext } from './helpers/fixtures';

const { handler: plan } = await import('../../lambdas/plan');

describe('the Plan restart handler, for a deployment check', () => {
  it('refuses a check payload without a job to read, naming the field', async () => {
    // Act
    const reading = plan({ deploymentCheck: true }, lambdaContext());

    // Assert
    await expect(reading).rejects.toMatchObject({
      name: 'StepPayloadError',
      message: 'Task input has no "reach.job": the state machine passes $.reach',
    });
  });
});
