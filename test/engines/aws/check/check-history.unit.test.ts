import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { readCheckExecution } from '../../../../lib/engines/aws/check/check-history';
import { sfnCalls } from '../../../../lib/engines/aws/sfn-calls';
import { TaskStates } from '../../../../lib/workflow/state-names';
import type { EventShape } from '../helpers/fake-history';
import { FakeStepFunctions } from '../helpers/fake-step-functions';
import { MACHINE } from '../helpers/fixtures';
import { bindToSdkMock } from '../helpers/sdk-binding';

const sfn = mockClient(SFNClient);
let fake: FakeStepFunctions;

beforeEach(() => {
  fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
});
afterEach(() => sfn.reset());

/** What Step Functions records of the Lambda a failed Task invoked. */
const LAMBDA = { resourceType: 'lambda', resource: 'invoke' };
const calls = () => sfnCalls(new SFNClient({ region: 'eu-west-1' }), { retries: 0 });
const entered = (name: string): EventShape => ({
  type: 'TaskStateEntered',
  stateEnteredEventDetails: { name },
});
const exited = (name: string, output: unknown): EventShape => ({
  type: 'TaskStateExited',
  stateExitedEventDetails: { name, output: JSON.stringify(output) },
});

describe('readCheckExecution', () => {
  it("reads the read step's report from its exit", async () => {
    // Arrange
    const arn = await calls().startExecution(MACHINE, { deploymentCheck: true }, 'check-1');
    const reached = {
      nomadAddress: 'http://nomad:4646',
      nomad: { reached: false, error: { name: 'E', message: 'm' } },
    };
    fake.append(arn, [
      entered(TaskStates.reachDeploymentCheck),
      exited(TaskStates.reachDeploymentCheck, { deploymentCheck: true, reached }),
    ]);

    // Act
    const state = await readCheckExecution(calls(), arn);

    // Assert
    expect(state.reach).toEqual({ report: reached });
  });

  it('reads the error its Catch put in the state when the step itself failed', async () => {
    // Arrange
    const arn = await calls().startExecution(MACHINE, { deploymentCheck: true }, 'check-1');
    fake.append(arn, [
      entered(TaskStates.reachDeploymentCheck),
      {
        type: 'TaskFailed',
        taskFailedEventDetails: { ...LAMBDA, error: 'NomadSecretError', cause: 'first attempt' },
      },
      exited(TaskStates.reachDeploymentCheck, {
        error: { Error: 'NomadSecretError', Cause: 'the secret is empty' },
      }),
    ]);

    // Act
    const state = await readCheckExecution(calls(), arn);

    // Assert
    expect(state.reach).toEqual({ failed: { error: 'NomadSecretError', cause: 'the secret is empty' } });
  });

  it("keeps the step's last failure when its exit carries neither", async () => {
    // Arrange
    const arn = await calls().startExecution(MACHINE, { deploymentCheck: true }, 'check-1');
    fake.append(arn, [
      entered(TaskStates.reachDeploymentCheck),
      {
        type: 'TaskFailed',
        taskFailedEventDetails: { ...LAMBDA, error: 'States.Timeout', cause: 'timed out' },
      },
      exited(TaskStates.reachDeploymentCheck, { deploymentCheck: true }),
    ]);

    // Act
    const state = await readCheckExecution(calls(), arn);

    // Assert
    expect(state.reach).toEqual({ failed: { error: 'States.Timeout', cause: 'timed out' } });
  });
});
