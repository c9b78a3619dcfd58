import { RestartValidationError } from '../../lib/restart/errors';
import { validateDeploymentCheckInput } from '../../lib/workflow/deployment-check';

const EXECUTION = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:check-1';

describe('validateDeploymentCheckInput', () => {
  it('takes {"deploymentCheck": true} and names the run after the execution', () => {
    // Act
    const state = validateDeploymentCheckInput({ deploymentCheck: true }, EXECUTION);

    // Assert
    expect(state).toEqual({ deploymentCheck: true, run: { runId: EXECUTION, executionId: EXECUTION } });
  });

  it.each([
    {
      name: 'a value other than true',
      input: { deploymentCheck: 'yes' },
      expectedErr: 'Invalid input field "deploymentCheck": got "yes", expected true',
    },
    {
      name: 'false',
      input: { deploymentCheck: false },
      expectedErr: 'Invalid input field "deploymentCheck": got false, expected true',
    },
    {
      name: 'an input that is not an object',
      input: [true],
      expectedErr: 'Invalid input field "deploymentCheck": got nothing, expected true',
    },
    {
      name: 'a restart field beside it',
      input: { deploymentCheck: true, job: 'web' },
      expectedErr:
        'Invalid input field "job": got "web", but a deployment check ({"deploymentCheck": true}) takes no other field',
    },
    {
      name: 'a forged continuation beside it',
      input: { deploymentCheck: true, continuation: {} },
      expectedErr:
        'Invalid input field "continuation": got {}, but a deployment check ({"deploymentCheck": true}) takes no other field',
    },
  ])('refuses $name, naming the field', ({ input, expectedErr }) => {
    // Act / Assert
    expect(() => validateDeploymentCheckInput(input, EXECUTION)).toThrow(
      new RestartValidationError(expectedErr),
    );
  });
});
