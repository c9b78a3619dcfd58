import { parseStateMachineArn, STOP_CAUSE } from '../../../lib/engines/aws';
import { CANCELED_CAUSE } from '../../../lib/workflow/definition';

const EXEC = 'arn:aws:states:eu-west-1:123456789012:execution:m:e1';

describe('parseStateMachineArn', () => {
  it('reads the region, account and name', () => {
    // Arrange
    const arn = 'arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart';

    // Act
    const parsed = parseStateMachineArn(arn);

    // Assert
    expect(parsed).toEqual({
      arn,
      partition: 'aws',
      region: 'eu-west-1',
      account: '123456789012',
      name: 'NomadRestart-Restart',
    });
  });

  it.each([
    { name: 'an execution ARN', value: EXEC },
    { name: 'a name', value: 'NomadRestart-Restart' },
    { name: 'an empty value', value: '' },
    { name: 'a short account', value: 'arn:aws:states:eu-west-1:1234:stateMachine:m' },
  ])('fails on $name', ({ value }) => {
    // Arrange
    const expected = `Invalid -state-machine-arn value "${value}": expected arn:<partition>:states:<region>:<account>:stateMachine:<name>`;

    // Act
    const act = () => parseStateMachineArn(value);

    // Assert
    expect(act).toThrow(expected);
  });
});

describe('cancel', () => {
  describe('STOP_CAUSE', () => {
    it('is the workflow Canceled cause', () => {
      // Arrange
      const workflowCause = CANCELED_CAUSE;

      // Act
      const cause = STOP_CAUSE;

      // Assert
      expect(cause).toBe(workflowCause);
    });
  });
});
