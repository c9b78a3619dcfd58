/**
 * Continue-as-new, executed: the stack synthesized with `batchesPerExecution: 2` restarts a
 * 7-batch job through the local engine, which runs the `states:startExecution` hand-over as a
 * new execution of the same definition (same lock, same plan). The run ends as one execution
 * would: the same lines, the same outcome, every allocation restarted once; and each successor
 * is named after the run and its number, so a retried hand-over cannot start a second one.
 */

import type { ProgressEvent } from '../../lib/restart/events';
import { continuationNamePrefix } from '../../lib/workflow/continuation-name';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { harnessPerTest, restartedTasks, simpleJob, waitAllRunning } from '../steps/helpers/harness';
import { type SynthesizedStack, synthesizeStack } from './helpers/synthesized-stack';

const JOB = 'web';
const ALLOCATIONS = 14;
const BATCH = { batchSize: { value: 2, percent: false } } as const;

/** What a run printed, without times and IDs. */
const lines = (events: readonly ProgressEvent[]) =>
  events.map(
    (e) => `${e.type}${'batchNumber' in e ? ` ${e.batchNumber}` : ''}${'size' in e ? `/${e.size}` : ''}`,
  );

const harness = harnessPerTest();

async function restartOnce(stateMachine?: SynthesizedStack['stateMachine']) {
  const h = await harness.start({
    nodes: [{ name: 'n1' }, { name: 'n2' }],
    jobs: [simpleJob(JOB, 'service', ALLOCATIONS)],
  });
  await waitAllRunning(h, JOB, ALLOCATIONS);
  const run = await runWorkflow(
    h,
    restartOptions(JOB, BATCH),
    stateMachine === undefined ? {} : { stateMachine },
  );
  const restarted = restartedTasks(h.sim.control.state().allocations({ jobId: JOB }));
  return { run, restarted };
}

describe('continue-as-new through the local engine', () => {
  it('runs 7 batches over 4 executions with the same lines and outcome as one execution', async () => {
    // Arrange
    const { stateMachine } = synthesizeStack({ batchesPerExecution: 2 });

    // Act
    const chained = await restartOnce(stateMachine);
    const single = await restartOnce();

    // Assert
    expect(chained.run.result.status).toBe('SUCCEEDED');
    expect(chained.run.result.output).toEqual(
      single.run.result.output === undefined
        ? undefined
        : expect.objectContaining({ outcome: 'succeeded', restarted: ALLOCATIONS }),
    );
    expect(chained.run.result.executions?.length).toBe(4);
    expect(single.run.result.executions?.length).toBe(1);
    expect(lines(chained.run.events)).toEqual(lines(single.run.events));
    expect(chained.restarted).toHaveLength(ALLOCATIONS);
    expect(new Set(chained.restarted.map((t) => t.split(':')[0])).size).toBe(ALLOCATIONS);
  });

  it('names each successor after the run and its number', async () => {
    // Arrange
    const { stateMachine } = synthesizeStack({ batchesPerExecution: 2 });

    // Act
    const { run } = await restartOnce(stateMachine);

    // Assert: the job, the first execution's name, the run's digest, then the execution's number.
    const [first, ...successors] = run.result.executions ?? [];
    const names = successors.map((e) => e.name);
    const prefix = continuationNamePrefix(first?.executionArn ?? '', JOB);
    expect(prefix).toMatch(new RegExp(`^${JOB}-${first?.name}-[0-9a-f]{12}$`));
    expect(names).toEqual([`${prefix}-2`, `${prefix}-3`, `${prefix}-4`]);
  });
});
