/**
 * Scenarios: `-started-before` in the plan, against the simulator over HTTP. A job of three
 * allocations, one of them restarted in place after T: the plan keeps the two that started before
 * T and skips the third as `started-after` (said with -verbose, counted as `alreadyFresh`); once
 * every allocation started after T, the plan says `All 3 allocations started after <T>` instead of
 * Nomad's `No allocations to restart`; without any allocation in scope it still says Nomad's line.
 */

import { planRestart } from '../../../lib/steps/index';
import { restartOptions } from '../../fixtures/restart-options';
import {
  allocationsOf,
  eventsOf,
  harnessPerTest,
  recorder,
  restartAfter,
  simpleJob,
} from '../helpers/harness';

const JOB = 'web';

describe('planRestart with startedBefore', () => {
  const harness = harnessPerTest();

  it('keeps what started before T and skips the rest as started-after, saying so with -verbose', async () => {
    // Arrange: T after every first start; then one allocation restarts (starts again after T).
    const h = await harness.startRunning(simpleJob(JOB, 'service', 3));
    const T = Math.floor(h.now()) + 1;
    await h.sleep(5, new AbortController().signal);
    const [fresh, ...stale] = allocationsOf(h, JOB).map((a) => a.ID);
    await restartAfter(h, JOB, fresh ?? '', T);
    const { events, emit } = recorder();

    // Act
    const plan = await planRestart(h.client, restartOptions(JOB, { startedBefore: T, verbose: true }), {
      emit,
      now: h.now,
    });

    // Assert
    if (plan.kind !== 'plan') throw new Error(`expected a plan, got ${plan.kind}`);
    expect(
      plan.batches
        .flat()
        .map((a) => a.id)
        .sort(),
    ).toEqual([...stale].sort());
    expect(plan.skipped).toEqual([{ id: fresh, reason: { kind: 'started-after', startedBefore: T } }]);
    expect(plan.counts.skippedBy).toEqual({ alreadyFresh: 1 });
    expect(eventsOf(events, 'allocation-skipped').map((e) => [e.allocationId, e.reason.kind])).toEqual([
      [fresh, 'started-after'],
    ]);
    expect(eventsOf(events, 'restart-started').map((e) => e.count)).toEqual([2]);
  });

  it('says All 3 allocations started after T when every allocation is fresh', async () => {
    // Arrange: T before any task started.
    const before = Date.parse('2020-01-01T00:00:00Z');
    const h = await harness.startRunning(simpleJob(JOB, 'service', 3));
    const { events, emit } = recorder();

    // Act
    const plan = await planRestart(h.client, restartOptions(JOB, { startedBefore: before }), {
      emit,
      now: h.now,
    });

    // Assert
    expect(plan.kind).toBe('nothing-to-restart');
    expect(events.map((e) => e.type)).toEqual(['all-started-after']);
    expect(eventsOf(events, 'all-started-after').map((e) => [e.count, e.startedBefore])).toEqual([
      [3, before],
    ]);
  });

  it("says Nomad's No allocations to restart when no allocation is in scope at all", async () => {
    // Arrange: the group asked for does not exist, so nothing is kept by Nomad's rules.
    const h = await harness.startRunning(simpleJob(JOB, 'service', 3));
    const { events, emit } = recorder();

    // Act
    const plan = await planRestart(
      h.client,
      restartOptions(JOB, { startedBefore: Date.parse('2020-01-01T00:00:00Z'), groups: ['other'] }),
      { emit, now: h.now },
    );

    // Assert
    expect(plan.kind).toBe('nothing-to-restart');
    expect(events.map((e) => e.type)).toEqual(['nothing-to-restart']);
  });
});
