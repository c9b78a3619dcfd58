/**
 * Scenario: an execution started by hand (the console, `aws stepfunctions start-execution`) with
 * a `continuation` in its input, the field only "Continue as new execution" writes. Such an
 * execution skips "Validate input" and "Lock job", so "Resume run" must refuse a continuation no
 * hand-over made: options a new run could not have, or a run that does not hold the job. Run
 * through the synthesized workflow and the local engine against the simulator: the run ends in
 * `InvalidInput` with a message naming what is wrong, no Nomad request is made, and the lock of
 * the run it names is neither renewed nor released.
 */
import type { RestartInput } from '../../lib/restart/input';
import type { RestartOptions } from '../../lib/restart/options';
import { localStores } from '../../lib/stores/from-env';
import type { WorkflowState } from '../../lib/workflow/payloads';
import { holdJob, runWorkflowInput } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { harnessPerTest, simpleJob, waitAllRunning } from '../steps/helpers/harness';

const JOB = 'web';
const KEY = { namespace: 'default', jobId: JOB };
const FORGED_RUN = 'arn:aws:states:us-east-1:123456789012:execution:NomadRestart:forged';

/** A continuation as a hand-over writes it, after one batch of two, with `options`. */
function continuation(options: RestartOptions): WorkflowState {
  return {
    options,
    run: { runId: FORGED_RUN, executionId: FORGED_RUN, executionNumber: 1, startedAt: 1 },
    plan: {
      planKey: 'forged/plan.json',
      jobId: JOB,
      namespace: 'default',
      jobType: 'service',
      allocationCount: 2,
      batchSize: 1,
      batchCount: 2,
      triggerEvaluations: false,
    },
    progress: {
      nextBatch: 1,
      batchesThisExecution: 1,
      restarted: 1,
      failed: 0,
      errorCount: 0,
      askBetweenBatches: false,
      batchWaitMs: 0,
    },
    decision: null,
    guard: null,
    batch: null,
    summary: null,
    events: [],
  } as unknown as WorkflowState;
}

const asInput = (state: WorkflowState) => ({ continuation: state }) as unknown as RestartInput;
const requestCount = (counters: Record<string, number>) =>
  Object.values(counters).reduce((sum, n) => sum + n, 0);

describe('an execution started with a forged continuation', () => {
  const harness = harnessPerTest();

  it('is refused when its run does not hold the job, with no Nomad request', async () => {
    // Arrange
    const h = await harness.startRunning(simpleJob(JOB, 'service', 2));
    await waitAllRunning(h, JOB, 2);
    const before = requestCount(h.sim.control.counters());

    // Act
    const run = await runWorkflowInput(h, asInput(continuation(restartOptions(JOB, { yes: true }))));

    // Assert
    expect(run.result).toMatchObject({ status: 'FAILED', error: 'InvalidInput' });
    expect(run.result.cause).toBe(
      `Invalid continuation: run "${FORGED_RUN}" does not hold the lock of job "web" in namespace "default"; ` +
        'only "Continue as new execution" starts an execution with a "continuation"; start a new run with the job\'s options instead',
    );
    expect(requestCount(h.sim.control.counters())).toBe(before);
    expect(run.entered).not.toContain('Release lock after error');
  });

  it('is refused for options a new run could not have, leaving the named run its lock', async () => {
    // Arrange: the run it names holds the job; its options say batches of none.
    const h = await harness.startRunning(simpleJob(JOB, 'service', 2));
    await waitAllRunning(h, JOB, 2);
    await holdJob(KEY, FORGED_RUN);
    const forged = restartOptions(JOB, { yes: true, batchSize: { value: 0, percent: false } });
    const before = requestCount(h.sim.control.counters());

    // Act
    const run = await runWorkflowInput(h, asInput(continuation(forged)));

    // Assert
    expect(run.result).toMatchObject({ status: 'FAILED', error: 'InvalidInput' });
    expect(run.result.cause).toMatch(/^Invalid continuation: .*batch.*start a new run/i);
    expect(requestCount(h.sim.control.counters())).toBe(before);
    expect(await localStores.lock.held(KEY, FORGED_RUN)).toBeDefined();
  });
});
