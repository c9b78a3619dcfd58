/**
 * Scenarios: when the plan reads the job's versions (lib/steps/plan/job-versions.ts), against the
 * simulator over HTTP. Allocations that all run the job's current version are matched against the
 * job read alone; one on an older version costs Nomad's versions read, and its failure Nomad's
 * message. An update that changes only the job's `Meta` leaves the allocations on the old version.
 */
import { planRestart } from '../../../lib/steps/index';
import { restartOptions } from '../../fixtures/restart-options';
import { type Harness, type HarnessPerTest, harnessPerTest, simpleJob } from '../helpers/harness';

const VERSIONS = 'GET /v1/job/:id/versions';

/** Request counters without the totals, for "which calls were made" assertions. */
function routes(h: Harness): string[] {
  return Object.keys(h.sim.control.counters())
    .filter((key) => !key.startsWith('total'))
    .sort();
}

const deps = { emit: () => {}, now: Date.now };

/**
 * Two running allocations of `web` on version 0, and a version 1 that changes the job's `Meta`
 * only, so the allocations stay on version 0; the counters start from there.
 */
async function allocationsOnAnOlderVersion(harness: HarnessPerTest): Promise<Harness> {
  const job = simpleJob('web', 'service', 2);
  const h = await harness.startRunning(job);
  h.sim.control.registerJob({ ...job, Meta: { update: '1' } });
  h.sim.control.resetCounters();
  return h;
}

describe('planRestart', () => {
  const harness = harnessPerTest();

  it('reads no versions when every allocation runs the job’s version', async () => {
    // Arrange
    const h = await harness.startRunning(simpleJob('web', 'service', 3));
    h.sim.control.resetCounters();

    // Act
    const plan = await planRestart(h.client, restartOptions('web', { tasks: ['task1'] }), deps);

    // Assert: the job read stands for version 0, so the task and the type are matched against it.
    expect(routes(h)).toEqual(['GET /v1/job/:id', 'GET /v1/job/:id/allocations', 'GET /v1/jobs']);
    expect(plan.kind).toBe('plan');
    const planned = plan.kind === 'plan' ? plan.batches.flat() : [];
    expect(planned.map((a) => [a.jobVersion, a.jobType, a.tasks])).toEqual([
      [0, 'service', ['task1']],
      [0, 'service', ['task1']],
      [0, 'service', ['task1']],
    ]);
  });

  it('reads the versions when an allocation runs another version than the job’s', async () => {
    // Arrange
    const h = await allocationsOnAnOlderVersion(harness);

    // Act
    const plan = await planRestart(h.client, restartOptions('web', { tasks: ['task1'] }), deps);

    // Assert
    expect(routes(h)).toContain(VERSIONS);
    const planned = plan.kind === 'plan' ? plan.batches.flat() : [];
    expect(planned.map((a) => [a.jobVersion, a.jobType])).toEqual([
      [0, 'service'],
      [0, 'service'],
    ]);
  });

  it('fails with Nomad’s versions message when the versions read it needs fails', async () => {
    // Arrange
    const h = await allocationsOnAnOlderVersion(harness);
    h.sim.control.injectFault({ pathSuffix: '/versions', status: 500, body: 'versions unavailable' });

    // Act
    const planning = planRestart(h.client, restartOptions('web'), deps);

    // Assert
    await expect(planning).rejects.toThrow('Error retrieving versions of job "web"');
  });

  it('reads no versions for allocations on another version that a -group filter skips', async () => {
    // Arrange
    const h = await allocationsOnAnOlderVersion(harness);

    // Act
    const plan = await planRestart(h.client, restartOptions('web', { groups: ['other'] }), deps);

    // Assert
    expect(plan.kind).toBe('nothing-to-restart');
    expect(routes(h)).not.toContain(VERSIONS);
  });
});
