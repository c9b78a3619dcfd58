// Scenario: ACLs on (Nomad's `command/job_restart.go` `Help`; `TestJobRestartCommand_ACL`): tokens
// with partial grants fail exactly where Nomad's do, including the `Unknown allocation "<id>"` 500
// quirk, the 403 of the prefix list without list-jobs, and evaluate needing submit-job or
// evaluate-job.
import type { AllocListStub } from '../../lib/nomad/types';
import type { Scenario } from '../../sim/index';
import { group, job, nodes } from './helpers/fixtures';
import { call, get, put } from './helpers/http';
import { itSimEach, openTarget, simControl, type Target } from './helpers/target';

const TOKENS: Record<string, string[]> = {
  'alloc-lifecycle': ['alloc-lifecycle'],
  'read-job': ['read-job'],
  both: ['alloc-lifecycle', 'read-job'],
  list: ['list-jobs', 'alloc-lifecycle', 'read-job'],
  evaluate: ['read-job', 'evaluate-job'],
};

const scenario: Scenario = {
  nodes: nodes(1),
  jobs: [job('test_job_restart_acl', 'batch', [group('group1', 1, {}, '1h')])],
  acl: {
    enabled: true,
    tokens: [
      { secret: 'root', management: true },
      ...Object.entries(TOKENS).map(([secret, caps]) => ({ secret, namespaces: { default: caps } })),
    ],
  },
};

describe('simulator', () => {
  let target: Target;
  let allocId: string;

  beforeAll(async () => {
    target = await openTarget();
    simControl(target).seed(scenario);
    allocId = simControl(target).state().allocations()[0]?.ID ?? '';
  });
  afterAll(() => target.close());

  describe('ACL', () => {
    itSimEach([
      {
        name: 'no token: info',
        token: undefined,
        method: 'GET',
        path: '/v1/job/test_job_restart_acl',
        status: 403,
        text: 'Permission denied',
      },
      {
        name: 'no token: list',
        token: undefined,
        method: 'GET',
        path: '/v1/jobs?prefix=tes',
        status: 403,
        text: 'Permission denied',
      },
      {
        name: 'unknown token',
        token: 'who',
        method: 'GET',
        path: '/v1/job/test_job_restart_acl',
        status: 403,
        text: 'Permission denied',
      },
      {
        name: 'alloc-lifecycle only: info',
        token: 'alloc-lifecycle',
        method: 'GET',
        path: '/v1/job/test_job_restart_acl',
        status: 403,
        text: 'Permission denied',
      },
      {
        name: 'read-job only: info',
        token: 'read-job',
        method: 'GET',
        path: '/v1/job/test_job_restart_acl',
        status: 200,
        text: undefined,
      },
      {
        name: 'read-job only: versions',
        token: 'read-job',
        method: 'GET',
        path: '/v1/job/test_job_restart_acl/versions',
        status: 200,
        text: undefined,
      },
      {
        name: 'read-job only: allocations',
        token: 'read-job',
        method: 'GET',
        path: '/v1/job/test_job_restart_acl/allocations?all=true',
        status: 200,
        text: undefined,
      },
      {
        name: 'read-job only: deployments',
        token: 'read-job',
        method: 'GET',
        path: '/v1/job/test_job_restart_acl/deployments?all=true',
        status: 200,
        text: undefined,
      },
      {
        name: 'read-job only: restart',
        token: 'read-job',
        method: 'PUT',
        path: '/v1/client/allocation/ALLOC/restart',
        status: 403,
        text: 'Permission denied',
      },
      {
        name: 'read-job only: stop',
        token: 'read-job',
        method: 'PUT',
        path: '/v1/allocation/ALLOC/stop',
        status: 403,
        text: 'Permission denied',
      },
      {
        name: 'without list-jobs: list',
        token: 'both',
        method: 'GET',
        path: '/v1/jobs?prefix=tes&per_page=20',
        status: 403,
        text: 'Permission denied',
      },
      {
        name: 'without list-jobs: prefix as ID',
        token: 'both',
        method: 'GET',
        path: '/v1/job/tes',
        status: 404,
        text: 'job not found',
      },
      {
        name: 'with list-jobs: list',
        token: 'list',
        method: 'GET',
        path: '/v1/jobs?prefix=tes&per_page=20',
        status: 200,
        text: undefined,
      },
      {
        name: 'alloc-lifecycle: read alloc quirk',
        token: 'alloc-lifecycle',
        method: 'GET',
        path: '/v1/allocation/ALLOC',
        status: 500,
        text: 'Unknown allocation "ALLOC"',
      },
      {
        name: 'no token: missing alloc',
        token: undefined,
        method: 'GET',
        path: '/v1/allocation/00000000-0000-4000-8000-000000000000',
        status: 404,
        text: 'alloc not found',
      },
      {
        name: 'no token: restart missing alloc',
        token: undefined,
        method: 'PUT',
        path: '/v1/client/allocation/00000000-0000-4000-8000-000000000000/restart',
        status: 404,
        text: 'Unknown allocation "00000000-0000-4000-8000-000000000000"',
      },
      {
        name: 'both: evaluate',
        token: 'both',
        method: 'PUT',
        path: '/v1/job/test_job_restart_acl/evaluate',
        status: 403,
        text: 'Permission denied',
      },
      {
        name: 'evaluate-job: evaluate',
        token: 'evaluate',
        method: 'PUT',
        path: '/v1/job/test_job_restart_acl/evaluate',
        status: 200,
        text: undefined,
      },
      {
        name: 'read-job: nodes',
        token: 'read-job',
        method: 'GET',
        path: '/v1/nodes',
        status: 403,
        text: 'Permission denied',
      },
    ])('answers $status for $name', async ({ token, method, path, status, text }) => {
      // Arrange
      const resolved = path.replace('ALLOC', allocId);

      // Act
      const response = await call(target.address, resolved, {
        method,
        ...(token === undefined ? {} : { token }),
      });

      // Assert
      expect(response.status).toBe(status);
      if (text !== undefined) expect(response.text).toBe(text.replace('ALLOC', allocId));
    });

    itSimEach([{ token: 'both' }, { token: 'root' }])('lets $token restart and stop', async ({ token }) => {
      // Arrange
      const allocs = (
        await get<AllocListStub[]>(target.address, '/v1/job/test_job_restart_acl/allocations', 'root')
      ).json;
      const live = allocs.find((a) => a.DesiredStatus === 'run');

      // Act
      const restart = await put(
        target.address,
        `/v1/client/allocation/${live?.ID}/restart`,
        { TaskName: '', AllTasks: false },
        token,
      );
      const bearer = await fetch(`${target.address}/v1/job/test_job_restart_acl`, {
        headers: { Authorization: `Bearer ${token}` },
      });

      // Assert
      expect(restart.status).toBe(200);
      expect(bearer.status).toBe(200);
    });
  });
});
