/**
 * Fault suite, `-reschedule` replacements: a replacement that is itself replaced (the chain is
 * followed to its running end), one that never runs (`-replacement-timeout`), and an awaited
 * allocation garbage-collected while the run waits (a clear error, not a hang). Each ends with
 * the accounting check.
 */
import type { RestartOptions } from '../../lib/restart/options';
import { restartOptions } from '../fixtures/restart-options';
import { allocationsOf, type Harness, simpleJob, updatedJob, waitAllRunning } from '../steps/helpers/harness';
import { CLEAN, faultSuite, invariantsOf, runAccounted } from './helpers/accounting';

const { harness } = faultSuite();

function restart(target: Harness, job: string, over: Partial<RestartOptions>) {
  return runAccounted(target, restartOptions(job, { reschedule: true, ...over }));
}

describe('faults in replacements', () => {
  it('5a. a replacement replaced again before it ran: the chain is followed to the running end', async () => {
    // Arrange: replacements take 20 simulated seconds to start; a job update replaces the first
    // one while it is pending.
    const job = simpleJob('chain', 'service', 1);
    const h = await harness.start({ jobs: [job] }, { allocStartMs: 20_000 });
    const target = h;
    await waitAllRunning(target, job.ID, 1);
    const [original] = allocationsOf(target, job.ID);
    void target.sim.control
      .waitFor((s) => Boolean(s.allocation(original?.ID ?? '')?.NextAllocation), 10_000)
      .then(() => target.sim.control.registerJob(updatedJob(job)));

    // Act
    const { run, accounting } = await restart(target, job.ID, {});

    // Assert
    const first = target.sim.control.state().allocation(original?.ID ?? '')?.NextAllocation ?? '';
    const second = target.sim.control.state().allocation(first)?.NextAllocation ?? '';
    expect(run.exitCode).toBe(0);
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(accounting.count('rescheduled')).toBe(1);
    expect(second).not.toBe('');
    const replaced = run.events.flatMap((e) =>
      e.type === 'allocation-replaced' ? [[e.allocationId, e.replacementId]] : [],
    );
    expect(replaced).toEqual([
      [original?.ID, first],
      [first, second],
    ]);
  });

  it('5b. a replacement that never runs: -replacement-timeout reports it, the run does not hang', async () => {
    // Arrange: an ineligible node never gets the system job's replacement.
    const job = simpleJob('stuck', 'system', 1);
    const h = await harness.start({ nodes: [{ name: 'n1', id: 'node-1' }], jobs: [job] });
    await waitAllRunning(h, job.ID, 1);
    h.sim.control.setNodeEligibility('node-1', false);

    // Act
    const { run, accounting } = await restart(h, job.ID, { replacementTimeoutNs: 2_000e6 });

    // Assert
    const [original] = [...accounting.fates.keys()];
    expect(run.exitCode).toBe(1);
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(accounting.count('failed')).toBe(1);
    expect(run.errors).toEqual([
      `Error restarting allocation "${original?.slice(0, 8)}": Allocation "${original?.slice(0, 8)}" was not replaced within -replacement-timeout=2s`,
    ]);
  });

  it('8a. the stopped original garbage-collected while its replacement starts: the replacement is still found', async () => {
    // Arrange: the replacement is slow to start; the stopped original is collected meanwhile:
    // once the watch has read the job's allocations after the stop (and so seen the link), before
    // its next read. A wall-clock delay here raced the watch's first read on a loaded machine.
    const job = simpleJob('collected', 'service', 1);
    const h = await harness.start({ jobs: [job] }, { allocStartMs: 60_000 });
    const target = h;
    await waitAllRunning(target, job.ID, 1);
    const [original] = allocationsOf(target, job.ID);
    target.sim.control.onRequest({ pathSuffix: '/stop' }, () =>
      target.sim.control.onRequest({ pathSuffix: `/job/${job.ID}/allocations`, nth: 2 }, () =>
        target.sim.control.garbageCollect(original?.ID ?? ''),
      ),
    );

    // Act
    const { run } = await restart(target, job.ID, {});

    // Assert: the job's allocation list links the replacement to it (PreviousAllocation).
    expect(target.sim.control.state().allocation(original?.ID ?? '')).toBeUndefined();
    expect({ code: run.exitCode, errors: run.errors }).toEqual({ code: 0, errors: [] });
    const replaced = run.events.find((e) => e.type === 'allocation-replaced');
    expect(replaced).toMatchObject({ allocationId: original?.ID });
  });

  it('8b. the original and its replacement both garbage-collected: a clear error naming the allocation, not a hang', async () => {
    // Arrange
    const job = simpleJob('vanished', 'service', 1);
    const h = await harness.start({ jobs: [job] }, { allocStartMs: 60_000 });
    const target = h;
    await waitAllRunning(target, job.ID, 1);
    const [original] = allocationsOf(target, job.ID);
    void target.sim.control
      .waitFor((s) => Boolean(s.allocation(original?.ID ?? '')?.NextAllocation), 10_000)
      .then(() => {
        const replacement = target.sim.control.state().allocation(original?.ID ?? '')?.NextAllocation ?? '';
        target.sim.control.garbageCollect(original?.ID ?? '');
        target.sim.control.garbageCollect(replacement);
      });

    // Act
    const { run } = await restart(target, job.ID, {});

    // Assert
    expect(run.exitCode).toBe(1);
    expect(run.errors).toEqual([
      expect.stringMatching(new RegExp(`^Error restarting allocation "${original?.ID.slice(0, 8)}": `)),
    ]);
    expect(run.result.stats.durationMs).toBeLessThan(30_000);
  });
});
