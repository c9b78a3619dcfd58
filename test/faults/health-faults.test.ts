/**
 * Fault suite, case 12 (with the health gate): a Nomad service check that never passes after the
 * restart, under an unattended `-yes -max-errors 1` run. Each restarted allocation fails the gate
 * at its deadline with the check's output, the run stops once more than one has, and the
 * allocations after that are never touched. Ends with the accounting check.
 */
import type { Allocation } from '../../lib/nomad/types';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { checkedJob } from '../steps/health/helpers/health-fixtures';
import { allocationsOf, eventsOf } from '../steps/helpers/harness';
import { accountFor, CLEAN, faultSuite, invariantsOf } from './helpers/accounting';

const { harness } = faultSuite();

describe('faults in health', () => {
  it('12. a check that never passes under -yes -max-errors 1: two failed, the rest not reached', async () => {
    // Arrange: 4 allocations, one per batch; the check fails from now on (HTTP 500).
    const job = checkedJob('unhealthy', 4);
    const h = await harness.startRunning(job);
    h.sim.control.setCheckBehaviour({ jobId: job.ID }, 'http', { behaviour: 'never-passing' });
    const planned: Allocation[] = allocationsOf(h, job.ID);
    const startedAt = h.now();

    // Act
    const run = await runWorkflow(
      h,
      restartOptions(job.ID, {
        maxErrors: { value: 1, percent: false },
        waitHealthy: { minHealthyTimeNs: 100e6, healthyDeadlineNs: 800e6 },
      }),
    );
    const accounting = accountFor(h, planned, run, startedAt);

    // Assert
    expect(run.exitCode).toBe(1);
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(accounting.count('failed')).toBe(2);
    expect(accounting.count('not reached')).toBe(2);
    const restarted = eventsOf(run.events, 'allocation-restarting').map((e) => e.allocationId.slice(0, 8));
    expect(run.errors).toEqual(
      restarted.map(
        (id) =>
          `Error restarting allocation "${id}": Allocation "${id}" did not become healthy within 800ms: check "http" is "failure": Internal Server Error`,
      ),
    );
    expect(eventsOf(run.events, 'max-errors-exceeded')).toEqual([
      expect.objectContaining({ failed: 2, maxErrors: '1' }),
    ]);
    expect(eventsOf(run.events, 'allocation-healthy')).toEqual([]);
  });
});
