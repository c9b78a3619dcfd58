import { NomadClient } from '../../../lib/nomad/client';
import type { ProgressEvent } from '../../../lib/restart/events';
import { createStepKit } from '../../../lib/steps/kit/step-kit';
import { MemoryPlanStore } from '../../../lib/stores/plan-store';
import { MAX_STEP_EVENTS } from '../../../lib/workflow/payloads';

describe('StepKit.recorder', () => {
  it('keeps a run-level event past the step’s event cap, which the run’s metrics are made from', () => {
    // Arrange
    const seen: ProgressEvent[] = [];
    const kit = createStepKit({
      nomad: NomadClient.create({ address: 'http://127.0.0.1:1' }),
      planStore: new MemoryPlanStore(),
      now: () => 1,
      signal: new AbortController().signal,
      onEvent: (event) => seen.push(event),
    });
    const { events, emit } = kit.recorder();
    const finished: ProgressEvent = {
      type: 'batch-finished',
      time: 1,
      batchNumber: 1,
      batches: 1,
      restarted: MAX_STEP_EVENTS + 1,
      failed: 0,
      durationMs: 5,
    };

    // Act
    for (let i = 0; i <= MAX_STEP_EVENTS; i++) emit({ type: 'restart-started', time: i, count: 1 });
    emit(finished);

    // Assert: the cap cut the last per-allocation event, not the batch's end.
    expect(events).toHaveLength(MAX_STEP_EVENTS + 1);
    expect(events.at(-2)).toMatchObject({ type: 'restart-started', time: MAX_STEP_EVENTS - 1 });
    expect(events.at(-1)).toEqual(finished);
    expect(seen).toHaveLength(MAX_STEP_EVENTS + 2);
  });
});
