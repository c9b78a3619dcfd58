/**
 * #19 item 5 through the local engine: every plan-store read fails once with a transient S3
 * error (`SlowDown`, a server fault). Before, a step read such a failure as "missing": a retried
 * batch forgot its journal and restarted allocations again, and Decide overwrote the errors
 * collected so far. Now the step fails as `AwsTransientError`, Step Functions retries it, and the
 * run ends as it would have: nothing restarted twice, no error lost.
 */
import { jest } from '@jest/globals';
import type { Allocation } from '../../lib/nomad/types';
import { localStores } from '../../lib/stores/from-env';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { accountFor, CLEAN, invariantsOf } from '../faults/helpers/accounting';
import { restartOptions } from '../fixtures/restart-options';
import { allocationsOf, harnessPerTest, simpleJob } from '../steps/helpers/harness';

/** What the S3 client throws when it is asked to slow down. */
function slowDown(): Error {
  return Object.assign(new Error('Please reduce your request rate.'), { name: 'SlowDown', $fault: 'server' });
}

const harness = harnessPerTest();
afterEach(async () => {
  jest.restoreAllMocks();
});

describe('transient S3 errors on plan-store reads', () => {
  it('are retried: nothing restarted twice and every error still reported', async () => {
    // Arrange: 6 allocations in batches of 2; the 2nd and 5th restarts fail in Nomad.
    const h = await harness.startRunning(simpleJob('web', 'service', 6));
    h.sim.control.injectFault({ pathSuffix: '/restart', nth: 2, status: 500, body: 'Task not running' });
    h.sim.control.injectFault({ pathSuffix: '/restart', nth: 5, status: 500, body: 'Task not running' });
    const store = localStores.planStore;
    const read = store.get.bind(store);
    const failedOnce = new Set<string>();
    jest.spyOn(store, 'get').mockImplementation(async (key: string) => {
      if (!failedOnce.has(key)) {
        failedOnce.add(key);
        throw slowDown();
      }
      return read(key);
    });
    const planned: Allocation[] = allocationsOf(h, 'web');
    const startedAt = h.now();

    // Act
    const run = await runWorkflow(h, restartOptions('web', { batchSize: { value: 2, percent: false } }));

    // Assert
    const accounting = accountFor(h, planned, run, startedAt);
    expect(failedOnce.size).toBeGreaterThanOrEqual(5);
    expect(run.result.stats.retries).toBeGreaterThanOrEqual(failedOnce.size);
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(run.exitCode).toBe(1);
    expect(run.errors).toHaveLength(2);
    expect(accounting.count('restarted')).toBe(4);
    expect(accounting.count('failed')).toBe(2);
  });
});
