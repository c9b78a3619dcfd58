/**
 * Scenario: every general option of `nomad job restart` (Nomad's `command/meta.go` `Meta.FlagSet`),
 * given as a flag, as its `NOMAD_*` variable, and as both (the flag wins), through the real command
 * (the synthesized workflow, local engine) against the simulator behind an HTTPS front on 127.0.0.1
 * that records what each request carried: `region` and `namespace` on every request, the token
 * header, basic auth, the TLS server name and the client certificate actually presented, colour on
 * or off. The `-region` flag case is the safety bug this test was written for: it once restarted
 * the job in the agent's own region.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLS_SKIP_VERIFY_WARNING } from '../../../lib/cli/commands/run-job-restart';
import type { AclSpec } from '../../../sim/index';
import { runCommand } from '../../e2e/helpers/run-command';
import { type Harness, harnessPerTest, simpleJob, waitAllRunning } from '../../steps/helpers/harness';
import { type SeenRequest, startTlsFront, TLS_FIXTURES, type TlsFront } from '../helpers/tls-front';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

const CA = join(TLS_FIXTURES, 'ca.pem');
const CLIENT_CERT = join(TLS_FIXTURES, 'client.pem');
const CLIENT_KEY = join(TLS_FIXTURES, 'client-key.pem');
const OTHER_CERT = join(TLS_FIXTURES, 'server.pem');
const OTHER_KEY = join(TLS_FIXTURES, 'server-key.pem');
const CA_DIR = mkdtempSync(join(tmpdir(), 'nomad-ca-'));
const EMPTY_DIR = mkdtempSync(join(tmpdir(), 'nomad-no-ca-'));
copyFileSync(CA, join(CA_DIR, 'ca.pem'));
afterAll(() => {
  rmSync(CA_DIR, { recursive: true, force: true });
  rmSync(EMPTY_DIR, { recursive: true, force: true });
});

const RESTART = /^\/v1\/client\/allocation\/[^/]+\/restart$/;
const ANSI = '\u001b[';
const ACL: AclSpec = { enabled: true, tokens: [{ secret: 'good-token', management: true }] };

/** What a row sets up and expects. `FRONT` in args or env is replaced by the front's address. */
interface Row {
  readonly name: string;
  readonly args: readonly string[];
  /** Added to the base environment (`NOMAD_ADDR` = the front, `NOMAD_CACERT` = the test CA); `null` removes. */
  readonly env?: Readonly<Record<string, string | null>>;
  readonly sim?: { readonly acl?: AclSpec; readonly namespace?: string; readonly region?: string };
  /** Every request the front saw must satisfy this. */
  readonly every?: (request: SeenRequest) => unknown;
  readonly expected: unknown;
  readonly exitCode?: 0 | 1;
  readonly stdout?: (text: string) => boolean;
  readonly stderr?: string;
}

const flagEnvBoth = (
  name: string,
  flag: (value: string) => string[],
  variable: string,
  good: string,
  bad: string,
  rest: Omit<Row, 'name' | 'args' | 'env'>,
): Row[] => [
  { name: `${name} as a flag`, args: flag(good), ...rest },
  { name: `${name} as ${variable}`, args: [], env: { [variable]: good }, ...rest },
  { name: `${name} as both: the flag wins`, args: flag(good), env: { [variable]: bad }, ...rest },
];

const rows: Row[] = [
  ...flagEnvBoth('-address', (v) => ['-address', v], 'NOMAD_ADDR', 'FRONT', 'https://127.0.0.1:1', {
    every: (r) => r.path.startsWith('/v1/'),
    expected: true,
  }),
  ...flagEnvBoth('-token', (v) => ['-token', v], 'NOMAD_TOKEN', 'good-token', 'bad-token', {
    sim: { acl: ACL },
    every: (r) => r.token,
    expected: 'good-token',
    stdout: (text) => !text.includes('good-token'),
  }),
  ...flagEnvBoth('-namespace', (v) => ['-namespace', v], 'NOMAD_NAMESPACE', 'prod', 'dev', {
    sim: { namespace: 'prod' },
    every: (r) => r.query.get('namespace'),
    expected: 'prod',
  }),
  ...flagEnvBoth('-region', (v) => ['-region', v], 'NOMAD_REGION', 'eu', 'us', {
    sim: { region: 'eu' },
    every: (r) => r.query.get('region'),
    expected: 'eu',
  }),
  {
    name: '-region naming a region the agent cannot reach (NOMAD_REGION unset): Nomad’s error, nothing restarted',
    args: ['-region', 'us'],
    env: { NOMAD_REGION: null },
    sim: { region: 'eu' },
    every: (r) => r.path,
    expected: '/v1/jobs',
    exitCode: 1,
    stderr: 'Error querying job prefix "web": Unexpected response code: 500 (No path to region)\n',
  },
  {
    name: '-region= (empty) counts as not given, as in Nomad: NOMAD_REGION applies',
    args: ['-region='],
    env: { NOMAD_REGION: 'eu' },
    sim: { region: 'eu' },
    every: (r) => r.query.get('region'),
    expected: 'eu',
  },
  ...flagEnvBoth('-ca-cert', (v) => ['-ca-cert', v], 'NOMAD_CACERT', CA, CLIENT_CERT, {
    every: (r) => r.path.startsWith('/v1/'),
    expected: true,
  }),
  ...flagEnvBoth('-ca-path', (v) => ['-ca-path', v], 'NOMAD_CAPATH', CA_DIR, EMPTY_DIR, {
    every: (r) => r.path.startsWith('/v1/'),
    expected: true,
  }).map((row) => ({ ...row, env: { ...row.env, NOMAD_CACERT: null } })),
  ...flagEnvBoth(
    '-client-cert and -client-key',
    (v) => (v === 'client' ? ['-client-cert', CLIENT_CERT, '-client-key', CLIENT_KEY] : []),
    'NOMAD_CLIENT_CERT',
    'client',
    'other',
    { every: (r) => r.clientCertificate, expected: 'cli.global.nomad' },
  ).map((row, i) => ({
    ...row,
    env:
      i === 0
        ? {}
        : i === 1
          ? { NOMAD_CLIENT_CERT: CLIENT_CERT, NOMAD_CLIENT_KEY: CLIENT_KEY }
          : { NOMAD_CLIENT_CERT: OTHER_CERT, NOMAD_CLIENT_KEY: OTHER_KEY },
  })),
  ...flagEnvBoth(
    '-tls-server-name',
    (v) => ['-tls-server-name', v],
    'NOMAD_TLS_SERVER_NAME',
    'server.global.nomad',
    'localhost',
    { every: (r) => r.serverName, expected: 'server.global.nomad' },
  ),
  ...flagEnvBoth(
    '-tls-skip-verify',
    (v) => (v === 'true' ? ['-tls-skip-verify'] : []),
    'NOMAD_SKIP_VERIFY',
    'true',
    'false',
    { every: (r) => r.path.startsWith('/v1/'), expected: true },
  ).map((row) => ({ ...row, env: { ...row.env, NOMAD_CACERT: null } })),
  {
    name: 'NOMAD_HTTP_AUTH (a variable only, as in Nomad)',
    args: [],
    env: { NOMAD_HTTP_AUTH: 'ops:s3cret' },
    every: (r) => r.authorization,
    expected: `Basic ${Buffer.from('ops:s3cret').toString('base64')}`,
  },
  {
    name: '-force-color',
    args: ['-force-color'],
    expected: undefined,
    stdout: (text) => text.includes(ANSI),
  },
  {
    name: 'NOMAD_CLI_FORCE_COLOR',
    args: [],
    env: { NOMAD_CLI_FORCE_COLOR: '1' },
    expected: undefined,
    stdout: (text) => text.includes(ANSI),
  },
  {
    name: '-force-color into a pipe colours no error line: Nomad colours those only at a terminal',
    args: ['-force-color', '-region', 'us'],
    env: { NOMAD_REGION: null },
    sim: { region: 'eu' },
    expected: undefined,
    exitCode: 1,
    stderr: 'Error querying job prefix "web": Unexpected response code: 500 (No path to region)\n',
  },
  {
    name: '-tls-skip-verify says on stderr that the server is not verified',
    args: ['-tls-skip-verify'],
    env: { NOMAD_CACERT: null },
    expected: undefined,
    stderr: `${TLS_SKIP_VERIFY_WARNING}\n`,
  },
  {
    name: 'verification on (the default): no such warning',
    args: [],
    expected: undefined,
    stderr: '',
  },
  {
    name: '-no-color wins over NOMAD_CLI_FORCE_COLOR',
    args: ['-no-color'],
    env: { NOMAD_CLI_FORCE_COLOR: '1' },
    expected: undefined,
    stdout: (text) => !text.includes(ANSI) && text.includes('Restarting 1 allocation'),
  },
  {
    name: 'NOMAD_CLI_NO_COLOR wins over -force-color',
    args: ['-force-color'],
    env: { NOMAD_CLI_NO_COLOR: '1' },
    expected: undefined,
    stdout: (text) => !text.includes(ANSI) && text.includes('Restarting 1 allocation'),
  },
];

/** Rows that fail without their option: the control that shows the option is what made the difference. */
const controls: Row[] = [
  {
    name: 'no CA at all: the server certificate is refused and no request is made',
    args: [],
    env: { NOMAD_CACERT: null },
    expected: undefined,
    exitCode: 1,
  },
  {
    name: 'no token with ACLs on: 403, nothing restarted',
    args: [],
    sim: { acl: ACL },
    expected: undefined,
    exitCode: 1,
  },
];

async function run(h: Harness, front: TlsFront, row: Row) {
  const resolve = (value: string) => value.replaceAll('FRONT', front.address);
  const env: NodeJS.ProcessEnv = { TZ: 'UTC', NOMAD_ADDR: front.address, NOMAD_CACERT: CA };
  for (const [name, value] of Object.entries(row.env ?? {})) {
    if (value === null) delete env[name];
    else env[name] = resolve(value);
  }
  const result = await runCommand([...row.args.map(resolve), '-yes', 'web'], env);
  return {
    ...result,
    restarts: h.sim.control.counters()['PUT /v1/client/allocation/:id/restart'] ?? 0,
  };
}

describe('general options through the real command', () => {
  let front: TlsFront | undefined;
  afterEach(async () => {
    await front?.close();
    front = undefined;
  });
  const harness = harnessPerTest();

  async function open(row: Row): Promise<{ h: Harness; front: TlsFront }> {
    const namespace = row.sim?.namespace;
    const job =
      namespace === undefined
        ? simpleJob('web', 'service', 1)
        : { ...simpleJob('web', 'service', 1), Namespace: namespace };
    const h = await harness.start(
      {
        jobs: [job],
        ...(namespace === undefined ? {} : { namespaces: [namespace] }),
        ...(row.sim?.acl === undefined ? {} : { acl: row.sim.acl }),
      },
      row.sim?.region === undefined ? {} : { region: row.sim.region },
    );
    await waitAllRunning(h, 'web', 1, namespace);
    front = await startTlsFront(h.sim.address);
    return { h, front };
  }

  it.each(rows)('$name', async (row) => {
    // Arrange
    const target = await open(row);

    // Act
    const result = await run(target.h, target.front, row);

    // Assert
    expect({ code: result.code, stderr: row.stderr === undefined ? undefined : result.stderr }).toEqual({
      code: row.exitCode ?? 0,
      stderr: row.stderr,
    });
    if (row.every !== undefined) {
      expect(target.front.seen.length).toBeGreaterThan(0);
      expect([...new Set(target.front.seen.map(row.every))]).toEqual([row.expected]);
    }
    const restartRequests = target.front.seen.filter((r) => RESTART.test(r.path));
    expect(restartRequests).toHaveLength((row.exitCode ?? 0) === 0 ? 1 : 0);
    expect(result.restarts).toBe(restartRequests.length);
    if (row.stdout !== undefined) expect(row.stdout(result.stdout)).toBe(true);
  });

  it.each(controls)('$name', async (row) => {
    // Arrange
    const target = await open(row);

    // Act
    const result = await run(target.h, target.front, row);

    // Assert
    expect(result.code).toBe(1);
    expect(result.restarts).toBe(0);
    expect(target.front.seen.filter((r) => RESTART.test(r.path))).toEqual([]);
  });
});
