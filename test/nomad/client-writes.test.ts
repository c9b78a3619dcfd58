// Scenario: writes against a stand-in Nomad on 127.0.0.1: exact bodies and parameters of
// evaluate, restart, stop and register, and the rule that a write reaching Nomad is never
// sent twice.
import { NomadClient, NomadConnectionError, UnexpectedResponseError } from '../../lib/nomad';
import { fakeNomadPerTest, refusedAddress } from './helpers/fake-nomad';

describe('NomadClient writes', () => {
  const fake = fakeNomadPerTest({
    token: 'secret-token-1234',
    retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 2 },
  });

  describe('Jobs.evaluate', () => {
    it('sends exactly the body Nomad CLI sends and reads the index', async () => {
      // Arrange
      fake.nomad.enqueue({
        body: { EvalID: 'e9', EvalCreateIndex: 70, JobModifyIndex: 5 },
        headers: { 'X-Nomad-Index': '70' },
      });

      // Act
      const result = await fake.client.jobs().evaluate('a/b', { forceReschedule: true });

      // Assert
      const req = fake.nomad.requests[0];
      expect(req?.method).toBe('PUT');
      expect(req?.path).toBe('/v1/job/a%2Fb/evaluate');
      expect(req?.body).toBe(
        '{"JobID":"a/b","EvalOptions":{"ForceReschedule":true},"Region":"","Namespace":"","SecretID":""}',
      );
      expect(result).toEqual({ value: { EvalID: 'e9', EvalCreateIndex: 70, JobModifyIndex: 5 }, index: 70 });
    });
  });

  describe('Allocations.restart', () => {
    it.each([
      { name: 'running tasks', opts: {}, body: '{"TaskName":"","AllTasks":false}' },
      { name: 'all tasks', opts: { allTasks: true }, body: '{"TaskName":"","AllTasks":true}' },
      { name: 'one task', opts: { taskName: 'server' }, body: '{"TaskName":"server","AllTasks":false}' },
    ])('sends the $name body', async ({ opts, body }) => {
      // Arrange
      fake.nomad.enqueue({ body: { Index: 0 } });

      // Act
      await fake.client.allocations().restart('a1', opts);

      // Assert
      expect(fake.nomad.requests[0]?.method).toBe('PUT');
      expect(fake.nomad.requests[0]?.url).toBe('/v1/client/allocation/a1/restart');
      expect(fake.nomad.requests[0]?.body).toBe(body);
    });

    it('accepts an empty answer without an index header', async () => {
      // Arrange
      fake.nomad.enqueue({ body: '' });

      // Act
      const result = fake.client.allocations().restart('a1', {});

      // Assert
      await expect(result).resolves.toBeUndefined();
    });
  });

  describe('Allocations.stop', () => {
    it.each([
      {
        name: 'with no_shutdown_delay',
        opts: { noShutdownDelay: true },
        url: '/v1/allocation/a1/stop?no_shutdown_delay=true',
      },
      { name: 'without', opts: {}, url: '/v1/allocation/a1/stop' },
    ])('stops $name, without a body, and takes the index from X-Nomad-Index', async ({ opts, url }) => {
      // Arrange
      fake.nomad.enqueue({ body: { EvalID: 'e1', Index: 88 }, headers: { 'X-Nomad-Index': '88' } });

      // Act
      const result = await fake.client.allocations().stop('a1', opts);

      // Assert
      expect(fake.nomad.requests[0]?.method).toBe('PUT');
      expect(fake.nomad.requests[0]?.url).toBe(url);
      expect(fake.nomad.requests[0]?.body).toBe('');
      expect(result).toEqual({ value: { EvalID: 'e1', Index: 88 }, index: 88 });
    });

    it('fills a missing body Index from the header', async () => {
      // Arrange
      fake.nomad.enqueue({ body: { EvalID: 'e1' }, headers: { 'X-Nomad-Index': '91' } });

      // Act
      const result = await fake.client.allocations().stop('a1', {});

      // Assert
      expect(result.value.Index).toBe(91);
    });
  });

  describe('Jobs.register', () => {
    it('sends {"Job": job} to /v1/jobs', async () => {
      // Arrange
      const job = { ID: 'web', Type: 'service' };
      fake.nomad.enqueue({ body: { EvalID: 'e2', JobModifyIndex: 9 }, headers: { 'X-Nomad-Index': '9' } });

      // Act
      const result = await fake.client.jobs().register(job);

      // Assert
      expect(fake.nomad.requests[0]?.method).toBe('PUT');
      expect(fake.nomad.requests[0]?.url).toBe('/v1/jobs');
      expect(JSON.parse(fake.nomad.requests[0]?.body ?? '')).toEqual({ Job: job });
      expect(result.index).toBe(9);
    });
  });

  describe('no blind retries', () => {
    it.each([
      { name: 'restart', call: (c: NomadClient) => c.allocations().restart('a1', {}) },
      { name: 'stop', call: (c: NomadClient) => c.allocations().stop('a1', {}) },
      { name: 'evaluate', call: (c: NomadClient) => c.jobs().evaluate('web', { forceReschedule: true }) },
      { name: 'register', call: (c: NomadClient) => c.jobs().register({ ID: 'web' }) },
    ])('sends $name exactly once when Nomad answers 500', async ({ call }) => {
      // Arrange
      fake.nomad.setHandler(() => ({ status: 500, body: 'boom' }));

      // Act
      const result = call(fake.client);

      // Assert
      await expect(result).rejects.toThrow(new UnexpectedResponseError(500, 'boom'));
      expect(fake.nomad.requests).toHaveLength(1);
    });

    it.each([502, 503, 504])('sends a PUT exactly once on %i', async (status) => {
      // Arrange
      fake.nomad.setHandler(() => ({ status }));

      // Act
      const result = fake.client.allocations().restart('a1', {});

      // Assert
      await expect(result).rejects.toThrow(`Unexpected response code: ${status}`);
      expect(fake.nomad.requests).toHaveLength(1);
    });

    it('does not resend a PUT whose connection dropped after sending', async () => {
      // Arrange
      fake.nomad.setHandler(() => ({ destroy: true }));

      // Act
      const result = fake.client.allocations().restart('a1', {});

      // Assert
      await expect(result).rejects.toBeInstanceOf(NomadConnectionError);
      await expect(result).rejects.toMatchObject({ sentRequest: true });
      expect(fake.nomad.requests).toHaveLength(1);
    });

    it('reports a refused PUT as never sent, after using its attempts', async () => {
      // Arrange
      const refused = NomadClient.create({
        address: await refusedAddress(),
        retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
      });

      // Act
      const result = refused.allocations().restart('a1', {});

      // Assert
      await expect(result).rejects.toMatchObject({
        name: 'NomadConnectionError',
        sentRequest: false,
        code: 'ECONNREFUSED',
      });
      await refused.close();
    });
  });
});
