import {
  DEFAULT_NOMAD_ADDRESS,
  type NomadConfigFlags,
  parseHttpAuth,
  resolveNomadConfig,
} from '../../lib/nomad';

/** One row of the address table: the flags and variables given, and the address they make. */
function row(name: string, flags: NomadConfigFlags, env: Record<string, string>, expected: string) {
  return { name, flags, env, expected };
}

/** The general options (all but the address) as resolved when every one came from `source`. */
function generalOptions(source: 'flag' | 'env') {
  return {
    token: `${source}-token`,
    namespace: `${source}-ns`,
    region: `${source}-region`,
    tls: {
      caCert: `/${source}/ca.pem`,
      caPath: `/${source}/ca`,
      clientCert: `/${source}/cert.pem`,
      clientKey: `/${source}/key.pem`,
      serverName: `${source}.nomad`,
    },
  };
}

describe('resolveNomadConfig', () => {
  describe('precedence', () => {
    it.each([
      row(
        'flag beats env',
        { address: 'http://flag:4646' },
        { NOMAD_ADDR: 'http://env:4646' },
        'http://flag:4646',
      ),
      row('env beats default', {}, { NOMAD_ADDR: 'http://env:4646' }, 'http://env:4646'),
      row('default when neither', {}, {}, DEFAULT_NOMAD_ADDRESS),
      row(
        'empty flag counts as not given',
        { address: '' },
        { NOMAD_ADDR: 'http://env:4646' },
        'http://env:4646',
      ),
      row('empty env counts as not given', {}, { NOMAD_ADDR: '' }, DEFAULT_NOMAD_ADDRESS),
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
      expect(fromFlags).toEqual({ address: DEFAULT_NOMAD_ADDRESS, ...generalOptions('flag') });
      expect(fromEnv).toEqual({ address: DEFAULT_NOMAD_ADDRESS, ...generalOptions('env') });
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
