/**
 * #19 item 3 through the strict local engine: hundreds of allocations failing with long Nomad
 * messages must not push a state past Step Functions' 256 KiB (which no Catch can route, and
 * which would end the execution with the lock held). The run completes, reports every error,
 * and its largest state is printed.
 */

import { STEP_FUNCTIONS_LIMITS } from '../../lib/engines/local/stats';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { harnessPerTest, simpleJob, waitAllRunning } from '../steps/helpers/harness';

const ALLOCATIONS = 300;
/** About 500 bytes, like a Nomad RPC error with its wrapped causes. */
const LONG_ERROR = `rpc error: ${'failed to restart task: the driver refused the signal; '.repeat(9)}`.slice(
  0,
  500,
);

const harness = harnessPerTest();

describe('a run whose errors are large', () => {
  it(`completes with every one of ${ALLOCATIONS} long errors reported, every state under 256 KiB`, async () => {
    // Arrange
    const h = await harness.start({
      nodes: [{ name: 'n1' }, { name: 'n2' }, { name: 'n3' }],
      jobs: [simpleJob('big', 'service', ALLOCATIONS)],
    });
    await waitAllRunning(h, 'big', ALLOCATIONS);
    h.sim.control.injectFault({ pathSuffix: '/restart', status: 500, body: LONG_ERROR });

    // Act
    const run = await runWorkflow(h, restartOptions('big', { batchSize: { value: 100, percent: false } }));

    // Assert
    console.info(
      `largest state: ${run.result.stats.maxPayloadBytes} bytes, history: ${run.result.stats.maxHistoryEvents} events`,
    );
    expect(run.result.error).not.toBe('States.DataLimitExceeded');
    expect(run.result.stats.maxPayloadBytes).toBeLessThanOrEqual(STEP_FUNCTIONS_LIMITS.payloadBytes);
    expect(run.exitCode).toBe(1);
    // The Fail state's cause is the run's summary, error sample included: under Step Functions' 32,768.
    expect(run.result.error).toBe('RestartFailed');
    expect(run.result.cause?.length ?? 0).toBeGreaterThan(20_000);
    expect(run.result.cause?.length ?? 0).toBeLessThanOrEqual(32_768);
    expect(run.errors).toHaveLength(ALLOCATIONS);
    expect(run.errors.every((e) => e.endsWith(`Unexpected response code: 500 (${LONG_ERROR})`))).toBe(true);
  });
});
