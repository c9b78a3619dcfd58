/**
 * #19 item 10 through the local engine: the lease alone never decides who holds a job. A run
 * whose lock holder ended without releasing it (no status-change event arrived) takes the lock
 * over and says so; a holder that is still running keeps it even with its lease long expired.
 */

import { localStores } from '../../lib/stores/from-env';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { restartOptions } from '../fixtures/restart-options';
import { harnessPerTest, simpleJob, waitAllRunning } from '../steps/helpers/harness';

const KEY = { namespace: 'default', jobId: 'web' };
const GONE = 'arn:aws:states:local:000000000000:execution:NomadRestart-Restart:gone';
const WAITING = 'arn:aws:states:local:000000000000:execution:NomadRestart-Restart:waiting';

const harness = harnessPerTest();
afterEach(async () => {
  await localStores.lock.release(KEY, GONE);
  await localStores.lock.release(KEY, WAITING);
  localStores.runs.ended(WAITING);
});

async function cluster() {
  // ACLs on, the README's policy: a takeover frees the dead run's shared lock with the ID kept for it.
  const h = await harness.start(
    { jobs: [simpleJob('web', 'service', 2)], acl: readmePolicyAcl() },
    { token: OPERATOR_TOKEN },
  );
  await waitAllRunning(h, 'web', 2);
  return h;
}

describe('a job lock left behind', () => {
  it('is taken over from a holder that is no longer running, and the run says so', async () => {
    // Arrange
    const target = await cluster();
    await localStores.lock.acquire(KEY, { owner: GONE, ttlSeconds: 86_400 });

    // Act
    const run = await runWorkflow(target, restartOptions('web'), { token: OPERATOR_TOKEN });

    // Assert
    expect(run.exitCode).toBe(0);
    expect(run.events).toContainEqual(
      expect.objectContaining({
        type: 'lock-taken-over',
        jobId: 'web',
        previousRun: GONE,
        previousStatus: 'NOT_FOUND',
      }),
    );
    expect(target.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(2);
    expect(localStores.lock.holder(KEY)).toBeUndefined();
  });

  it('stays with a holder that is still running, even with its lease long expired', async () => {
    // Arrange: a run waiting on a replacement for longer than its lease.
    const target = await cluster();
    await localStores.lock.acquire(KEY, { owner: WAITING, ttlSeconds: -3600 });
    localStores.runs.started(WAITING);

    // Act
    const run = await runWorkflow(target, restartOptions('web'), { token: OPERATOR_TOKEN });

    // Assert
    expect(run.result).toMatchObject({ status: 'FAILED', error: 'JobLocked' });
    expect(run.errors).toEqual([
      `Job "web" in namespace "default" is already being restarted by execution "${WAITING}"`,
    ]);
    expect(target.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBeUndefined();
    expect(localStores.lock.holder(KEY)).toBe(WAITING);
  });
});
