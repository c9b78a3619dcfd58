import { DEFAULT_NOMAD_ADDRESS, parseHttpAuth, resolveNomadConfig } from '../../lib/nomad';

describe('resolveNomadConfig', () => {
  describe('precedence', () => {
    it.each([
      {
        name: 'flag beats env',
        flags: { address: 'http://flag:4646' },
        env: { NOMAD_ADDR: 'http://env:4646' },
        expected: 'http://flag:4646',
      },
      {
        name: 'env beats default',
        flags: {},
        env: { NOMAD_ADDR: 'http://env:4646' },
        expected: 'http://env:4646',
      },
      { name: 'default when neither', flags: {}, env: {}, expected: DEFAULT_NOMAD_ADDRESS },
      {
        name: 'empty flag counts as not given',
        flags: { address: '' },
        env: { NOMAD_ADDR: 'http://env:4646' },
        expected: 'http://env:4646',
      },
      {
        name: 'empty env counts as not given',
        flags: {},
        env: { NOMAD_ADDR: '' },
        expected: DEFAULT_NOMAD_ADDRESS,
      },
    ])('resolves the address: $name', ({ flags, env, expected }) => {
      // Arrange / Act
      const config = resolveNomadConfig(flags, env);

      // Assert
      expect(config.address).toBe(expected);
    });

    it('takes every general option from its flag over its variable', () => {
      // Arrange
      const env = {
        NOMAD_TOKEN: 'env-token',
        NOMAD_NAMESPACE: 'env-ns',
        NOMAD_REGION: 'env-region',
        NOMAD_CACERT: '/env/ca.pem',
        NOMAD_CAPATH: '/env/ca',
        NOMAD_CLIENT_CERT: '/env/cert.pem',
        NOMAD_CLIENT_KEY: '/env/key.pem',
        NOMAD_TLS_SERVER_NAME: 'env.nomad',
      };
      const flags = {
        token: 'flag-token',
        namespace: 'flag-ns',
        region: 'flag-region',
        caCert: '/flag/ca.pem',
        caPath: '/flag/ca',
        clientCert: '/flag/cert.pem',
        clientKey: '/flag/key.pem',
        tlsServerName: 'flag.nomad',
      };

      // Act
      const fromFlags = resolveNomadConfig(flags, env);
      const fromEnv = resolveNomadConfig({}, env);

      // Assert
      expect(fromFlags).toEqual({
        address: DEFAULT_NOMAD_ADDRESS,
        token: 'flag-token',
        namespace: 'flag-ns',
        region: 'flag-region',
        tls: {
          caCert: '/flag/ca.pem',
          caPath: '/flag/ca',
          clientCert: '/flag/cert.pem',
          clientKey: '/flag/key.pem',
          serverName: 'flag.nomad',
        },
      });
      expect(fromEnv).toEqual({
        address: DEFAULT_NOMAD_ADDRESS,
        token: 'env-token',
        namespace: 'env-ns',
        region: 'env-region',
        tls: {
          caCert: '/env/ca.pem',
          caPath: '/env/ca',
          clientCert: '/env/cert.pem',
          clientKey: '/env/key.pem',
          serverName: 'env.nomad',
        },
      });
    });

    it('returns only the address when nothing is configured', () => {
      // Arrange / Act
      const config = resolveNomadConfig({}, {});

      // Assert
      expect(config).toEqual({ address: 'http://127.0.0.1:4646' });
    });
  });

  describe('skip verify', () => {
    it.each([
      { name: 'flag true', flag: true, env: undefined, expected: true },
      { name: 'env TRUE', flag: undefined, env: 'TRUE', expected: true },
      { name: 'env 1', flag: undefined, env: '1', expected: true },
      { name: 'env f', flag: undefined, env: 'f', expected: false },
      { name: 'env unparsable is ignored', flag: undefined, env: 'yes', expected: undefined },
      { name: 'flag false does not override env true (as Nomad)', flag: false, env: 'true', expected: true },
      { name: 'flag true overrides env false', flag: true, env: 'false', expected: true },
    ])('resolves insecure: $name', ({ flag, env, expected }) => {
      // Arrange
      const flags = flag === undefined ? {} : { tlsSkipVerify: flag };
      const vars = env === undefined ? {} : { NOMAD_SKIP_VERIFY: env };

      // Act
      const config = resolveNomadConfig(flags, vars);

      // Assert
      expect(config.tls?.insecure).toBe(expected);
    });
  });

  describe('NOMAD_HTTP_AUTH', () => {
    it.each([
      { value: 'user:pass', expected: { username: 'user', password: 'pass' } },
      { value: 'user', expected: { username: 'user', password: '' } },
      { value: 'user:pa:ss', expected: { username: 'user', password: 'pa:ss' } },
    ])('splits $value at the first colon', ({ value, expected }) => {
      // Arrange / Act
      const config = resolveNomadConfig({}, { NOMAD_HTTP_AUTH: value });

      // Assert
      expect(config.httpAuth).toEqual(expected);
      expect(parseHttpAuth(value)).toEqual(expected);
    });
  });
});
