// Scenario: an HTTPS Nomad on 127.0.0.1 that requires a client certificate signed by the
// test CA (test/fixtures/tls, test-only keys): the client verifies the server with the CA
// file or directory, presents its certificate, honours the server name and skip-verify.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NomadClient, NomadTlsError, type TlsConfig } from '../../lib/nomad';
import { FakeNomad } from './helpers/fake-nomad';
import { jobJson } from './helpers/wire';

const TLS = join(import.meta.dirname, '..', 'fixtures', 'tls');
const CA = join(TLS, 'ca.pem');
const CLIENT = { clientCert: join(TLS, 'client.pem'), clientKey: join(TLS, 'client-key.pem') };

describe('NomadClient over TLS', () => {
  let nomad: FakeNomad;
  let caDir: string;

  beforeAll(() => {
    caDir = mkdtempSync(join(tmpdir(), 'nomad-ca-'));
    copyFileSync(CA, join(caDir, 'ca.pem'));
  });

  afterAll(() => {
    rmSync(caDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    nomad = await FakeNomad.start({
      cert: readFileSync(join(TLS, 'server.pem')),
      key: readFileSync(join(TLS, 'server-key.pem')),
      ca: readFileSync(CA),
      requestCert: true,
      rejectUnauthorized: true,
    });
    nomad.setHandler(() => ({ body: jobJson() }));
  });

  afterEach(async () => {
    await nomad.stop();
  });

  async function infoWith(tls: TlsConfig, address = nomad.address): Promise<unknown> {
    const client = NomadClient.create({ address, tls, retry: { attempts: 1 } });
    try {
      return (await client.jobs().info('web')).value;
    } catch (err) {
      return err;
    } finally {
      await client.close();
    }
  }

  it.each([
    { name: 'CA file', tls: { caCert: CA, ...CLIENT } },
    { name: 'CA directory', tls: { caPath: '<caDir>', ...CLIENT } },
    { name: 'skip-verify without CA', tls: { insecure: true, ...CLIENT } },
    { name: 'server name', tls: { caCert: CA, serverName: 'server.global.nomad', ...CLIENT } },
  ])('talks to a server that requires a client certificate, with $name', async ({ tls }) => {
    // Arrange
    const config: TlsConfig = 'caPath' in tls ? { ...tls, caPath: caDir } : tls;

    // Act
    const result = await infoWith(config);

    // Assert
    expect(result).toMatchObject({ ID: 'web' });
    expect(nomad.requests[0]?.clientCertCN).toBe('cli.global.nomad');
  });

  it.each([
    {
      name: 'the server is not trusted',
      tls: { ...CLIENT },
      reason: /self-signed certificate in certificate chain/,
    },
    {
      name: 'the server name does not match',
      tls: { caCert: CA, serverName: 'wrong.nomad', ...CLIENT },
      reason: /wrong\.nomad/,
    },
  ])('fails with NomadTlsError when $name', async ({ tls, reason }) => {
    // Arrange / Act
    const err = await infoWith(tls);

    // Assert
    expect(err).toBeInstanceOf(NomadTlsError);
    expect((err as Error).message).toMatch(reason);
    expect(nomad.requests).toHaveLength(0);
  });

  it('fails without a client certificate and reaches no handler', async () => {
    // Arrange / Act
    const err = await infoWith({ caCert: CA });

    // Assert
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toMatch(/^Nomad(Tls|Connection)Error$/);
    expect(nomad.requests).toHaveLength(0);
  });
});
