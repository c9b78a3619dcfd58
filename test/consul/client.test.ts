// Scenario: the Consul client against the simulator's Consul over real HTTP: a blocking read that
// wakes when a check's status changes, the token sent as X-Consul-Token and never shown, a refused
// token (403 ACL not found), a token that may not read the service (an empty answer flagged
// X-Consul-Results-Filtered-By-ACLs), a 500 retried, and an unreachable Consul named in the error.
import { inspect } from 'node:util';
import { ConsulClient, ConsulError, ConsulTokenRefusedError, ConsulUnreachableError } from '../../lib/consul';
import { type RunningSimulator, startSimulator } from '../../sim/index';
import { consulJob } from '../sim/helpers/consul-job';
import { nodes } from '../sim/helpers/fixtures';
import { manualClock } from '../sim/helpers/manual-clock';

const ACL = {
  enabled: true,
  tokens: [
    { secret: 'reader-secret', serviceRead: [''], nodeRead: [''] },
    { secret: 'no-service-read', nodeRead: [''] },
  ],
};

describe('ConsulClient', () => {
  let sim: RunningSimulator;
  const clock = manualClock();
  const clients: ConsulClient[] = [];
  const client = (token?: string): ConsulClient => {
    const created = ConsulClient.create({
      address: sim.consul.address,
      ...(token === undefined ? {} : { token }),
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    });
    clients.push(created);
    return created;
  };

  beforeAll(async () => {
    sim = await startSimulator({ clock });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sim.close();
  });
  beforeEach(() => {
    sim.control.reset();
    sim.consul.control.configureAcl(undefined);
    sim.consul.control.clearFaults();
    sim.consul.control.resetCounters();
    sim.control.seed({ nodes: nodes(1), jobs: [consulJob()] });
  });

  describe('serviceChecks', () => {
    it('holds a blocking read until a check changes status, then answers with the new index', async () => {
      // Arrange
      const consul = client();
      const first = await consul.serviceChecks('web');
      sim.consul.control.setCheck({ jobId: 'shop' }, 'alive', { status: 'critical' });

      // Act
      const held = consul.serviceChecks('web', { index: first.index, wait: '5s' });
      while (sim.control.state().heldQueries() === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      const answeredEarly = await Promise.race([held.then(() => true), Promise.resolve(false)]);
      clock.advance(2_000); // the check's next run
      const woken = await held;

      // Assert
      expect(answeredEarly).toBe(false);
      expect(first.checks[0]?.Status).toBe('passing');
      expect(woken.checks[0]?.Status).toBe('critical');
      expect(Number(woken.index)).toBeGreaterThan(Number(first.index));
      expect(sim.consul.control.requestLog().map((r) => r.query)).toEqual([
        '',
        `index=${first.index}&wait=5s`,
      ]);
    });

    it('sends the token as X-Consul-Token and never shows it', async () => {
      // Arrange
      sim.consul.control.configureAcl(ACL);
      const consul = client('reader-secret');

      // Act
      const answer = await consul.serviceChecks('api');

      // Assert
      expect(answer.checks).toHaveLength(1);
      expect(answer.filteredByAcls).toBe(false);
      expect(sim.consul.control.requestLog()[0]?.token).toBe('redacted');
      expect(JSON.stringify(consul)).not.toContain('reader-secret');
      expect(inspect(consul)).not.toContain('reader-secret');
    });

    it('fails with ConsulTokenRefusedError, without retrying, on a token Consul does not know', async () => {
      // Arrange
      sim.consul.control.configureAcl(ACL);
      const consul = client('unknown-secret');

      // Act
      const failure = consul.serviceChecks('web');

      // Assert
      await expect(failure).rejects.toThrow(ConsulTokenRefusedError);
      await expect(consul.serviceChecks('web')).rejects.toThrow(
        `Consul refused the Consul token (GET ${sim.consul.address}/v1/health/checks/web: Unexpected response code: 403 (ACL not found))`,
      );
      expect(sim.consul.control.counters()['GET /v1/health/checks/:service']).toBe(2);
    });

    it('flags an answer whose checks the token may not read', async () => {
      // Arrange
      sim.consul.control.configureAcl(ACL);

      // Act
      const answer = await client('no-service-read').serviceChecks('web');

      // Assert
      expect(answer.checks).toEqual([]);
      expect(answer.filteredByAcls).toBe(true);
    });

    it('gets an unflagged empty answer without a token, as Consul masks the flag from anonymous reads', async () => {
      // Arrange
      sim.consul.control.configureAcl(ACL);

      // Act
      const answer = await client().serviceChecks('web');

      // Assert
      expect(answer).toEqual({ checks: [], index: expect.stringMatching(/^\d+$/), filteredByAcls: false });
    });

    it('retries a 500 and fails with ConsulError once the attempts run out', async () => {
      // Arrange
      sim.consul.control.injectFault({ pathSuffix: '/web', nth: 1, status: 500, body: 'rpc error: EOF' });
      const consul = client();

      // Act
      const recovered = await consul.serviceChecks('web');
      sim.consul.control.injectFault({ pathSuffix: '/api', status: 500, body: 'No cluster leader' });
      const failure = consul.serviceChecks('api');

      // Assert
      expect(recovered.checks).toHaveLength(1);
      await expect(failure).rejects.toThrow(ConsulError);
      await expect(failure).rejects.toMatchObject({ statusCode: 500, body: 'No cluster leader' });
      expect(sim.consul.control.counters()['total']).toBe(5);
    });

    it('retries a connection reset', async () => {
      // Arrange
      sim.consul.control.injectFault({ kind: 'reset', pathSuffix: '/web', nth: 1 });

      // Act
      const recovered = await client().serviceChecks('web');

      // Assert
      expect(recovered.checks).toHaveLength(1);
      expect(sim.consul.control.requestLog().map((r) => r.status)).toEqual([0, 200]);
    });

    it('fails with ConsulUnreachableError naming the address when nothing listens', async () => {
      // Arrange
      const consul = ConsulClient.create({ address: 'http://127.0.0.1:1', retry: { attempts: 1 } });
      clients.push(consul);

      // Act
      const failure = consul.serviceChecks('web');

      // Assert
      await expect(failure).rejects.toThrow(ConsulUnreachableError);
      await expect(failure).rejects.toThrow(
        'Consul at http://127.0.0.1:1 is unreachable: Get "http://127.0.0.1:1/v1/health/checks/web": dial tcp 127.0.0.1:1: connect: connection refused',
      );
    });
  });
});
