// Scenario: the Consul settings read from CONSUL_* variables and our two flags, as Consul's own CLI
// reads them (api/api.go defaultConfig and NewClient), with every bad input refused in its words.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsulConfigError, consulConfigFromEnv } from '../../lib/consul';

const dir = mkdtempSync(join(tmpdir(), 'consul-config-'));
const tokenFile = join(dir, 'token');
writeFileSync(tokenFile, '  file-token\n');
const blankFile = join(dir, 'blank');
writeFileSync(blankFile, '\n');

describe('consulConfigFromEnv', () => {
  describe('address', () => {
    it.each([
      { name: 'the default', env: {}, flags: {}, expected: 'http://127.0.0.1:8500' },
      {
        name: 'host:port',
        env: { CONSUL_HTTP_ADDR: 'consul.internal:8500' },
        flags: {},
        expected: 'http://consul.internal:8500',
      },
      {
        name: 'an https:// address',
        env: { CONSUL_HTTP_ADDR: 'https://c:8501' },
        flags: {},
        expected: 'https://c:8501',
      },
      {
        name: 'CONSUL_HTTP_SSL=true',
        env: { CONSUL_HTTP_ADDR: 'c:8501', CONSUL_HTTP_SSL: 'true' },
        flags: {},
        expected: 'https://c:8501',
      },
      {
        name: 'http:// never undoing CONSUL_HTTP_SSL=true',
        env: { CONSUL_HTTP_ADDR: 'http://c:8501', CONSUL_HTTP_SSL: '1' },
        flags: {},
        expected: 'https://c:8501',
      },
      {
        name: 'a path prefix',
        env: { CONSUL_HTTP_ADDR: 'http://proxy:80/consul/' },
        flags: {},
        expected: 'http://proxy/consul',
      },
      {
        name: 'an IPv6 address',
        env: { CONSUL_HTTP_ADDR: '[::1]:8500' },
        flags: {},
        expected: 'http://[::1]:8500',
      },
      {
        name: 'the flag over the variable',
        env: { CONSUL_HTTP_ADDR: 'env:8500' },
        flags: { address: 'http://flag:8500' },
        expected: 'http://flag:8500',
      },
      {
        name: 'an empty flag as not given',
        env: { CONSUL_HTTP_ADDR: 'env:8500' },
        flags: { address: '' },
        expected: 'http://env:8500',
      },
    ])('reads $name', ({ env, flags, expected }) => {
      // Act
      const config = consulConfigFromEnv(env, flags);

      // Assert
      expect(config.address).toBe(expected);
    });
  });

  describe('token', () => {
    it.each([
      { name: 'no token', env: {}, flags: {}, expected: undefined },
      {
        name: 'CONSUL_HTTP_TOKEN',
        env: { CONSUL_HTTP_TOKEN: 'env-token' },
        flags: {},
        expected: 'env-token',
      },
      {
        name: 'the token file over the variable, trimmed (Consul reads the file last)',
        env: { CONSUL_HTTP_TOKEN: 'env-token', CONSUL_HTTP_TOKEN_FILE: tokenFile },
        flags: {},
        expected: 'file-token',
      },
      {
        name: 'the variable when the token file is blank',
        env: { CONSUL_HTTP_TOKEN: 'env-token', CONSUL_HTTP_TOKEN_FILE: blankFile },
        flags: {},
        expected: 'env-token',
      },
      {
        name: '-consul-token over both',
        env: { CONSUL_HTTP_TOKEN: 'env-token', CONSUL_HTTP_TOKEN_FILE: tokenFile },
        flags: { token: 'flag-token' },
        expected: 'flag-token',
      },
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
    {
      name: 'an unknown scheme',
      env: { CONSUL_HTTP_ADDR: 'ftp://c:8500' },
      flags: {},
      expectedErr: 'Error connecting to Consul agent: Unknown protocol scheme: ftp',
    },
    {
      name: 'a unix socket',
      env: { CONSUL_HTTP_ADDR: 'unix:///run/consul.sock' },
      flags: {},
      expectedErr:
        "Error connecting to Consul agent: unix sockets are not supported (CONSUL_HTTP_ADDR 'unix:///run/consul.sock'): use host:port or https://host:port",
    },
    {
      name: 'a port that is not a number',
      env: { CONSUL_HTTP_ADDR: '127.0.0.1:abc' },
      flags: {},
      expectedErr:
        "Error connecting to Consul agent: invalid address '127.0.0.1:abc' (CONSUL_HTTP_ADDR): expected host:port, http://host:port or https://host:port",
    },
    {
      name: 'a port out of range, from the flag',
      env: {},
      flags: { address: 'http://c:99999' },
      expectedErr:
        "Error connecting to Consul agent: invalid address 'http://c:99999' (-consul-address): expected host:port, http://host:port or https://host:port",
    },
    {
      name: 'credentials in the address',
      env: { CONSUL_HTTP_ADDR: 'http://user@c:8500' },
      flags: {},
      expectedErr:
        "Error connecting to Consul agent: invalid address 'http://user@c:8500' (CONSUL_HTTP_ADDR): expected host:port, http://host:port or https://host:port",
    },
    {
      name: 'a missing token file',
      env: { CONSUL_HTTP_TOKEN_FILE: join(dir, 'missing') },
      flags: {},
      expectedErr: `Error connecting to Consul agent: Error loading token file ${join(dir, 'missing')} : open ${join(dir, 'missing')}: no such file or directory`,
    },
    {
      name: 'a token file that is a directory',
      env: { CONSUL_HTTP_TOKEN_FILE: dir },
      flags: {},
      expectedErr: `Error connecting to Consul agent: Error loading token file ${dir} : read ${dir}: is a directory`,
    },
    {
      name: 'CONSUL_HTTP_SSL that is not a boolean',
      env: { CONSUL_HTTP_SSL: 'yes' },
      flags: {},
      expectedErr:
        'Error connecting to Consul agent: could not parse CONSUL_HTTP_SSL: strconv.ParseBool: parsing "yes": invalid syntax',
    },
    {
      name: 'CONSUL_HTTP_SSL_VERIFY that is not a boolean (Consul would stop verifying)',
      env: { CONSUL_HTTP_SSL_VERIFY: 'no' },
      flags: {},
      expectedErr:
        'Error connecting to Consul agent: could not parse CONSUL_HTTP_SSL_VERIFY: strconv.ParseBool: parsing "no": invalid syntax',
    },
    {
      name: 'a token with a line break',
      env: { CONSUL_HTTP_TOKEN: 'abc\ndef' },
      flags: {},
      expectedErr:
        'Error connecting to Consul agent: invalid token (CONSUL_HTTP_TOKEN): it contains a control character',
    },
  ])('fails on $name', ({ env, flags, expectedErr }) => {
    // Act / Assert
    expect(() => consulConfigFromEnv(env, flags)).toThrow(ConsulConfigError);
    expect(() => consulConfigFromEnv(env, flags)).toThrow(expectedErr);
  });
});
