/**
 * A run's progress as its live message shows it: who or what started the run, the plan with its
 * health gate and window, where the run is, a health wait, the ETA from the batches so far and the
 * window left; the Pause / Stop buttons while it runs, none once it ended; and a stored progress
 * read back only when it has the right shape.
 */

import { liveRunMessage, runProgressOf } from '../../lib/approvals/run-progress';
import { decodeRunProgress } from '../../lib/approvals/run-progress-decoder';
import { plannedState } from '../lambdas/helpers/fixtures';

const T0 = Date.UTC(2026, 11, 7, 2, 0, 0);
const MINUTE = 60_000;
const SECOND_NS = 1e9;

describe('runProgressOf', () => {
  it.each([
    { name: 'the input startedBy', over: { run: { startedBy: 'alice@laptop' } }, expected: 'alice@laptop' },
    { name: 'the schedule', over: { options: { scheduleName: 'nightly' } }, expected: 'schedule "nightly"' },
    {
      name: 'the fleet run',
      over: { options: { fleet: { runId: 'fleet-1', index: 2, of: 4 } } },
      expected: 'fleet run "fleet-1" (job 2 of 4)',
    },
    {
      name: 'nobody named (a console start)',
      over: {},
      expected: 'an unnamed caller (the console or an SDK call: the input had no "startedBy")',
    },
  ])('names $name as who started the run', ({ over, expected }) => {
    // Arrange
    const base = plannedState();
    const state = {
      ...base,
      run: { ...base.run, ...('run' in over ? over.run : {}) },
      options: { ...base.options, ...('options' in over ? over.options : {}) },
    };

    // Act
    const progress = runProgressOf(state, T0, false);

    // Assert
    expect(progress?.startedBy).toBe(expected);
  });

  it('records nothing for a run that has a summary already (refused its lock, or finished)', () => {
    // Arrange
    const state = plannedState({ summary: { outcome: 'skipped-job-locked' } as never });

    // Act
    const progress = runProgressOf(state, T0, false);

    // Assert
    expect(progress).toBeUndefined();
  });
});

describe('liveRunMessage', () => {
  const base = plannedState();
  const state = {
    ...base,
    run: { ...base.run, startedBy: 'alice@laptop', startedAt: T0 },
    options: {
      ...base.options,
      windowEnd: T0 + 60 * MINUTE,
      waitHealthy: { minHealthyTimeNs: 10 * SECOND_NS, healthyDeadlineNs: 300 * SECOND_NS },
    },
    progress: {
      ...(base.progress as NonNullable<typeof base.progress>),
      nextBatch: 1,
      restarted: 2,
      failed: 0,
    },
    batch: { startedAt: T0 + 10 * MINUTE } as never,
  };

  it('shows the plan, the batch next, a health wait, the ETA and the window left, with Pause and Stop', () => {
    // Arrange
    const progress = runProgressOf(state, T0 + 12 * MINUTE, true);
    if (progress === undefined) throw new Error('no progress');

    // Act
    const message = liveRunMessage(progress);

    // Assert
    expect(message.title).toBe('nomad-restart: restart of job "web" running');
    expect(message.lines).toEqual([
      'Job "web" in namespace "default", started by alice@laptop',
      'Plan: 6 allocations in 3 batches of up to 2, each batch healthy for 10s within 5m0s, window until 2026-12-07 03:00:00 UTC',
      'Batch 2 of 3 next; so far 2 restarted, 0 failed',
      'Batch 2 waits for its allocations to be healthy (batch started 2026-12-07 02:10:00 UTC)',
      'ETA 2026-12-07 02:36:00 UTC (about 24 minutes from the batches so far)',
      'Window left: about 48 minutes',
      'Updated 2026-12-07 02:12:00 UTC',
    ]);
    expect(message.controls).toEqual({ runId: 'arn:exec:run-1', verbs: ['pause', 'stop'] });
  });

  it('says how the run ended and offers no buttons once it ended', () => {
    // Arrange
    const progress = runProgressOf(state, T0 + 12 * MINUTE, false);
    if (progress === undefined) throw new Error('no progress');

    // Act
    const message = liveRunMessage(progress, 'canceled');

    // Assert
    expect(message.title).toBe('nomad-restart: restart of job "web" canceled');
    expect(message.controls).toBeUndefined();
  });
});

describe('decodeRunProgress', () => {
  it('reads back what was recorded, and nothing of another shape', () => {
    // Arrange
    const progress = runProgressOf(plannedState(), T0, false);

    // Act
    const decoded = decodeRunProgress(JSON.parse(JSON.stringify(progress)));
    const foreign = decodeRunProgress({ ...progress, batchesDone: 'two' });

    // Assert
    expect(decoded).toEqual(progress);
    expect(foreign).toBeUndefined();
  });
});
