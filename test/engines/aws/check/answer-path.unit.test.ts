import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { checkAnswerPath } from '../../../../lib/engines/aws/check/answer-path';
import { sfnCalls } from '../../../../lib/engines/aws/sfn-calls';
import { parseStateMachineArn } from '../../../../lib/engines/aws/state-machine-arn';
import { ev } from '../helpers/fake-history';
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

const check = () =>
  checkAnswerPath({
    sfn: sfnCalls(new SFNClient({ region: 'eu-west-1' }), { retries: 0 }),
    stateMachine: parseStateMachineArn(MACHINE),
    answeredBy: 'tester@laptop',
    executionName: 'check-1',
    pollMs: 1,
    waitMs: 200,
  });

describe('checkAnswerPath', () => {
  it('fails with the start grant to add when StartExecution is denied, and goes no further', async () => {
    // Arrange
    fake.faults.push(({ operation }) =>
      operation === 'StartExecution'
        ? { name: 'AccessDeniedException', message: 'not authorized' }
        : undefined,
    );

    // Act
    const results = await check();

    // Assert
    expect(results).toEqual([
      expect.objectContaining({
        passed: false,
        fix: `allow this identity states:StartExecution on ${MACHINE}`,
      }),
    ]);
    expect(fake.received('GetExecutionHistory')).toEqual([]);
  });

  it('says to deploy this version when the execution ends before asking (a state machine without the check)', async () => {
    // Arrange: an older definition refuses the input.
    fake.onStart = (execution) =>
      fake.append(execution.arn, [ev.failed('InvalidInput', 'Invalid input field "deploymentCheck"')]);

    // Act
    const results = await check();

    // Assert
    expect(results.at(-1)).toEqual({
      passed: false,
      what: 'the ask function parks the check question',
      why: 'it ended FAILED with InvalidInput: Invalid input field "deploymentCheck"',
      fix: expect.stringMatching(/^deploy the stack from this version of nomad-restart/),
    });
  });

  it('stops a check whose question is never parked', async () => {
    // Act
    const results = await check();

    // Assert
    expect(results.at(-1)).toMatchObject({
      passed: false,
      why: 'no question was parked in 0s; the check execution was stopped',
    });
    expect(fake.received('StopExecution')).toEqual([
      expect.objectContaining({ error: 'DeploymentCheckStopped' }),
    ]);
    expect(fake.received('SendTaskSuccess')).toEqual([]);
  });
});
