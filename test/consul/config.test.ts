// Scenario: the Consul settings read from CONSUL_* variables and our two flags, as Consul's own CLI
// reads them (api/api.go defaultConfig and NewClient), with every bad input refused in its words.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsulConfigError, type ConsulConfigFlags, consulConfigFromEnv } from '../../lib/consul';

const dir = mkdtempSync(join(tmpdir(), 'consul-config-'));
const tokenFile = join(dir, 'token');
writeFileSync(tokenFile, '  file-token\n');
const blankFile = join(dir, 'blank');
writeFileSync(blankFile, '\n');

/**
 * One table row: the variables and our flags Consul's CLI would be given, and what it makes of
 * them (the value read, or the error's words).
 */
function row<T>(name: string, env: Record<string, string>, expected: T, flags: ConsulConfigFlags = {}) {
  return { name, env, flags, expected };
}

describe('consulConfigFromEnv', () => {
  describe('address', () => {
    it.each([
      row('the default', {}, 'http://127.0.0.1:8500'),
      row('host:port', { CONSUL_HTTP_ADDR: 'consul.internal:8500' }, 'http://consul.internal:8500'),
      row('an https:// address', { CONSUL_HTTP_ADDR: 'https://c:8501' }, 'https://c:8501'),
      row('CONSUL_HTTP_SSL=true', { CONSUL_HTTP_ADDR: 'c:8501', CONSUL_HTTP_SSL: 'true' }, 'https://c:8501'),
      row(
        'http:// never undoing CONSUL_HTTP_SSL=true',
        { CONSUL_HTTP_ADDR: 'http://c:8501', CONSUL_HTTP_SSL: '1' },
        'https://c:8501',
      ),
      row('a path prefix', { CONSUL_HTTP_ADDR: 'http://proxy:80/consul/' }, 'http://proxy/consul'),
      row('an IPv6 address', { CONSUL_HTTP_ADDR: '[::1]:8500' }, 'http://[::1]:8500'),
      row('the flag over the variable', { CONSUL_HTTP_ADDR: 'env:8500' }, 'http://flag:8500', {
        address: 'http://flag:8500',
      }),
      row('an empty flag as not given', { CONSUL_HTTP_ADDR: 'env:8500' }, 'http://env:8500', { address: '' }),
    ])('reads $name', ({ env, flags, expected }) => {
      // Act
      const config = consulConfigFromEnv(env, flags);

      // Assert
      expect(config.address).toBe(expected);
    });
  });

  describe('token', () => {
    it.each([
      row('no token', {}, undefined),
      row('CONSUL_HTTP_TOKEN', { CONSUL_HTTP_TOKEN: 'env-token' }, 'env-token'),
      row(
        'the token file over the variable, trimmed (Consul reads the file last)',
        { CONSUL_HTTP_TOKEN: 'env-token', CONSUL_HTTP_TOKEN_FILE: tokenFile },
        'file-token',
      ),
      row(
        'the variable when the token file is blank',
        { CONSUL_HTTP_TOKEN: 'env-token', CONSUL_HTTP_TOKEN_FILE: blankFile },
        'env-token',
      ),
      row(
        '-consul-token over both',
        { CONSUL_HTTP_TOKEN: 'env-token', CONSUL_HTTP_TOKEN_FILE: tokenFile },
        'flag-token',
        { token: 'flag-token' },
      ),
    ])('reads $name', ({ env, flags, expected }) => {
      // Act
      const config = consulConfigFromEnv(env, flags);

      // Assert
      expect(config.token).toBe(expected);
    });
  });

  it('reads the TLS variables, dropping the port of the server name', () => {
    // Arrange
    const env = {
      CONSUL_HTTP_ADDR: 'https://c:8501',
      CONSUL_CACERT: '/ca.pem',
      CONSUL_CAPATH: '/ca',
      CONSUL_CLIENT_CERT: '/cert.pem',
      CONSUL_CLIENT_KEY: '/key.pem',
      CONSUL_TLS_SERVER_NAME: 'server.dc1.consul:8501',
      CONSUL_HTTP_SSL_VERIFY: 'false',
    };

    // Act
    const config = consulConfigFromEnv(env);

    // Assert
    expect(config.tls).toEqual({
      caCert: '/ca.pem',
      caPath: '/ca',
      clientCert: '/cert.pem',
      clientKey: '/key.pem',
      serverName: 'server.dc1.consul',
      insecure: true,
    });
  });

  it.each([
    row(
      'an unknown scheme',
      { CONSUL_HTTP_ADDR: 'ftp://c:8500' },
      'Error connecting to Consul agent: Unknown protocol scheme: ftp',
    ),
    row(
      'a unix socket',
      { CONSUL_HTTP_ADDR: 'unix:///run/consul.sock' },
      "Error connecting to Consul agent: unix sockets are not supported (CONSUL_HTTP_ADDR 'unix:///run/consul.sock'): use host:port or https://host:port",
    ),
    row(
      'a port that is not a number',
      { CONSUL_HTTP_ADDR: '127.0.0.1:abc' },
      "Error connecting to Consul agent: invalid address '127.0.0.1:abc' (CONSUL_HTTP_ADDR): expected host:port, http://host:port or https://host:port",
    ),
    row(
      'a port out of range, from the flag',
      {},
      "Error connecting to Consul agent: invalid address 'http://c:99999' (-consul-address): expected host:port, http://host:port or https://host:port",
      { address: 'http://c:99999' },
    ),
    row(
      'credentials in the address',
      { CONSUL_HTTP_ADDR: 'http://user@c:8500' },
      "Error connecting to Consul agent: invalid address 'http://user@c:8500' (CONSUL_HTTP_ADDR): expected host:port, http://host:port or https://host:port",
    ),
    row(
      'a missing token file',
      { CONSUL_HTTP_TOKEN_FILE: join(dir, 'missing') },
      `Error connecting to Consul agent: Error loading token file ${join(dir, 'missing')} : open ${join(dir, 'missing')}: no such file or directory`,
    ),
    row(
      'a token file that is a directory',
      { CONSUL_HTTP_TOKEN_FILE: dir },
      `Error connecting to Consul agent: Error loading token file ${dir} : read ${dir}: is a directory`,
    ),
    row(
      'CONSUL_HTTP_SSL that is not a boolean',
      { CONSUL_HTTP_SSL: 'yes' },
      'Error connecting to Consul agent: could not parse CONSUL_HTTP_SSL: strconv.ParseBool: parsing "yes": invalid syntax',
    ),
    row(
      'CONSUL_HTTP_SSL_VERIFY that is not a boolean (Consul would stop verifying)',
      { CONSUL_HTTP_SSL_VERIFY: 'no' },
      'Error connecting to Consul agent: could not parse CONSUL_HTTP_SSL_VERIFY: strconv.ParseBool: parsing "no": invalid syntax',
    ),
    row(
      'a token with a line break',
      { CONSUL_HTTP_TOKEN: 'abc\ndef' },
      'Error connecting to Consul agent: invalid token (CONSUL_HTTP_TOKEN): it contains a control character',
    ),
  ])('fails on $name', ({ env, flags, expected: expectedErr }) => {
    // Act / Assert
    expect(() => consulConfigFromEnv(env, flags)).toThrow(ConsulConfigError);
    expect(() => consulConfigFromEnv(env, flags)).toThrow(expectedErr);
  });
});
