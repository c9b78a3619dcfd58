/**
 * Fault suite, `-reschedule` replacements: a replacement that is itself replaced (the chain is
 * followed to its running end), one that never runs (`-replacement-timeout`), and an awaited
 * allocation garbage-collected while the run waits (a clear error, not a hang). Each ends with
 * the accounting check.
 */
import type { Job } from '../../lib/nomad/types';
import type { RestartOptions } from '../../lib/restart/options';
import type { SimStateView } from '../../sim/index';
import { restartOptions } from '../fixtures/restart-options';
import { allocationsOf, type Harness, simpleJob, updatedJob, waitAllRunning } from '../steps/helpers/harness';
import { CLEAN, faultSuite, invariantsOf, runAccounted } from './helpers/accounting';

const { harness } = faultSuite();

/** Simulated ms a placed allocation stays pending (a day): replacements start when a test says. */
const PENDING_UNTIL_STARTED_MS = 86_400_000;
/** No real-time budget on a wait for the simulator's state: the test's own timeout bounds it. */
const UNBOUNDED = Number.POSITIVE_INFINITY;

/** A running one-allocation job whose replacements stay pending until the test starts them. */
async function pendingReplacements(name: string): Promise<{ job: Job; target: Harness; originalId: string }> {
  const job = simpleJob(name, 'service', 1);
  const target = await harness.start({ jobs: [job] }, { allocStartMs: PENDING_UNTIL_STARTED_MS });
  await waitAllRunning(target, job.ID, 1);
  const [original] = allocationsOf(target, job.ID);
  return { job, target, originalId: original?.ID ?? '' };
}

/** The allocation that replaced `id` (its NextAllocation), '' while there is none. */
const nextOf = (s: SimStateView, id: string) => s.allocation(id)?.NextAllocation ?? '';

/**
 * Calls `then` with the replacement of `id` once the simulator has placed one: each step follows a
 * write to the simulator's state, not a wall-clock budget, which a loaded machine overran.
 */
function onceReplaced(target: Harness, id: string, then: (replacement: string) => void): void {
  void target.sim.control
    .waitFor((s) => nextOf(s, id) !== '', UNBOUNDED)
    .then(() => then(nextOf(target.sim.control.state(), id)));
}

function restart(target: Harness, job: string, over: Partial<RestartOptions>) {
  return runAccounted(target, restartOptions(job, { reschedule: true, ...over }));
}

describe('faults in replacements', () => {
  it('5a. a replacement replaced again before it ran: the chain is followed to the running end', async () => {
    // Arrange: replacements stay pending until the test starts them; a job update replaces the
    // first one while it is pending, and its own replacement is then let run. Each step follows a
    // write to the simulator's state, not a wall-clock budget, which a loaded machine overran.
    const { job, target, originalId } = await pendingReplacements('chain');
    onceReplaced(target, originalId, (first) => {
      target.sim.control.registerJob(updatedJob(job));
      onceReplaced(target, first, (second) => target.sim.control.startPendingAllocation(second));
    });

    // Act
    const { run, accounting } = await restart(target, job.ID, {});

    // Assert
    const first = nextOf(target.sim.control.state(), originalId);
    const second = nextOf(target.sim.control.state(), first);
    expect(run.exitCode).toBe(0);
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(accounting.count('rescheduled')).toBe(1);
    expect(second).not.toBe('');
    const replaced = run.events.flatMap((e) =>
      e.type === 'allocation-replaced' ? [[e.allocationId, e.replacementId]] : [],
    );
    expect(replaced).toEqual([
      [originalId, first],
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
    // Arrange: the replacement stays pending; once it exists, the job's allocations are read once
    // (that read sees the link), and as the next read comes in the original is collected and the
    // replacement starts. A wall-clock start delay (600 ms) ran out before the watch's first read
    // on a loaded machine (it saw the replacement running and never read again), and counting reads
    // from the stop raced the scheduler placing the replacement.
    const { job, target, originalId } = await pendingReplacements('collected');
    onceReplaced(target, originalId, (replacement) => {
      target.sim.control.onRequest({ pathSuffix: `/job/${job.ID}/allocations`, nth: 2 }, () => {
        target.sim.control.garbageCollect(originalId);
        target.sim.control.startPendingAllocation(replacement);
      });
    });

    // Act
    const { run } = await restart(target, job.ID, {});

    // Assert: the job's allocation list links the replacement to it (PreviousAllocation).
    expect(target.sim.control.state().allocation(originalId)).toBeUndefined();
    expect({ code: run.exitCode, errors: run.errors }).toEqual({ code: 0, errors: [] });
    const replaced = run.events.find((e) => e.type === 'allocation-replaced');
    expect(replaced).toMatchObject({ allocationId: originalId });
  });

  it('8b. the original and its replacement both garbage-collected: a clear error naming the allocation, not a hang', async () => {
    // Arrange
    const { job, target, originalId } = await pendingReplacements('vanished');
    onceReplaced(target, originalId, (replacement) => {
      target.sim.control.garbageCollect(originalId);
      target.sim.control.garbageCollect(replacement);
    });

    // Act
    const { run } = await restart(target, job.ID, {});

    // Assert: the run ended (no -replacement-timeout is set, so a hang would last until jest's
    // timeout) on the error that names the vanished allocation.
    const id = originalId.slice(0, 8);
    expect(run.exitCode).toBe(1);
    expect(run.errors).toEqual([
      `Error restarting allocation "${id}": Allocation "${id}" disappeared while waiting for its replacement`,
    ]);
  });
});
