/**
 * The Nomad client a handler gets: in a local run, every handler's middleware hands out the one
 * client built from the run's configuration (one keep-alive pool for the whole run); on Lambda
 * each function's middleware keeps its own.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import { nomadClientMiddleware, nomadClientOf } from '../../../lambdas/private/nomad-client-middleware';
import type { NomadClient, NomadClientConfig } from '../../../lib/nomad';
import { withLocalInvocation } from '../../../lib/steps/kit/local-invocation';
import { ENV } from '../../../lib/stores/from-env';
import { lambdaContext } from '../helpers/fixtures';

/** The client one handler's chain attaches for an invocation on `context`. */
async function clientFor(
  middleware: ReturnType<typeof nomadClientMiddleware>,
  context: Context,
): Promise<NomadClient> {
  const request = { event: {}, context, response: undefined, error: undefined, internal: {} };
  await middleware.before?.(request as unknown as Request<unknown, unknown, Error, Context>);
  return nomadClientOf(context);
}

/** A context as the local engine hands it, carrying the run's Nomad configuration. */
const localContext = (nomad: NomadClientConfig): Context =>
  withLocalInvocation(lambdaContext(), { liveEvents: () => {}, nomad });

describe('nomadClientMiddleware', () => {
  it("hands every handler of a local run the same client, built from the run's configuration", async () => {
    // Arrange: two handlers (Lock job, Restart batch), each with its own chain
    const config: NomadClientConfig = { address: 'http://127.0.0.1:4646', token: 'run-token' };
    const lockJob = nomadClientMiddleware();
    const restartBatch = nomadClientMiddleware();

    // Act
    const first = await clientFor(lockJob, localContext(config));
    const second = await clientFor(restartBatch, localContext(config));

    // Assert
    expect(second).toBe(first);
    expect(first.config.address).toBe('http://127.0.0.1:4646');
  });

  it('builds another client for another configuration, and again when the same one changes', async () => {
    // Arrange
    const config: NomadClientConfig = { address: 'http://127.0.0.1:4646', token: 'run-token' };
    const other: NomadClientConfig = { address: 'http://127.0.0.1:5646', token: 'run-token' };
    const middleware = nomadClientMiddleware();
    const first = await clientFor(middleware, localContext(config));

    // Act
    const forOther = await clientFor(nomadClientMiddleware(), localContext(other));
    config.token = 'another-token';
    const afterChange = await clientFor(nomadClientMiddleware(), localContext(config));

    // Assert
    expect(forOther).not.toBe(first);
    expect(forOther.config.address).toBe('http://127.0.0.1:5646');
    expect(afterChange).not.toBe(first);
  });

  it('never shares a client made by a createClient of its own', async () => {
    // Arrange
    const config: NomadClientConfig = { address: 'http://127.0.0.1:4646' };
    const made: NomadClientConfig[] = [];
    const { NomadClient } = await import('../../../lib/nomad');
    const createClient = (given: NomadClientConfig) => {
      made.push(given);
      return NomadClient.create(given);
    };

    // Act
    const shared = await clientFor(nomadClientMiddleware(), localContext(config));
    const own = await clientFor(nomadClientMiddleware({ createClient }), localContext(config));

    // Assert
    expect(own).not.toBe(shared);
    expect(made).toHaveLength(1);
  });

  it("keeps one client per handler on Lambda, from the function's NOMAD_* variables", async () => {
    // Arrange: no local invocation, as on Lambda
    const env = { NOMAD_ADDR: 'http://nomad.internal:4646' };
    const lockJob = nomadClientMiddleware({ env });
    const restartBatch = nomadClientMiddleware({ env });

    // Act
    const first = await clientFor(lockJob, lambdaContext());
    const again = await clientFor(lockJob, lambdaContext());
    const other = await clientFor(restartBatch, lambdaContext());

    // Assert
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(first.config.address).toBe('http://nomad.internal:4646');
  });

  it("writes a TLS secret's PEMs to private files on Lambda and hands the client their paths", async () => {
    // Arrange
    const pemDirectory = await mkdtemp(join(tmpdir(), 'nomad-client-middleware-'));
    const tlsArn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:nomad-tls';
    const secret = JSON.stringify({ caCert: 'CA PEM', clientCert: 'CERT PEM', clientKey: 'KEY PEM' });
    const made: NomadClientConfig[] = [];
    const { NomadClient } = await import('../../../lib/nomad');
    const middleware = nomadClientMiddleware({
      env: { NOMAD_ADDR: 'https://nomad.internal:4646', [ENV.nomadTlsSecretArn]: tlsArn },
      secrets: { get: async (name) => (name === tlsArn ? secret : undefined) },
      pemDirectory,
      createClient: (config) => {
        made.push(config);
        return NomadClient.create({ address: 'http://127.0.0.1:4646' });
      },
    });

    try {
      // Act
      await clientFor(middleware, lambdaContext());

      // Assert
      const tls = made[0]?.tls;
      expect(tls?.caCert).toBe(join(pemDirectory, 'ca.pem'));
      expect(await readFile(join(pemDirectory, 'client-key.pem'), 'utf8')).toBe('KEY PEM');
      expect((await stat(join(pemDirectory, 'client-key.pem'))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(pemDirectory, { recursive: true, force: true });
    }
  });
});
