/**
 * Scenario: the validate-input function reads an input as a deployment check's only when the
 * check's own Task says so (`deploymentCheck: true` in its payload); on the restart path the same
 * input is refused by the restart schema, naming the field.
 */
import { lambdaContext } from './helpers/fixtures';

const { handler: validateInput } = await import('../../lambdas/validate-input');
const EXECUTION = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:check-1';

describe('the Validate input handler', () => {
  it('reads {"deploymentCheck": true} as a check when its Task says so', async () => {
    // Act
    const state = await validateInput(
      { input: { deploymentCheck: true }, executionId: EXECUTION, deploymentCheck: true },
      lambdaContext(),
    );

    // Assert
    expect(state).toEqual({ deploymentCheck: true, run: { runId: EXECUTION, executionId: EXECUTION } });
  });

  it('refuses a deploymentCheck field on the restart path, naming it', async () => {
    // Act
    const validating = validateInput(
      { input: { job: 'web', deploymentCheck: true }, executionId: EXECUTION },
      lambdaContext(),
    );

    // Assert
    await expect(validating).rejects.toMatchObject({
      name: 'InvalidInputError',
      message: expect.stringContaining('"deploymentCheck"'),
    });
  });
});
