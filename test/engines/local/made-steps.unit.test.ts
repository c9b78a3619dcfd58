// Scenario: the engine's Tasks answer with steps made before it started (plan-first.ts): the first
// invocation with what was made (a result, or the error a Retry or Catch then sees), any later one
// (a retry) through the handler; steps made under another state machine's ARN are refused.
import { answeringMade, refuseMadeElsewhere } from '../../../lib/engines/local/made-steps';
import { executionArn, stateMachineArn } from '../../../lib/engines/local/private/placeholders';

const ctx = { stateName: 'Plan restart', signal: new AbortController().signal };

describe('made steps', () => {
  it('answers the first invocation with the made result, and runs the handler after', async () => {
    // Arrange
    const calls: unknown[] = [];
    const handler = answeringMade(
      async (payload) => {
        calls.push(payload);
        return 'ran';
      },
      { output: 'made' },
    );

    // Act
    const first = await handler?.('payload-1', ctx);
    const second = await handler?.('payload-2', ctx);

    // Assert
    expect([first, second]).toEqual(['made', 'ran']);
    expect(calls).toEqual(['payload-2']);
  });

  it('throws the made error at the first invocation', async () => {
    // Arrange
    const error = Object.assign(new Error('No job(s) found'), { name: 'NomadTransientError' });
    const handler = answeringMade(async () => 'ran', { error });

    // Act
    const first = handler?.({}, ctx);

    // Assert
    await expect(first).rejects.toBe(error);
    await expect(handler?.({}, ctx)).resolves.toBe('ran');
  });

  it('refuses steps made as an execution of another state machine', () => {
    // Arrange
    const own = stateMachineArn('NomadRestart-Restart');
    const made = (arn: string) => ({
      executionName: 'run-1',
      executionId: executionArn(arn, 'run-1'),
      outcomes: new Map(),
    });

    // Act
    const other = () => refuseMadeElsewhere(made(stateMachineArn('Other')), own);
    const same = () => refuseMadeElsewhere(made(own), own);

    // Assert
    expect(other).toThrow('cannot run as an execution of');
    expect(same).not.toThrow();
  });
});
