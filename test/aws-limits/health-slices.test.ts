/**
 * The health wait longer than one execution's budget of await slices (here 2 slices of about a
 * second, for a -min-healthy-time of 3.5 s): the run continues as new between two "Await health" slices
 * and goes back to awaiting the same batch's health, never on to the next batch before it. It
 * ends like a run in one execution: the same lines, every allocation restarted once, each batch
 * announced and found healthy once.
 */

import { DEFAULT_SAFETY_MARGIN_MS } from '../../lambdas/private/deadline';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { checkedJob } from '../steps/health/helpers/health-fixtures';
import { eventsOf, harnessPerTest, restartedTasks } from '../steps/helpers/harness';
import { synthesizeStack } from './helpers/synthesized-stack';

const harness = harnessPerTest();

describe('a health wait slower than one execution’s await budget', () => {
  it('continues as new between health slices and resumes the same batch', async () => {
    // Arrange
    const { stateMachine } = synthesizeStack({ awaitSlicesPerExecution: 2 });
    const h = await harness.startRunning(checkedJob('slow-health', 2));
    const options = restartOptions('slow-health', {
      waitHealthy: { minHealthyTimeNs: 3_500e6, healthyDeadlineNs: 60e9 },
    });

    // Act: each slice gets about a second (every other step too, which is plenty for them).
    const run = await runWorkflow(h, options, {
      stateMachine,
      invocationBudgetMs: DEFAULT_SAFETY_MARGIN_MS + 1_000,
    });

    // Assert
    const executions = run.result.executions ?? [];
    const order = run.events.flatMap((e) =>
      e.type === 'allocation-restarting' || e.type === 'allocation-healthy'
        ? [`${e.type} ${e.allocationId}`]
        : [],
    );
    expect(run.errors).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(executions.length).toBeGreaterThanOrEqual(3);
    expect(run.entered.filter((s) => s === 'Await health').length).toBeGreaterThanOrEqual(2 * 4);
    expect(eventsOf(run.events, 'health-waiting')).toHaveLength(2);
    // A continued execution resumes at "Await health", not through the next batch's guard and restart.
    expect(run.entered.filter((s) => s === 'Check deployments')).toHaveLength(2);
    expect(run.entered.filter((s) => s === 'Restart batch')).toHaveLength(2);
    // Each allocation healthy before the next one is restarted.
    const [a, b] = eventsOf(run.events, 'allocation-restarting').map((e) => e.allocationId);
    expect(order).toEqual([
      `allocation-restarting ${a}`,
      `allocation-healthy ${a}`,
      `allocation-restarting ${b}`,
      `allocation-healthy ${b}`,
    ]);
    expect(restartedTasks(h.sim.control.state().allocations({ jobId: 'slow-health' }))).toHaveLength(2);
  });
});
