// Scenario: reads against a stand-in Nomad on 127.0.0.1 (real sockets): query parameters,
// blocking-query metadata, scoping by namespace and region, path escaping and defensive
// decoding of each read endpoint.
import { randomUUID } from 'node:crypto';
import { NomadClient } from '../../lib/nomad';
import { fakeNomadPerTest } from './helpers/fake-nomad';
import { allocJson, evalJson, jobJson } from './helpers/wire';

describe('NomadClient reads', () => {
  const fake = fakeNomadPerTest({ token: 'secret-token-1234' });

  describe('blocking queries', () => {
    it('sends index and wait and parses the query headers', async () => {
      // Arrange
      fake.nomad.enqueue({
        body: allocJson(),
        headers: { 'X-Nomad-Index': '57', 'X-Nomad-LastContact': '12', 'X-Nomad-KnownLeader': 'true' },
      });

      // Act
      const result = await fake.client.allocations().info('a1', { index: 42, waitMs: 1500 });

      // Assert
      expect(fake.nomad.requests[0]?.query.get('index')).toBe('42');
      expect(fake.nomad.requests[0]?.query.get('wait')).toBe('1500ms');
      expect(result).toMatchObject({ index: 57, lastContact: 12, knownLeader: true });
    });

    it.each([
      { name: 'missing', headers: {} },
      { name: 'unparsable', headers: { 'X-Nomad-Index': 'abc', 'X-Nomad-LastContact': '-1' } },
    ])('reads a $name index as 0', async ({ headers }) => {
      // Arrange
      fake.nomad.enqueue({ body: allocJson(), headers });

      // Act
      const result = await fake.client.allocations().info('a1');

      // Assert
      expect(result).toMatchObject({ index: 0, lastContact: 0, knownLeader: false });
    });

    it('sends neither index nor wait on a plain read', async () => {
      // Arrange
      fake.nomad.enqueue({ body: jobJson() });

      // Act
      await fake.client.jobs().info('web');

      // Assert
      expect(fake.nomad.requests[0]?.url).toBe('/v1/job/web');
    });
  });

  describe('scope', () => {
    it('sends the client namespace and region on every call', async () => {
      // Arrange
      const scoped = NomadClient.create({ address: fake.nomad.address, namespace: 'prod', region: 'eu' });
      fake.nomad.enqueue({ body: jobJson() }, { body: {} });

      // Act
      await scoped.jobs().info('web');
      await scoped.allocations().restart('a1', {});
      await scoped.close();

      // Assert
      for (const req of fake.nomad.requests) {
        expect(req.query.get('namespace')).toBe('prod');
        expect(req.query.get('region')).toBe('eu');
      }
    });

    it('lets a per-call namespace and region beat the client ones', async () => {
      // Arrange
      const scoped = NomadClient.create({ address: fake.nomad.address, namespace: 'prod', region: 'eu' });
      fake.nomad.enqueue({ body: jobJson() }, { body: {} });

      // Act
      await scoped.jobs().info('web', { namespace: 'dev', region: 'us' });
      await scoped.allocations().restart('a1', {}, { namespace: 'ops', region: 'ap' });
      await scoped.close();

      // Assert
      expect(fake.nomad.requests.map((r) => [r.query.get('namespace'), r.query.get('region')])).toEqual([
        ['dev', 'us'],
        ['ops', 'ap'],
      ]);
    });

    it('sends no namespace or region when none is configured', async () => {
      // Arrange
      fake.nomad.enqueue({ body: jobJson() });

      // Act
      await fake.client.jobs().info('web');

      // Assert
      expect(fake.nomad.requests[0]?.query.has('namespace')).toBe(false);
      expect(fake.nomad.requests[0]?.query.has('region')).toBe(false);
    });

    it('withNamespace scopes a new client and keeps the token', async () => {
      // Arrange
      fake.nomad.enqueue({ body: jobJson() });
      const prod = fake.client.withNamespace('prod');

      // Act
      await prod.jobs().info('web');

      // Assert
      expect(fake.nomad.requests[0]?.query.get('namespace')).toBe('prod');
      expect(fake.nomad.requests[0]?.headers['x-nomad-token']).toBe('secret-token-1234');
      expect(prod.config.namespace).toBe('prod');
      expect(fake.client.config.namespace).toBeUndefined();
    });
  });

  describe('headers', () => {
    it('sends the token only in X-Nomad-Token', async () => {
      // Arrange
      fake.nomad.enqueue({ body: jobJson() });

      // Act
      await fake.client.jobs().info('web');

      // Assert
      const req = fake.nomad.requests[0];
      expect(req?.headers['x-nomad-token']).toBe('secret-token-1234');
      expect(req?.url).not.toContain('secret-token-1234');
      expect(req?.headers.authorization).toBeUndefined();
    });

    it('sends basic auth from httpAuth', async () => {
      // Arrange
      const authed = NomadClient.create({
        address: fake.nomad.address,
        httpAuth: { username: 'ops', password: 'pw' },
      });
      fake.nomad.enqueue({ body: jobJson() });

      // Act
      await authed.jobs().info('web');
      await authed.close();

      // Assert
      expect(fake.nomad.requests[0]?.headers.authorization).toBe(
        `Basic ${Buffer.from('ops:pw').toString('base64')}`,
      );
    });

    it('asks for gzip and decodes a gzip answer', async () => {
      // Arrange
      fake.nomad.enqueue({ body: [allocJson()], gzip: true });

      // Act
      const result = await fake.client.jobs().allocations('web');

      // Assert
      expect(fake.nomad.requests[0]?.headers['accept-encoding']).toBe('gzip');
      expect(result.value[0]?.ID).toBe('8d1f4a6e-0000-4000-8000-000000000001');
    });

    it('decodes a gzip answer too large to inflate inline, off the main thread', async () => {
      // Arrange: random ids keep the compressed body above the 64 KiB inflated inline
      const ids = Array.from({ length: 6000 }, () => randomUUID());
      fake.nomad.enqueue({ body: ids.map((ID) => allocJson({ ID })), gzip: true });

      // Act
      const result = await fake.client.jobs().allocations('web');

      // Assert
      expect(result.value.map((alloc) => alloc.ID)).toEqual(ids);
    });
  });

  describe('jobs', () => {
    it.each([
      { jobId: 'a/b', path: '/v1/job/a%2Fb' },
      { jobId: 'with space', path: '/v1/job/with%20space' },
      { jobId: 'q?x#y', path: '/v1/job/q%3Fx%23y' },
    ])('escapes job ID $jobId in the path', async ({ jobId, path }) => {
      // Arrange
      fake.nomad.enqueue({ body: jobJson({ ID: jobId }) });

      // Act
      await fake.client.jobs().info(jobId);

      // Assert
      expect(fake.nomad.requests[0]?.path).toBe(path);
    });

    it('lists by prefix with per_page', async () => {
      // Arrange
      fake.nomad.enqueue({ body: [{ ID: 'web', Type: 'service', JobSummary: { Namespace: 'prod' } }] });

      // Act
      const result = await fake.client.jobs().list({ prefix: 'we', perPage: 20 });

      // Assert
      expect(fake.nomad.requests[0]?.path).toBe('/v1/jobs');
      expect(fake.nomad.requests[0]?.query.get('prefix')).toBe('we');
      expect(fake.nomad.requests[0]?.query.get('per_page')).toBe('20');
      expect(result.value[0]?.JobSummary?.Namespace).toBe('prod');
    });

    it('decodes a list stub without JobSummary as undefined', async () => {
      // Arrange
      fake.nomad.enqueue({ body: [{ ID: 'a' }, { ID: 'b', JobSummary: null }] });

      // Act
      const result = await fake.client.jobs().list({ prefix: '' });

      // Assert
      expect(result.value.map((j) => j.JobSummary)).toEqual([undefined, undefined]);
      expect(fake.nomad.requests[0]?.url).toBe('/v1/jobs');
    });

    it('decodes a job missing Type without throwing', async () => {
      // Arrange
      const { Type: _omitted, ...job } = jobJson();
      fake.nomad.enqueue({ body: job });

      // Act
      const result = await fake.client.jobs().info('web');

      // Assert
      expect(result.value.ID).toBe('web');
      expect(result.value.Type).toBeUndefined();
    });

    it('requests versions with diffs=false and returns Versions', async () => {
      // Arrange
      fake.nomad.enqueue({
        body: { Versions: [jobJson({ Version: 2 }), jobJson({ Version: 1 })], Diffs: null },
      });

      // Act
      const result = await fake.client.jobs().versions('web');

      // Assert
      expect(fake.nomad.requests[0]?.url).toBe('/v1/job/web/versions?diffs=false');
      expect(result.value.map((j) => j.Version)).toEqual([2, 1]);
    });

    it.each([
      { call: 'allocations', url: '/v1/job/web/allocations?all=true', body: [allocJson()] },
      {
        call: 'deployments',
        url: '/v1/job/web/deployments?all=true',
        body: [{ ID: 'd1', JobID: 'web', Status: 'running' }],
      },
      { call: 'evaluations', url: '/v1/job/web/evaluations', body: [evalJson()] },
      {
        call: 'summary',
        url: '/v1/job/web/summary',
        body: { JobID: 'web', Summary: { api: { Running: 2 } } },
      },
    ] as const)('calls $url for $call', async ({ call, url, body }) => {
      // Arrange
      fake.nomad.enqueue({ body });

      // Act
      const result = await fake.client.jobs()[call]('web');

      // Assert
      expect(fake.nomad.requests[0]?.method).toBe('GET');
      expect(fake.nomad.requests[0]?.url).toBe(url);
      expect(result.value).toEqual(body);
    });
  });

  describe('allocations', () => {
    it('lists allocations by filter without task states, in the namespace asked for', async () => {
      // Arrange
      fake.nomad.enqueue({ body: [allocJson({ TaskStates: null })], headers: { 'X-Nomad-Index': '90' } });

      // Act
      const result = await fake.client
        .allocations()
        .list({ filter: 'JobID == "web"', taskStates: false }, { namespace: 'prod', index: 80 });

      // Assert
      const sent = fake.nomad.requests[0];
      expect(sent?.path).toBe('/v1/allocations');
      expect(sent?.query.get('filter')).toBe('JobID == "web"');
      expect(sent?.query.get('task_states')).toBe('false');
      expect(sent?.query.get('namespace')).toBe('prod');
      expect(sent?.query.get('index')).toBe('80');
      expect(result.index).toBe(90);
      expect(result.value.map((stub) => [stub.JobID, stub.TaskStates])).toEqual([['web', undefined]]);
    });

    it('decodes an allocation missing Job, Job.Type and TaskStates', async () => {
      // Arrange
      const { Type: _t, ...jobWithoutType } = jobJson();
      fake.nomad.enqueue(
        { body: allocJson({ TaskStates: null, Job: null }) },
        { body: allocJson({ Job: jobWithoutType }) },
      );

      // Act
      const withoutJob = await fake.client.allocations().info('a1');
      const withoutType = await fake.client.allocations().info('a1');

      // Assert
      expect(withoutJob.value.Job).toBeUndefined();
      expect(withoutJob.value.TaskStates).toBeUndefined();
      expect(withoutType.value.Job?.ID).toBe('web');
      expect(withoutType.value.Job?.Type).toBeUndefined();
    });

    it("reads an allocation's Nomad service checks in the agent's shape, null as none", async () => {
      // Arrange: what a dev agent answered (`command/agent/alloc_endpoint.go` `allocChecks`), then its
      // answer for a failed allocation.
      const id = 'bec97b7ccb93b2cb2b9d547c1b83a28fe3271a77eaa098e4c4c08ac1dc8d9e12';
      const traced = {
        [id]: {
          Check: 'alive',
          Group: 'checked.web[1]',
          ID: id,
          Mode: 'healthiness',
          Output: 'nomad: http ok',
          Service: 'checked-web',
          Status: 'success',
          StatusCode: 200,
          Timestamp: 1795490422,
        },
      };
      fake.nomad.enqueue({ body: traced }, { body: null });

      // Act
      const checks = await fake.client.allocations().checks('a1');
      const failed = await fake.client.allocations().checks('a1');

      // Assert
      expect(fake.nomad.requests[0]?.url).toBe('/v1/client/allocation/a1/checks');
      expect(checks.value).toEqual(traced);
      expect(failed.value).toEqual({});
    });

    it('refuses a check result without a Timestamp, naming the field', async () => {
      // Arrange
      fake.nomad.enqueue({ body: { c1: { Check: 'alive', Status: 'success', Timestamp: '1795490422' } } });

      // Act
      const read = fake.client.allocations().checks('a1');

      // Assert
      await expect(read).rejects.toThrow(
        'Error decoding response of GET /v1/client/allocation/a1/checks: c1.Timestamp: expected number, got string',
      );
    });
  });

  describe('evaluations and nodes', () => {
    it('reads an evaluation, the node list and a node', async () => {
      // Arrange
      fake.nomad.enqueue(
        {
          body: evalJson({
            FailedTGAllocs: { api: { NodesEvaluated: 3, DimensionExhausted: { memory: 3 } } },
          }),
        },
        { body: [{ ID: 'n1', Status: 'ready' }] },
        { body: { ID: 'n1', Status: 'down', Drain: false } },
      );

      // Act
      const evaluation = await fake.client.evaluations().info('e1');
      const nodes = await fake.client.nodes().list();
      const node = await fake.client.nodes().info('n1');

      // Assert
      expect(fake.nomad.requests.map((r) => r.url)).toEqual([
        '/v1/evaluation/e1',
        '/v1/nodes',
        '/v1/node/n1',
      ]);
      expect(evaluation.value.FailedTGAllocs?.['api']?.NodesEvaluated).toBe(3);
      expect(nodes.value[0]?.Status).toBe('ready');
      expect(node.value.Status).toBe('down');
    });
  });
});
