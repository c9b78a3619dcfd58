/**
 * Scenario: every general option given with an empty value, as Nomad treats it. Nomad's
 * `Meta.clientConfig` applies a string flag only `if m.flag != ""`, and `api.DefaultConfig`
 * reads a `NOMAD_*` variable only when it is not empty: so `-address=` (or `-address ""`) counts
 * as not given and the variable, else the default, applies. A boolean flag given `=` with
 * nothing after it is a Go `flag` error, printed with the usage. The `-region=` case is also run
 * through the real command in `general-options.test.ts`. Compared side by side with Nomad
 * v2.0.6-dev's own CLI on a dev agent (`side-by-side.sh`, a job that does not exist): for every
 * string option the same lines, exit code and single request (and with `NOMAD_REGION=eu`,
 * `-region=` gives the same `No path to region`); for every boolean one the same error line on
 * stderr and exit 1, before any request, the usage that follows being our own help text.
 */
import { GoFlagError } from '../../../lib/cli/commands/errors';
import { parseJobRestartArgs } from '../../../lib/cli/commands/job-restart-command';
import type { NomadClientConfig } from '../../../lib/nomad/config';

const DEFAULT_ADDRESS = 'http://127.0.0.1:4646';

/** The client configuration the command resolves from `args` and `env`. */
function nomadConfig(args: readonly string[], env: Record<string, string>): NomadClientConfig {
  return parseJobRestartArgs([...args, '-yes', 'web'], { interactive: false, env }).general.nomad;
}

describe('general options given an empty value', () => {
  it.each([
    { flag: 'address', variable: 'NOMAD_ADDR', value: 'http://10.0.0.1:4646', key: 'address' },
    { flag: 'token', variable: 'NOMAD_TOKEN', value: 'env-token', key: 'token' },
    { flag: 'namespace', variable: 'NOMAD_NAMESPACE', value: 'prod', key: 'namespace' },
    { flag: 'region', variable: 'NOMAD_REGION', value: 'eu', key: 'region' },
  ] as const)('-$flag= counts as not given: $variable applies', ({ flag, variable, value, key }) => {
    // Arrange
    const env = { [variable]: value };

    // Act
    const joined = nomadConfig([`-${flag}=`], env);
    const separate = nomadConfig([`-${flag}`, ''], env);

    // Assert
    expect(joined[key]).toBe(value);
    expect(separate).toEqual(joined);
  });

  it.each([
    { flag: 'ca-cert', variable: 'NOMAD_CACERT', value: '/etc/nomad/ca.pem', key: 'caCert' },
    { flag: 'ca-path', variable: 'NOMAD_CAPATH', value: '/etc/nomad/ca.d', key: 'caPath' },
    { flag: 'client-cert', variable: 'NOMAD_CLIENT_CERT', value: '/etc/nomad/cli.pem', key: 'clientCert' },
    { flag: 'client-key', variable: 'NOMAD_CLIENT_KEY', value: '/etc/nomad/cli-key.pem', key: 'clientKey' },
    {
      flag: 'tls-server-name',
      variable: 'NOMAD_TLS_SERVER_NAME',
      value: 'server.global.nomad',
      key: 'serverName',
    },
  ] as const)('-$flag= counts as not given: $variable applies', ({ flag, variable, value, key }) => {
    // Arrange
    const env = { [variable]: value };

    // Act
    const config = nomadConfig([`-${flag}=`], env);

    // Assert
    expect(config.tls?.[key]).toBe(value);
  });

  it('leaves the defaults when every string option is empty and no variable is set', () => {
    // Arrange
    const args = [
      'address',
      'token',
      'namespace',
      'region',
      'ca-cert',
      'ca-path',
      'client-cert',
      'client-key',
      'tls-server-name',
    ].map((flag) => `-${flag}=`);

    // Act
    const config = nomadConfig(args, {});

    // Assert
    expect(config).toEqual({ address: DEFAULT_ADDRESS });
  });

  it.each([
    'NOMAD_ADDR',
    'NOMAD_TOKEN',
    'NOMAD_NAMESPACE',
    'NOMAD_REGION',
    'NOMAD_CACERT',
    'NOMAD_CAPATH',
    'NOMAD_CLIENT_CERT',
    'NOMAD_CLIENT_KEY',
    'NOMAD_TLS_SERVER_NAME',
    'NOMAD_SKIP_VERIFY',
    'NOMAD_HTTP_AUTH',
  ])('reads an empty %s as unset', (variable) => {
    // Arrange / Act
    const config = nomadConfig([], { [variable]: '' });

    // Assert
    expect(config).toEqual({ address: DEFAULT_ADDRESS });
  });

  it.each(['tls-skip-verify', 'insecure', 'no-color', 'force-color'])(
    "refuses -%s= with Go's boolean error and the usage",
    (flag) => {
      // Arrange
      const args = [`-${flag}=`, 'web'];

      // Act
      let error: unknown;
      try {
        parseJobRestartArgs(args, { interactive: false, env: {} });
      } catch (caught) {
        error = caught;
      }

      // Assert
      expect(error).toBeInstanceOf(GoFlagError);
      expect((error as GoFlagError).message).toBe(`invalid boolean value "" for -${flag}: parse error`);
      expect((error as GoFlagError).showHelp).toBe(true);
    },
  );

  it('turns no colour switch on from an empty NOMAD_CLI_NO_COLOR, NO_COLOR or NOMAD_CLI_FORCE_COLOR', () => {
    // Arrange
    const env = { NOMAD_CLI_NO_COLOR: '', NO_COLOR: '', NOMAD_CLI_FORCE_COLOR: '' };

    // Act
    const parsed = parseJobRestartArgs(['-yes', 'web'], { interactive: false, env });

    // Assert
    expect({ noColor: parsed.general.noColor, forceColor: parsed.general.forceColor }).toEqual({
      noColor: false,
      forceColor: false,
    });
  });
});
