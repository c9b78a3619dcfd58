// Scenario: a pause asked at a local run's terminal is recorded on the job's in-process lock for
// the run that holds it, at once once the plan has named the job, or as soon as it does.
import { LocalRunControl } from '../../../lib/cli/terminal/local-control';
import type { ControlRequest } from '../../../lib/control/requests';
import { MemoryJobLock } from '../../../lib/stores/job-lock';

const KEY = { namespace: 'prod', jobId: 'web' };
const RUN = 'run-1';
const PAUSE: ControlRequest = { verb: 'pause', requestedBy: 'alice@laptop', via: 'terminal', at: 1_000 };
const planned = { plan: { namespace: 'prod', jobId: 'web' }, run: { runId: RUN } };

/** The in-process lock with the run holding the job. */
async function heldLock(): Promise<MemoryJobLock> {
  const lock = new MemoryJobLock();
  await lock.acquire(KEY, { owner: RUN, ttlSeconds: 60 });
  return lock;
}

describe('LocalRunControl', () => {
  it('records a request on the lock the run holds', async () => {
    // Arrange
    const lock = await heldLock();
    const control = new LocalRunControl(lock);
    await control.stateExited(planned);

    // Act
    await control.request(PAUSE);

    // Assert
    expect(await lock.controlRequest(KEY, RUN)).toEqual(PAUSE);
  });

  it('keeps a request made before the plan until the plan names the job', async () => {
    // Arrange
    const lock = await heldLock();
    const control = new LocalRunControl(lock);
    await control.stateExited({ plan: null, run: { runId: RUN } });

    // Act
    await control.request(PAUSE);
    const before = await lock.controlRequest(KEY, RUN);
    await control.stateExited(planned);

    // Assert
    expect(before).toBeUndefined();
    expect(await lock.controlRequest(KEY, RUN)).toEqual(PAUSE);
  });
});
