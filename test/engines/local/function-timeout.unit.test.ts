/**
 * The local engine's function timeout: a handler that outlives its function's `Timeout` fails
 * the Task with Lambda's own error, and one that ends in time is not touched.
 */
import { withinFunctionTimeout } from '../../../lib/engines/local/function-timeout';

describe('withinFunctionTimeout', () => {
  it('fails a handler that outlives the timeout with Lambda’s Sandbox.Timedout', async () => {
    // Arrange
    const slow = new Promise((resolve) => setTimeout(resolve, 500, 'late'));

    // Act
    const running = withinFunctionTimeout(slow, 20);

    // Assert
    await expect(running).rejects.toMatchObject({
      name: 'Sandbox.Timedout',
      message: 'Task timed out after 0.02 seconds',
    });
  });

  it('passes through a result that comes in time', async () => {
    // Act
    const result = await withinFunctionTimeout(Promise.resolve('ok'), 1_000);

    // Assert
    expect(result).toBe('ok');
  });
});
