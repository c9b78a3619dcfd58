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

  it('takes a job to reach, with its namespace, and hands it on', () => {
    // Act
    const state = validateDeploymentCheckInput(
      { deploymentCheck: true, reach: { job: 'web', namespace: 'prod' } },
      EXECUTION,
    );

    // Assert
    expect(state.reach).toEqual({ job: 'web', namespace: 'prod' });
  });

  it('leaves an empty namespace to the functions', () => {
    // Act
    const state = validateDeploymentCheckInput(
      { deploymentCheck: true, reach: { job: 'web', namespace: '' } },
      EXECUTION,
    );

    // Assert
    expect(state.reach).toEqual({ job: 'web' });
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
        'Invalid input field "job": got "web", but a deployment check ({"deploymentCheck": true}) takes no other field than "reach"',
    },
    {
      name: 'a forged continuation beside it',
      input: { deploymentCheck: true, continuation: {} },
      expectedErr:
        'Invalid input field "continuation": got {}, but a deployment check ({"deploymentCheck": true}) takes no other field than "reach"',
    },
    {
      name: 'a reach without a job',
      input: { deploymentCheck: true, reach: { namespace: 'prod' } },
      expectedErr: 'Invalid input field "reach.job": got nothing, expected a job ID',
    },
    {
      name: 'a reach that is a string',
      input: { deploymentCheck: true, reach: 'web' },
      expectedErr:
        'Invalid input field "reach": got "web", expected an object {"job": <job ID>, "namespace"?: <namespace>}',
    },
    {
      name: 'a reach with a restart option',
      input: { deploymentCheck: true, reach: { job: 'web', yes: true } },
      expectedErr: 'Invalid input field "reach.yes": got true, expected only "job" and "namespace"',
    },
    {
      name: 'a reach namespace that is not a string',
      input: { deploymentCheck: true, reach: { job: 'web', namespace: 3 } },
      expectedErr: 'Invalid input field "reach.namespace": got 3, expected a namespace name',
    },
  ])('refuses $name, naming the field', ({ input, expectedErr }) => {
    // Act / Assert
    expect(() => validateDeploymentCheckInput(input, EXECUTION)).toThrow(
      new RestartValidationError(expectedErr),
    );
  });
});
