/**
 * Scenarios: what stops a restart, against the simulator over HTTP. T5 (sysbatch refused
 * with zero mutating requests), T7 (no allocations), prefix resolution errors, T10 (active
 * deployment: error, no restart call), T11 (ACL grants), T14 (a 502 on the 2nd restart with
 * `-on-error=fail`: exactly 2 restart requests), and junk answers from Nomad, which must
 * give an error naming the allocation.
 */
import { planRestart, runRestart } from '../../lib/steps/index';
import type { AclSpec } from '../../sim/index';
import {
  allocationsOf,
  eventsOf,
  type Harness,
  neverAsk,
  recorder,
  restartOptions,
  simpleJob,
  startHarness,
  waitAllRunning,
} from './harness';

const RESTART = 'PUT /v1/client/allocation/:id/restart';

/** Request counters without the totals, for "which calls were made" assertions. */
function routes(h: Harness): string[] {
  return Object.keys(h.sim.control.counters())
    .filter((key) => !key.startsWith('total'))
    .sort();
}

describe('planRestart', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('refuses -reschedule on a sysbatch job with only the list and info calls made (T5)', async () => {
    // Arrange
    const job = simpleJob('test_sysbatch_job', 'sysbatch', 1, 'group');
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 1);
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

  it('finds nothing to restart for a job without allocations (T7)', async () => {
    // Arrange
    const job = { ...simpleJob('test_job_restart_no_allocs', 'batch', 1), Datacenters: ['invalid'] };
    h = await startHarness({ jobs: [job] });
    const { events, emit } = recorder();

    // Act
    const result = await runRestart(h.client, restartOptions(job.ID), { emit, ask: neverAsk });

    // Assert
    expect(result).toEqual(expect.objectContaining({ end: 'nothing-to-restart', exitCode: 0 }));
    expect(events.map((e) => e.type)).toEqual(['nothing-to-restart']);
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
    h = await startHarness({ namespaces: ['prod'], jobs });

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
    h = await startHarness({ namespaces: ['prod'], jobs });

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

describe('runRestart', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('stops on an active deployment without any restart call (T10)', async () => {
    // Arrange
    const job = { ...simpleJob('test_job_restart_deployment', 'service', 1), Update: { MaxParallel: 1 } };
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 1);
    const [deployment] = h.sim.control.state().deployments({ jobId: job.ID });
    h.sim.control.setDeploymentStatus(deployment?.ID ?? 'missing', 'running');
    const { events, emit } = recorder();

    // Act
    const result = await runRestart(
      h.client,
      restartOptions(job.ID, { yes: false, onError: 'fail', verbose: true }),
      {
        emit,
        ask: neverAsk,
      },
    );

    // Assert
    expect(result.exitCode).toBe(1);
    expect(result.errors.map((e) => e.message)).toEqual([`Deployment "${deployment?.ID}" is "running"`]);
    expect(h.sim.control.counters()[RESTART]).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['restart-started', 'finished']);
  });

  const acl: AclSpec = {
    enabled: true,
    tokens: [
      { secret: 'root', management: true },
      { secret: 'lifecycle', namespaces: { default: ['alloc-lifecycle'] } },
      { secret: 'read', namespaces: { default: ['read-job'] } },
      { secret: 'both', namespaces: { default: ['alloc-lifecycle', 'read-job'] } },
      { secret: 'all', namespaces: { default: ['list-jobs', 'alloc-lifecycle', 'read-job'] } },
    ],
  };
  it.each([
    {
      name: '11.1 no token',
      token: undefined,
      arg: 'test_job_restart_acl',
      expected:
        'Error querying job "test_job_restart_acl": Unexpected response code: 403 (Permission denied)',
    },
    {
      name: '11.2 alloc-lifecycle not enough',
      token: 'lifecycle',
      arg: 'test_job_restart_acl',
      expected:
        'Error querying job "test_job_restart_acl": Unexpected response code: 403 (Permission denied)',
    },
    {
      name: '11.3 read-job not enough',
      token: 'read',
      arg: 'test_job_restart_acl',
      expected: 'Unexpected response code: 403 (Permission denied)',
    },
    {
      name: '11.4 alloc-lifecycle and read-job allowed',
      token: 'both',
      arg: 'test_job_restart_acl',
      expected: undefined,
    },
    {
      name: '11.5 job prefix requires list-jobs',
      token: 'both',
      arg: 'tes',
      expected: 'Error querying job "tes": Unexpected response code: 404 (job not found)',
    },
    { name: '11.6 job prefix works with list-jobs', token: 'all', arg: 'tes', expected: undefined },
  ])('$name (T11)', async ({ token, arg, expected }) => {
    // Arrange
    const job = simpleJob('test_job_restart_acl', 'batch', 1);
    h = await startHarness({ jobs: [job], acl }, token === undefined ? {} : { token });
    await waitAllRunning(h, job.ID, 1);

    // Act
    const running = runRestart(h.client, restartOptions(arg), { emit: () => {}, ask: neverAsk });

    // Assert
    if (expected === undefined) {
      await expect(running).resolves.toEqual(expect.objectContaining({ exitCode: 0, errors: [] }));
    } else if (expected.startsWith('Error querying')) {
      await expect(running).rejects.toThrow(expected);
    } else {
      const result = await running;
      expect(result.exitCode).toBe(1);
      expect(result.errors.map((e) => e.message)).toEqual([
        `Error restarting allocation "${allocationsOf(h, job.ID)[0]?.ID.slice(0, 8)}": ${expected}`,
      ]);
    }
  });

  it('makes exactly 2 restart requests when the 2nd gets a 502 with -on-error=fail (T14)', async () => {
    // Arrange
    const job = simpleJob('test_job_restart_on_error', 'batch', 3);
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 3);
    h.sim.control.injectFault({ pathSuffix: '/restart', nth: 2, status: 502, body: '' });
    const { events, emit } = recorder();

    // Act
    const result = await runRestart(h.client, restartOptions(job.ID, { yes: false, onError: 'fail' }), {
      emit,
      ask: neverAsk,
    });

    // Assert
    expect(result.exitCode).toBe(1);
    expect(h.sim.control.counters()[RESTART]).toBe(2);
    expect(result.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Error restarting allocation "[0-9a-f]{8}": Unexpected response code: 502$/),
    ]);
    expect(eventsOf(events, 'stopping')).toEqual([expect.objectContaining({ reason: 'error' })]);
  });

  it.each([
    {
      name: 'an empty stop answer',
      fault: { pathSuffix: '/stop', status: 200, body: '' },
      step: 'Failed to stop allocation: ',
    },
    {
      name: 'a stop answer of the wrong shape',
      fault: { pathSuffix: '/stop', status: 200, body: '{"EvalID":7}' },
      step: 'Failed to stop allocation: ',
    },
    {
      name: 'an allocation list that is not JSON',
      fault: { pathSuffix: '/allocations', nth: 2, status: 200, body: 'oops' },
      step: 'Failed to retrieve allocation "',
    },
  ])('names the allocation when Nomad sends junk: $name', async ({ fault, step }) => {
    // Arrange
    const job = simpleJob('junk', 'service', 1);
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 1);
    const id = allocationsOf(h, job.ID)[0]?.ID.slice(0, 8);
    h.sim.control.injectFault(fault);

    // Act
    const result = await runRestart(h.client, restartOptions(job.ID, { reschedule: true }), {
      emit: () => {},
      ask: neverAsk,
    });

    // Assert
    expect(result.exitCode).toBe(1);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.message.startsWith(`Error restarting allocation "${id}": ${step}`)).toBe(true);
  });
});
