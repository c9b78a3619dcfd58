/**
 * Scenario: what `-engine=aws` shows of the history the real workflow writes. The synthesized
 * state machine runs through the local engine and the real handlers against the simulator; each
 * state's exit becomes the history event Step Functions would record, and the AWS engine's
 * tracker reads them. A run shows the same lines on both engines; a run refused the job (another
 * run holds it) shows none of its plan, only the refusal naming the holder, and exits 1.
 */

import { ExecutionTracker } from '../../../lib/engines/aws';
import type { ProgressEvent } from '../../../lib/restart/events';
import { createFormatter } from '../../../lib/restart/format';
import { exitStatusOf } from '../../../lib/workflow/exit-status';
import { type Harness, harnessPerTest, simpleJob } from '../../steps/helpers/harness';
import { freeJob, holdJob, runWorkflowInput, type WorkflowRun } from '../local/helpers/workflow-harness';
import { type EventShape, ev } from './helpers/fake-history';

const EXECUTION = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:second';
const KEY = { namespace: 'default', jobId: 'web' };
const HOLDER = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:first';

const harness = harnessPerTest();
afterEach(async () => {
  await freeJob(KEY, HOLDER);
});

const formatter = createFormatter({ verbose: true, color: false, timeZone: 'UTC' });
/** The lines `events` print (a state keeps an error list's sample: the lines are what counts). */
const linesOf = (events: readonly ProgressEvent[]) => events.flatMap((e) => formatter.render(e));

async function cluster(): Promise<Harness> {
  return await harness.startRunning(simpleJob('web', 'service', 2));
}

/**
 * The run's history as Step Functions would record it: each state's exit, then the end. Every
 * exit is written as a Task's: Step Functions records a Choice's or a Pass's under its own type,
 * which the tracker skips, and the tracker skips a name that is not a Task's all the same.
 */
function historyOf(run: WorkflowRun): EventShape[] {
  const { status, error, cause, output } = run.result;
  const exits = run.exits.map(
    ({ name, output: state }): EventShape => ({
      type: 'TaskStateExited',
      stateExitedEventDetails: { name, output: JSON.stringify(state) },
    }),
  );
  return [...exits, status === 'SUCCEEDED' ? ev.succeeded(output) : ev.failed(error ?? '', cause ?? '')];
}

/** What the AWS engine prints of the run, and how the command exits. */
function readOnAws(run: WorkflowRun) {
  const tracker = new ExecutionTracker(EXECUTION);
  const shown = historyOf(run).flatMap((shape, i) =>
    tracker.apply({ ...shape, id: i + 1, timestamp: new Date(0) }),
  );
  const end = tracker.end;
  if (end === undefined) throw new Error('the history has no end');
  return { shown, exit: exitStatusOf(end, { executionArn: EXECUTION, stoppedByUs: false }) };
}

describe('the workflow history, read by -engine=aws', () => {
  it('shows a run the lines the local engine printed, the plan first', async () => {
    // Arrange
    const target = await cluster();

    // Act
    const run = await runWorkflowInput(target, { job: 'web', batchSize: '1', yes: true });

    // Assert
    const { shown, exit } = readOnAws(run);
    expect(run.result.status).toBe('SUCCEEDED');
    expect(shown[0]).toMatchObject({ type: 'restart-started', count: 2 });
    expect(linesOf(shown)).toEqual(linesOf(run.events));
    expect(exit.exitCode).toBe(0);
  });

  it('shows a run refused the job none of its plan, only the refusal naming the holder', async () => {
    // Arrange: another execution holds the job and is running.
    const target = await cluster();
    await holdJob(KEY, HOLDER);

    // Act
    const run = await runWorkflowInput(target, { job: 'web', yes: true });

    // Assert
    const { shown, exit } = readOnAws(run);
    expect(shown).toEqual([]);
    expect(exit).toEqual({
      exitCode: 1,
      message: `Job "web" in namespace "default" is already being restarted by execution "${HOLDER}"`,
    });
    expect(target.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBeUndefined();
  });
});
