/**
 * Scenarios: what refuses a restart while it is planned, against the simulator over HTTP.
 * T5 (sysbatch refused with only the list and info calls made) and T6 (prefix resolution).
 */
import { planRestart } from '../../../lib/steps/index';
import { restartOptions } from '../../fixtures/restart-options';
import { type Harness, harnessPerTest, simpleJob } from '../helpers/harness';

/** Request counters without the totals, for "which calls were made" assertions. */
function routes(h: Harness): string[] {
  return Object.keys(h.sim.control.counters())
    .filter((key) => !key.startsWith('total'))
    .sort();
}

describe('planRestart', () => {
  const harness = harnessPerTest();

  it('refuses -reschedule on a sysbatch job with only the list and info calls made (T5)', async () => {
    // Arrange
    const job = simpleJob('test_sysbatch_job', 'sysbatch', 1, 'group');
    const h = await harness.startRunning(job);
    h.sim.control.resetCounters();

    // Act
    const planning = planRestart(h.client, restartOptions(job.ID, { reschedule: true, verbose: true }), {
      emit: () => {},
      now: Date.now,
    });

    // Assert
    await expect(planning).rejects.toThrow('Jobs of type "sysbatch" are not allowed to be rescheduled.');
    expect(routes(h)).toEqual(['GET /v1/job/:id', 'GET /v1/jobs']);
  });

  it.each([
    {
      name: 'no job matches',
      arg: 'not-valid',
      namespace: undefined,
      expected: 'No job(s) with prefix or ID "not-valid" found',
    },
    {
      name: 'a prefix matches several jobs',
      arg: 'test_job',
      namespace: 'prod',
      expected: 'Prefix "test_job" matched multiple jobs\n\nID',
    },
    {
      name: 'the same ID exists in several namespaces',
      arg: 'test_job_restart',
      namespace: '*',
      expected: 'Prefix "test_job_restart" matched multiple jobs\n\nID  ',
    },
  ])('fails when $name (T6)', async ({ arg, namespace, expected }) => {
    // Arrange
    const jobs = [
      simpleJob('test_job_restart', 'batch', 1),
      { ...simpleJob('test_job_restart', 'batch', 1), Namespace: 'prod' },
      { ...simpleJob('test_job_restart_prod_ns', 'batch', 1), Namespace: 'prod' },
    ];
    const h = await harness.start({ namespaces: ['prod'], jobs });

    // Act
    const planning = planRestart(
      h.client,
      restartOptions(arg, namespace === undefined ? {} : { namespace }),
      {
        emit: () => {},
        now: Date.now,
      },
    );

    // Assert
    await expect(planning).rejects.toThrow(expected);
  });

  it('uses the namespace of a unique match across namespaces (T6 6.5)', async () => {
    // Arrange
    const jobs = [
      simpleJob('test_job_restart', 'batch', 1),
      { ...simpleJob('test_job_restart_prod_ns', 'batch', 1), Namespace: 'prod' },
    ];
    const h = await harness.start({ namespaces: ['prod'], jobs });

    // Act
    const plan = await planRestart(h.client, restartOptions('test_job_restart_prod', { namespace: '*' }), {
      emit: () => {},
      now: Date.now,
    });

    // Assert
    expect(plan.job).toEqual(expect.objectContaining({ id: 'test_job_restart_prod_ns', namespace: 'prod' }));
    expect(plan.kind).toBe('plan');
  });
});
