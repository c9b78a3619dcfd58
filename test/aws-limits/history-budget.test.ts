/**
 * #19 item 4 through the local engine: a replacement that takes longer than one execution's
 * budget of await slices (here 2 slices of about a second) makes the run continue as new between
 * two slices and go back to awaiting the same batch, instead of running one execution into
 * Step Functions' 25,000-event history limit. The run finishes with the replacement running.
 */

import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { allocationsOf, harnessPerTest, simpleJob } from '../steps/helpers/harness';
import { synthesizeStack } from './helpers/synthesized-stack';

/** Await slices end this long before the invocation's end (lambdas/private/deadline.ts). */
const SAFETY_MARGIN_MS = 10_000;

const harness = harnessPerTest();

describe('a replacement slower than one execution’s await budget', () => {
  it('continues as new between await slices and finishes the batch', async () => {
    // Arrange: the replacement starts 4 simulated minutes (4 s) after its placement.
    const { stateMachine } = synthesizeStack({ awaitSlicesPerExecution: 2 });
    const h = await harness.startRunning(simpleJob('slow', 'service', 1), { allocStartMs: 400_000 });
    const [original] = allocationsOf(h, 'slow');

    // Act: each await slice gets about one second.
    const run = await runWorkflow(h, restartOptions('slow', { reschedule: true }), {
      stateMachine,
      invocationBudgetMs: SAFETY_MARGIN_MS + 1_000,
    });

    // Assert
    const executions = run.result.executions ?? [];
    console.info(
      `${executions.length} executions, most history events in one: ${run.result.stats.maxHistoryEvents}`,
    );
    expect(run.exitCode).toBe(0);
    expect(executions.length).toBeGreaterThanOrEqual(2);
    expect(
      run.events
        .filter((e) => e.type === 'allocation-replaced')
        .map((e) => 'allocationId' in e && e.allocationId),
    ).toEqual([original?.ID]);
    expect(h.sim.control.counters()['PUT /v1/allocation/:id/stop']).toBe(1);
  });
});
