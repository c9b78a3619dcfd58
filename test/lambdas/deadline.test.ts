// Scenario: a step's deadline signal fires its safety margin before the Lambda must return, and
// carries one listener per concurrent Nomad request of a batch without Node warning about a leak
// (the warning would land on stderr, among Nomad's lines).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { deadlineSignal } from '../../lambdas/private/deadline';

const DEADLINE_MODULE = fileURLToPath(new URL('../../lambdas/private/deadline.ts', import.meta.url));

describe('deadlineSignal', () => {
  it('fires the margin before the invocation must end', async () => {
    // Arrange
    const context = { getRemainingTimeInMillis: () => 1_030 };

    // Act
    const signal = deadlineSignal(context, 1_000);
    const before = signal.aborted;
    await new Promise((resolve) => setTimeout(resolve, 80));

    // Assert
    expect(before).toBe(false);
    expect(signal.aborted).toBe(true);
  });

  it('fires at once when less than the margin is left', async () => {
    // Act
    const signal = deadlineSignal({ getRemainingTimeInMillis: () => 5 }, 1_000);
    await new Promise((resolve) => setTimeout(resolve, 10));

    // Assert
    expect(signal.aborted).toBe(true);
  });

  it('takes one listener per request of a batch of 50 without a leak warning on stderr', () => {
    // Arrange: a real Node process (jest's sandbox does not see Node's own warnings).
    const script = `
      const { deadlineSignal } = await import(${JSON.stringify(DEADLINE_MODULE)});
      const signal = deadlineSignal({ getRemainingTimeInMillis: () => 60_000 });
      for (let i = 0; i < 50; i++) signal.addEventListener('abort', () => undefined);
      await new Promise((resolve) => setImmediate(resolve));
    `;

    // Act
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });

    // Assert
    expect(run.status).toBe(0);
    expect(run.stderr).not.toContain('MaxListenersExceededWarning');
  });
});
