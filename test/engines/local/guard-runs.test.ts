/**
 * Scenarios: what stops a restart, run through the synthesized workflow and the local engine
 * against the simulator over HTTP. T7 (no allocations), T10 (active deployment: error, no
 * restart call), T11 (ACL grants), T14 (a 502 on the 2nd restart with `-on-error=fail`:
 * exactly 2 restart requests), and junk answers from Nomad, which must give an error naming
 * the allocation.
 */

import type { AclSpec } from '../../../sim/index';
import { restartOptions } from '../../fixtures/restart-options';
import {
  allocationsOf,
  eventsOf,
  harnessPerTest,
  holdDeploymentRunning,
  simpleJob,
  waitAllRunning,
} from '../../steps/helpers/harness';
import { runWorkflow } from './helpers/workflow-harness';

const RESTART = 'PUT /v1/client/allocation/:id/restart';

describe('the workflow', () => {
  const harness = harnessPerTest();

  it('finds nothing to restart for a job without allocations (T7)', async () => {
    // Arrange
    const job = { ...simpleJob('test_job_restart_no_allocs', 'batch', 1), Datacenters: ['invalid'] };
    const h = await harness.start({ jobs: [job] });

    // Act
    const run = await runWorkflow(h, restartOptions(job.ID));

    // Assert
    expect(run.exitCode).toBe(0);
    // Nomad's one line, and the run-level events of a run that restarted nothing (no line in text).
    expect(run.events.map((e) => e.type)).toEqual(['nothing-to-restart', 'run-started', 'run-ended']);
    expect(run.entered).not.toContain('Check deployments');
  });

  it('stops on an active deployment without any restart call (T10)', async () => {
    // Arrange
    const job = { ...simpleJob('test_job_restart_deployment', 'service', 1), Update: { MaxParallel: 1 } };
    const h = await harness.startRunning(job);
    const deployment = await holdDeploymentRunning(h, job.ID);

    // Act
    const run = await runWorkflow(h, restartOptions(job.ID, { yes: false, onError: 'fail', verbose: true }));

    // Assert
    expect(run.exitCode).toBe(1);
    expect(run.errors).toEqual([`Deployment "${deployment?.ID}" is "running"`]);
    expect(h.sim.control.counters()[RESTART]).toBeUndefined();
    expect(run.events.map((e) => e.type)).toEqual([
      'restart-started',
      'run-started',
      'finished',
      'run-ended',
    ]);
    expect(run.prompts).toEqual([]);
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
    const h = await harness.start({ jobs: [job], acl }, token === undefined ? {} : { token });
    await waitAllRunning(h, job.ID, 1);

    // Act
    const run = await runWorkflow(h, restartOptions(arg), token === undefined ? {} : { token });

    // Assert
    if (expected === undefined) {
      expect(run).toEqual(expect.objectContaining({ exitCode: 0, errors: [] }));
    } else if (expected.startsWith('Error querying')) {
      expect(run.exitCode).toBe(1);
      expect(run.errors).toEqual([expected]);
      expect(run.entered).not.toContain('Restart batch');
    } else {
      expect(run.exitCode).toBe(1);
      expect(run.errors).toEqual([
        `Error restarting allocation "${allocationsOf(h, job.ID)[0]?.ID.slice(0, 8)}": ${expected}`,
      ]);
    }
  });

  it('makes exactly 2 restart requests when the 2nd gets a 502 with -on-error=fail (T14)', async () => {
    // Arrange
    const job = simpleJob('test_job_restart_on_error', 'batch', 3);
    const h = await harness.startRunning(job);
    h.sim.control.injectFault({ pathSuffix: '/restart', nth: 2, status: 502, body: '' });

    // Act
    const { exitCode, errors, events } = await runWorkflow(
      h,
      restartOptions(job.ID, { yes: false, onError: 'fail' }),
    );

    // Assert
    expect(exitCode).toBe(1);
    expect(h.sim.control.counters()[RESTART]).toBe(2);
    expect(errors).toEqual([
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
    const h = await harness.startRunning(job);
    const id = allocationsOf(h, job.ID)[0]?.ID.slice(0, 8);
    h.sim.control.injectFault(fault);

    // Act
    const { exitCode, errors } = await runWorkflow(h, restartOptions(job.ID, { reschedule: true }));

    // Assert
    expect(exitCode).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.startsWith(`Error restarting allocation "${id}": ${step}`)).toBe(true);
  });
});
