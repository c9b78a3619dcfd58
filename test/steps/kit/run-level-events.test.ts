/**
 * Scenario: the run-level events the steps emit (issue #40), driven as the state machine runs the
 * steps against the simulator over HTTP: one `batch-finished` per batch where it ends (in place:
 * "Restart batch"; with `-reschedule`: "Await batch"), with the batch's counts, and a
 * `question-waited` once an answer applies.
 */
import type { ProgressEvent } from '../../../lib/restart/events';
import { createRestartSteps } from '../../../lib/steps/kit/steps-factory';
import { MemoryPlanStore } from '../../../lib/stores/plan-store';
import type { RestartSteps } from '../../../lib/workflow/restart-steps';
import { restartOptions } from '../../fixtures/restart-options';
import { drive } from '../helpers/drive';
import { type Harness, harnessPerTest, simpleJob } from '../helpers/harness';

const ofType = <T extends ProgressEvent['type']>(events: ProgressEvent[], type: T) =>
  events.filter((e): e is Extract<ProgressEvent, { type: T }> => e.type === type);

describe('run-level events of the steps', () => {
  const harness = harnessPerTest();

  function steps(h: Harness, now: () => number = Date.now): RestartSteps {
    return createRestartSteps({
      nomad: h.client,
      planStore: new MemoryPlanStore(),
      now,
      signal: new AbortController().signal,
    });
  }

  it('emits one batch-finished per in-place batch with its counts', async () => {
    // Arrange
    const job = simpleJob('emit_inplace', 'service', 3);
    const h = await harness.startRunning(job);

    // Act
    const { events, summary } = await drive(
      steps(h),
      restartOptions(job.ID, { batchSize: { value: 2, percent: false } }),
    );

    // Assert
    const finished = ofType(events, 'batch-finished');
    expect(
      finished.map(({ batchNumber, batches, restarted, failed }) => ({
        batchNumber,
        batches,
        restarted,
        failed,
      })),
    ).toEqual([
      { batchNumber: 1, batches: 2, restarted: 2, failed: 0 },
      { batchNumber: 2, batches: 2, restarted: 1, failed: 0 },
    ]);
    expect(finished.reduce((sum, e) => sum + e.restarted, 0)).toBe(summary.restarted);
    expect(finished.every((e) => e.durationMs >= 0 && e.healthWaitMs === undefined)).toBe(true);
  });

  it('emits batch-finished once the replacements of a rescheduled batch run, not when it starts', async () => {
    // Arrange
    const job = simpleJob('emit_resched', 'service', 2);
    const h = await harness.startRunning(job);

    // Act
    const { events } = await drive(steps(h), restartOptions(job.ID, { reschedule: true }));

    // Assert: each batch's event follows its replacement.
    const kinds = events
      .filter((e) => e.type === 'allocation-replaced' || e.type === 'batch-finished')
      .map((e) => e.type);
    expect(kinds).toEqual(['allocation-replaced', 'batch-finished', 'allocation-replaced', 'batch-finished']);
    expect(ofType(events, 'batch-finished').map((e) => e.restarted)).toEqual([1, 1]);
  });

  it('emits question-waited with the time from the question to its answer', async () => {
    // Arrange: a clock that moves 5 s between the question and the answer.
    const job = simpleJob('emit_ask', 'service', 2);
    const h = await harness.startRunning(job);
    let clock = 1_000_000;
    const now = () => clock;
    const options = restartOptions(job.ID, { yes: false, batchWait: { kind: 'ask' } });
    const answering = steps(h, now);
    const applyAnswer = answering.applyAnswer.bind(answering);
    answering.applyAnswer = (input) => {
      clock += 5_000;
      return applyAnswer(input);
    };

    // Act
    const { events } = await drive(answering, options, ['n']);

    // Assert
    expect(ofType(events, 'question-waited')).toEqual([
      { type: 'question-waited', time: 1_005_000, kind: 'proceed', waitedMs: 5_000, answer: 'no' },
    ]);
  });
});
