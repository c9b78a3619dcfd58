// Scenario: the HTTP contract of Nomad's `api/` (`api/jobs.go`, `api/allocations.go`) that any
// Nomad must honour: error texts for missing objects, Nomad's 400 texts for bad input, 404 and 405,
// query-meta headers, blocking-query holds, and the job list (prefix, namespaces, pagination). The
// tests written with plain `it` only use the Nomad API, so they also run against a real agent with
// NOMAD_E2E_ADDR set.
import type { Allocation, AllocListStub, Job, JobListStub } from '../../lib/nomad/types';
import { group, job, nodes, seededRandom, sleepJob } from './helpers/fixtures';
import { call, eventually, get, put } from './helpers/http';
import { itSim, openTarget, simControl, type Target } from './helpers/target';

describe('simulator', () => {
  let target: Target;

  beforeAll(async () => {
    target = await openTarget({ random: seededRandom(3) });
  });
  afterAll(() => target.close());

  describe('error responses', () => {
    it.each([
      {
        name: 'job info of a missing job',
        method: 'GET',
        path: '/v1/job/no-such-job',
        status: 404,
        text: 'job not found',
      },
      {
        name: 'versions of a missing job',
        method: 'GET',
        path: '/v1/job/no-such-job/versions',
        status: 404,
        text: 'job versions not found',
      },
      {
        name: 'evaluate of a missing job',
        method: 'PUT',
        path: '/v1/job/no-such-job/evaluate',
        status: 500,
        text: 'job not found',
      },
      {
        name: 'a missing allocation',
        method: 'GET',
        path: '/v1/allocation/00000000-0000-4000-8000-000000000000',
        status: 404,
        text: 'alloc not found',
      },
      {
        name: 'stop of a missing allocation',
        method: 'PUT',
        path: '/v1/allocation/00000000-0000-4000-8000-000000000000/stop',
        status: 404,
        text: 'allocation not found',
      },
      {
        name: 'an unknown route',
        method: 'GET',
        path: '/v1/nope',
        status: 404,
        text: '',
      },
      {
        name: 'a POST to a read endpoint',
        method: 'POST',
        path: '/v1/job/x/allocations',
        status: 405,
        text: 'Invalid method',
      },
      {
        name: 'a GET of the stop endpoint',
        method: 'GET',
        path: '/v1/allocation/x/stop',
        status: 405,
        text: 'Invalid method',
      },
      { name: 'a bad index', method: 'GET', path: '/v1/jobs?index=abc', status: 400, text: 'Invalid index' },
      {
        name: 'a negative index',
        method: 'GET',
        path: '/v1/job/x/allocations?index=-1',
        status: 400,
        text: 'Invalid index',
      },
      {
        name: 'a bad wait',
        method: 'GET',
        path: '/v1/job/x/evaluations?index=1&wait=soon',
        status: 400,
        text: 'Invalid wait time',
      },
      {
        name: 'a bad per_page',
        method: 'GET',
        path: '/v1/jobs?per_page=many',
        status: 400,
        text: 'Expect a number for `per_page` query string parameter',
      },
    ])('answers $status for $name', async ({ method, path, status, text }) => {
      // Arrange
      target.control?.reset();

      // Act
      const response = await call(target.address, path, { method });

      // Assert
      expect(response.status).toBe(status);
      expect(response.text).toBe(text);
    });

    it.each([
      { name: 'allocations', path: '/v1/job/no-such-job/allocations' },
      { name: 'deployments', path: '/v1/job/no-such-job/deployments' },
      { name: 'evaluations', path: '/v1/job/no-such-job/evaluations' },
    ])('answers 200 [] for the $name of a missing job', async ({ path }) => {
      // Arrange
      target.control?.reset();

      // Act
      const response = await get(target.address, path);

      // Assert
      expect(response.status).toBe(200);
      expect(response.json).toEqual([]);
      expect(Number(response.headers.get('X-Nomad-Index'))).toBeGreaterThanOrEqual(1);
    });

    it.each([
      { name: 'malformed JSON', body: '{"Job": {', status: 400, text: 'unexpected EOF' },
      {
        name: 'not JSON at all',
        body: 'hello',
        status: 400,
        text: "invalid character 'h' looking for beginning of value",
      },
      { name: 'no job', body: '{}', status: 400, text: 'Job must be specified' },
      {
        name: 'a count of the wrong type',
        body: JSON.stringify({ Job: { ID: 'x', TaskGroups: [{ Name: 'g', Count: 'two' }] } }),
        status: 400,
        // Go 1.24+ names the struct that holds the field, then the field's path.
        text: 'json: cannot unmarshal string into Go struct field TaskGroup.Job.TaskGroups.Count of type int',
      },
      {
        name: 'a hook of the wrong type',
        body: JSON.stringify({
          Job: { ID: 'x', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Lifecycle: { Hook: 5 } }] }] },
        }),
        status: 400,
        text: 'json: cannot unmarshal number into Go struct field TaskLifecycle.Job.TaskGroups.Tasks.Lifecycle.Hook of type string',
      },
      {
        name: 'a job without an ID',
        body: JSON.stringify({ Job: { TaskGroups: [group('g', 1)] } }),
        status: 400,
        text: "Job ID hasn't been provided",
      },
      // What the agent lets through, the server's validation refuses: a 500.
      {
        name: 'a negative count',
        body: JSON.stringify({ Job: job('neg', 'service', [group('g', -1)]) }),
        status: 500,
        text: "1 error occurred:\n\t* Task group g validation failed: 1 error occurred:\n\t* Task group count can't be negative\n\n\n\n",
      },
      {
        name: 'an empty ID',
        body: JSON.stringify({ Job: { ID: '', TaskGroups: [group('g', 1)] } }),
        status: 500,
        text: '2 errors occurred:\n\t* Missing job ID\n\t* Missing job name\n\n',
      },
      {
        name: 'a bad type and priority',
        body: JSON.stringify({ Job: job('bad', 'weird', [group('g', 1)], { Priority: 1000 }) }),
        status: 500,
        text: '2 errors occurred:\n\t* Invalid job type: "weird"\n\t* job priority must be between [1, 100]\n\n',
      },
      {
        name: 'a group of lifecycle tasks with a bad hook',
        body: JSON.stringify({
          Job: job('hook', 'service', [
            {
              Name: 'g',
              Count: 1,
              Tasks: [{ Name: 'main', Driver: 'mock_driver', Lifecycle: { Hook: 'sometime' } }],
            },
          ]),
        }),
        status: 500,
        text: '1 error occurred:\n\t* Task group g validation failed: 2 errors occurred:\n\t* Task group g must have at least one main task\n\t* Task main validation failed: 1 error occurred:\n\t* Lifecycle validation failed: invalid hook: sometime\n\n\n\n\n\n',
      },
    ])('refuses to register $name with $status', async ({ body, status, text }) => {
      // Arrange
      target.control?.reset();

      // Act
      const response = await put(target.address, '/v1/jobs', body);

      // Assert
      expect(response.status).toBe(status);
      expect(response.text).toBe(text);
    });

    itSim('answers 400 for evaluate bodies that name no job or another job', async () => {
      // Arrange
      simControl(target).reset();
      simControl(target).seed({ nodes: nodes(1), jobs: [job('ev', 'service', [group('g', 1)])] });

      // Act
      const empty = await put(target.address, '/v1/job/ev/evaluate', {
        JobID: '',
        EvalOptions: { ForceReschedule: true },
      });
      const other = await put(target.address, '/v1/job/ev/evaluate', {
        JobID: 'other',
        EvalOptions: { ForceReschedule: true },
      });
      const none = await put(target.address, '/v1/job/ev/evaluate');

      // Assert
      expect([empty.status, empty.text]).toEqual([400, 'Job ID must be specified']);
      expect([other.status, other.text]).toEqual([400, 'JobID not same as job name']);
      expect(none.status).toBe(200);
    });

    itSim('answers 500 for evaluating periodic and parameterized parents', async () => {
      // Arrange
      const control = simControl(target);
      control.reset();
      control.seed({
        nodes: nodes(1),
        jobs: [
          job('cron', 'batch', [group('g', 1)], { Periodic: { Enabled: true, Spec: '* * * * *' } }),
          job('param', 'batch', [group('g', 1)], { ParameterizedJob: { Payload: 'optional' } }),
        ],
      });

      // Act
      const periodic = await put(target.address, '/v1/job/cron/evaluate');
      const parameterized = await put(target.address, '/v1/job/param/evaluate');

      // Assert
      expect([periodic.status, periodic.text]).toEqual([500, "can't evaluate periodic job"]);
      expect([parameterized.status, parameterized.text]).toEqual([500, "can't evaluate parameterized job"]);
      expect(control.state().allocations()).toEqual([]);
    });

    itSim('answers 500 with Go text for a bad no_shutdown_delay', async () => {
      // Arrange
      const control = simControl(target);
      control.reset();
      control.seed({ nodes: nodes(1), jobs: [job('nsd', 'service', [group('g', 1)])] });
      const [alloc] = control.state().allocations();

      // Act
      const response = await put(target.address, `/v1/allocation/${alloc?.ID}/stop?no_shutdown_delay=maybe`);

      // Assert
      expect(response.status).toBe(500);
      expect(response.text).toBe(
        'Failed to parse value of "no_shutdown_delay" (maybe) as a bool: strconv.ParseBool: parsing "maybe": invalid syntax',
      );
    });
  });

  describe('blocking queries', () => {
    itSim('returns the current index when the wait runs out', async () => {
      // Arrange
      const control = simControl(target);
      control.reset();
      control.seed({ nodes: nodes(1), jobs: [job('idle', 'service', [group('g', 1)])] });
      const first = await get(target.address, '/v1/job/idle/evaluations');
      const index = Number(first.headers.get('X-Nomad-Index'));

      // Act
      const held = await get(target.address, `/v1/job/idle/evaluations?index=${index}&wait=50ms`);

      // Assert
      expect(held.status).toBe(200);
      expect(held.headers.get('X-Nomad-Index')).toBe(String(index));
      expect(held.headers.get('X-Nomad-KnownLeader')).toBe('true');
      expect(held.headers.get('X-Nomad-LastContact')).toBe('0');
    });

    itSim('releases a held query when the client goes away', async () => {
      // Arrange
      const control = simControl(target);
      control.reset();
      const aborter = new AbortController();
      const pending = call(target.address, '/v1/job/x/evaluations?index=1000', {
        signal: aborter.signal,
      }).catch(() => 'aborted');
      await eventually(async () => (control.state().heldQueries() === 1 ? true : undefined));

      // Act
      aborter.abort();
      await pending;
      await eventually(async () => (control.state().heldQueries() === 0 ? true : undefined));

      // Assert
      expect(control.state().heldQueries()).toBe(0);
    });
  });

  describe('GET /v1/jobs', () => {
    itSim(
      'lists jobs sorted by ID with JobSummary.Namespace, across namespaces with *, paginated',
      async () => {
        // Arrange
        const control = simControl(target);
        control.reset();
        control.seed({
          namespaces: ['prod'],
          nodes: nodes(1),
          jobs: [
            job('test_job_restart', 'batch', [group('g', 1, {}, '1h')]),
            job('test_job_restart', 'batch', [group('g', 1, {}, '1h')], { Namespace: 'prod' }),
            job('test_job_restart_prod_ns', 'batch', [group('g', 1, {}, '1h')], { Namespace: 'prod' }),
            job('another', 'service', [group('g', 1)]),
          ],
        });

        // Act
        const byDefault = await get<JobListStub[]>(target.address, '/v1/jobs?prefix=test_job&per_page=20');
        const inProd = await get<JobListStub[]>(target.address, '/v1/jobs?prefix=test_job&namespace=prod');
        const everywhere = await get<JobListStub[]>(target.address, '/v1/jobs?prefix=test_job&namespace=*');
        const page1 = await get<JobListStub[]>(target.address, '/v1/jobs?namespace=*&per_page=2');
        const page2 = await get<JobListStub[]>(
          target.address,
          `/v1/jobs?namespace=*&per_page=2&next_token=${page1.headers.get('X-Nomad-NextToken')}`,
        );

        // Assert
        expect(byDefault.json.map((j) => [j.ID, j.JobSummary?.Namespace])).toEqual([
          ['test_job_restart', 'default'],
        ]);
        expect(inProd.json.map((j) => j.ID)).toEqual(['test_job_restart', 'test_job_restart_prod_ns']);
        expect(everywhere.json.map((j) => `${j.JobSummary?.Namespace}/${j.ID}`)).toEqual([
          'default/test_job_restart',
          'prod/test_job_restart',
          'prod/test_job_restart_prod_ns',
        ]);
        expect(byDefault.json[0]).toMatchObject({
          Type: 'batch',
          Priority: 50,
          Status: 'running',
          Stop: false,
          Periodic: false,
          ParameterizedJob: false,
        });
        expect(page1.json.map((j) => j.ID)).toEqual(['another', 'test_job_restart']);
        expect(page2.json.map((j) => `${j.Namespace}/${j.ID}`)).toEqual([
          'prod/test_job_restart',
          'prod/test_job_restart_prod_ns',
        ]);
        expect(page2.headers.get('X-Nomad-NextToken')).toBeNull();
      },
    );

    itSim('keeps the last 6 versions of a job, newest first', async () => {
      // Arrange
      const control = simControl(target);
      control.reset();
      control.seed({ nodes: nodes(1), jobs: [] });

      // Act
      for (let v = 0; v < 8; v++)
        await put(target.address, '/v1/jobs', {
          Job: job('versioned', 'service', [group('g', 1, {}, `${v + 1}h`)]),
        });
      const same = await put<{ JobModifyIndex: number }>(target.address, '/v1/jobs', {
        Job: job('versioned', 'service', [group('g', 1, {}, '8h')]),
      });
      const versions = await get<{ Versions: Job[] }>(
        target.address,
        '/v1/job/versioned/versions?diffs=false',
      );

      // Assert
      expect(same.status).toBe(200);
      expect(versions.json.Versions.map((v) => v.Version)).toEqual([7, 6, 5, 4, 3, 2]);
      expect(versions.headers.get('X-Nomad-Index')).toBe(String(versions.json.Versions[0]?.ModifyIndex));
    });
  });

  describe('end to end', () => {
    it('registers a job through PUT /v1/jobs and replaces a stopped allocation with a running one', async () => {
      // Arrange
      target.control?.reset();
      target.control?.seed({ nodes: nodes(1), jobs: [] });
      const id = `sim-e2e-${Date.now()}`;
      const registered = await put<{ EvalID: string }>(target.address, '/v1/jobs', { Job: sleepJob(id) });
      try {
        const original = await eventually(async () => {
          const allocs = (await get<AllocListStub[]>(target.address, `/v1/job/${id}/allocations`)).json;
          return allocs.find((a) => a.ClientStatus === 'running');
        });

        // Act: list stubs carry NextAllocation but not PreviousAllocation, as in Nomad.
        const stop = await put<{ Index: number }>(target.address, `/v1/allocation/${original.ID}/stop`);
        const replacement = await eventually(async () => {
          const allocs = (await get<AllocListStub[]>(target.address, `/v1/job/${id}/allocations`)).json;
          const next = allocs.find((a) => a.ID === original.ID)?.NextAllocation;
          return allocs.find((a) => next && a.ID === next && a.ClientStatus === 'running');
        }, 30_000);
        const full = await get<Allocation>(target.address, `/v1/allocation/${replacement.ID}`);

        // Assert
        expect(registered.status).toBe(200);
        expect(registered.json.EvalID).toMatch(/^[0-9a-f-]{36}$/);
        expect(Number(stop.headers.get('X-Nomad-Index'))).toBe(stop.json.Index);
        expect(replacement.Name).toBe(original.Name);
        expect(replacement).not.toHaveProperty('PreviousAllocation');
        expect(full.json.PreviousAllocation).toBe(original.ID);
      } finally {
        // A real agent keeps what a failed run leaves behind.
        await call(target.address, `/v1/job/${id}?purge=true`, { method: 'DELETE' });
      }
    });
  });
});
