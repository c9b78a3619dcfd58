// Scenario: bad configuration is refused by NomadClient.create with Nomad's
// `Error initializing client: <reason>` before any request is made.
import { join } from 'node:path';
import {
  NomadClient,
  type NomadClientConfig,
  NomadClientInitError,
  resolveNomadConfig,
} from '../../lib/nomad';
import { FakeNomad } from './helpers/fake-nomad';

const TLS = join(import.meta.dirname, '..', 'fixtures', 'tls');

/** One refused TLS set-up: the files given and Nomad's reason after `Error initializing client: `. */
function refusal(name: string, tls: NonNullable<NomadClientConfig['tls']>, reason: string) {
  return { name, tls, reason };
}

describe('NomadClient.create', () => {
  let nomad: FakeNomad;

  beforeEach(async () => {
    nomad = await FakeNomad.start();
  });

  afterEach(async () => {
    await nomad.stop();
  });

  function init(config: NomadClientConfig): unknown {
    try {
      NomadClient.create(config);
    } catch (err) {
      return err;
    }
    throw new Error('expected NomadClient.create to throw');
  }

  describe('address', () => {
    it.each([
      { address: 'nope', reason: "invalid address 'nope': expected http://host:port or https://host:port" },
      {
        address: 'ht!tp://x',
        reason: "invalid address 'ht!tp://x': expected http://host:port or https://host:port",
      },
      {
        address: '127.0.0.1:4646',
        reason: "invalid address '127.0.0.1:4646': expected http://host:port or https://host:port",
      },
      {
        address: 'localhost:4646',
        reason: "invalid address 'localhost:4646': expected http://host:port or https://host:port",
      },
      {
        address: 'ftp://ops:pw@host',
        reason: "invalid address 'ftp://<redacted>@host': expected http://host:port or https://host:port",
      },
      {
        address: 'unix:///var/run/nomad.sock',
        reason:
          "invalid address 'unix:///var/run/nomad.sock': unix sockets are not supported, use http:// or https://",
      },
    ])('refuses $address', ({ address, reason }) => {
      // Arrange / Act
      const err = init({ address });

      // Assert
      expect(err).toBeInstanceOf(NomadClientInitError);
      expect((err as Error).message).toBe(`Error initializing client: ${reason}`);
      expect(nomad.requests).toHaveLength(0);
    });

    it.each(['http://127.0.0.1:4646', 'https://nomad.example:4646/ignored/path', 'http://[::1]:4646', ''])(
      'accepts %j',
      async (address) => {
        // Arrange / Act
        const client = NomadClient.create({ address });

        // Assert
        expect(client.config.address).toBe(address);
        await client.close();
      },
    );
  });

  describe('TLS files', () => {
    it.each([
      refusal(
        'a missing CA file',
        { caCert: '/nonexistent/ca.pem' },
        'Error loading CA File: open /nonexistent/ca.pem: no such file or directory',
      ),
      refusal(
        'a CA file without PEM',
        { caCert: join(TLS, 'README.md') },
        `Error loading CA File: Couldn't parse PEM in: ${join(TLS, 'README.md')}`,
      ),
      refusal(
        'a missing CA path',
        { caPath: '/nonexistent/ca.d' },
        'lstat /nonexistent/ca.d: no such file or directory',
      ),
      refusal(
        'a CA file that is a directory',
        { caCert: TLS },
        `Error loading CA File: read ${TLS}: is a directory`,
      ),
      refusal(
        'a CA path with a file that is no certificate',
        { caPath: TLS },
        `Error loading CA Path: Couldn't parse PEM in: ${join(TLS, 'README.md')}`,
      ),
      refusal(
        'a client cert without key',
        { clientCert: join(TLS, 'client.pem') },
        'Both client cert and client key must be provided',
      ),
      refusal(
        'an unreadable client key',
        { clientCert: join(TLS, 'client.pem'), clientKey: '/nonexistent/key.pem' },
        'open /nonexistent/key.pem: no such file or directory',
      ),
    ])("refuses $name with Nomad's words", ({ tls, reason }) => {
      // Arrange / Act
      const err = init({ address: nomad.address, tls });

      // Assert
      expect((err as Error).message).toBe(`Error initializing client: ${reason}`);
      expect(nomad.requests).toHaveLength(0);
    });

    it.each([
      {
        name: 'a CA file, which wins over a CA path (not read at all)',
        tls: { caCert: join(TLS, 'ca.pem'), caPath: '/nonexistent' },
      },
      { name: 'a CA path that is one certificate file', tls: { caPath: join(TLS, 'ca.pem') } },
    ])('accepts $name, as go-rootcerts does', async ({ tls }) => {
      // Act
      const client = NomadClient.create({ address: nomad.address, tls });

      // Assert
      expect(client.config.tls).toEqual(tls);
      await client.close();
    });

    it('refuses a client key that does not match its certificate', () => {
      // Arrange / Act
      const err = init({
        address: nomad.address,
        tls: { clientCert: join(TLS, 'client.pem'), clientKey: join(TLS, 'server-key.pem') },
      });

      // Assert
      expect((err as Error).message).toMatch(
        /^Error initializing client: invalid TLS configuration: .*key values mismatch/,
      );
      expect(nomad.requests).toHaveLength(0);
    });
  });

  describe('NOMAD_HTTP_AUTH', () => {
    it.each([
      {
        name: 'an empty user',
        value: ':hunter2',
        reason: 'invalid NOMAD_HTTP_AUTH: expected "user:pass" or "user" with a non-empty user',
      },
      {
        name: 'a control character',
        value: 'ops:hun\nter2',
        reason: 'invalid NOMAD_HTTP_AUTH: control characters are not allowed',
      },
    ])('refuses $name without quoting the password', ({ value, reason }) => {
      // Arrange
      const config = resolveNomadConfig({ address: nomad.address }, { NOMAD_HTTP_AUTH: value });

      // Act
      const err = init(config);

      // Assert
      expect((err as Error).message).toBe(`Error initializing client: ${reason}`);
      expect((err as Error).message).not.toContain('hun');
      expect(nomad.requests).toHaveLength(0);
    });
  });

  it('refuses a token with a line break without quoting it', () => {
    // Arrange / Act
    const err = init({ address: nomad.address, token: 'abc\r\nX-Evil: 1' });

    // Assert
    expect((err as Error).message).toBe(
      'Error initializing client: invalid ACL token: it contains a control character',
    );
  });
});
