// Scenario: every general option of Nomad's CLI, given as a flag, as its variable, and as both
// (the flag wins), through the real command (its front end in-process) against the simulator
// or the agent at NOMAD_E2E_ADDR. A recording proxy in front of the target says what every
// request carried: the region and namespace query parameters, the token and basic-auth headers,
// the TLS server name and client certificate presented; the output says whether colour was on.
// Fixture names are unique to this run and live in the target's own namespaces, so the agent
// may already run jobs of its own.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { simpleJob } from '../steps/harness';
import { type E2eTarget, openE2e } from './e2e-target';
import { type RecordingProxy, type SeenRequest, startRecordingProxy, TLS_DIR } from './recording-proxy';
import type { CliResult } from './run-cli';
import { runCommand } from './run-command';

jest.setTimeout(600_000);

const RUN = randomBytes(3).toString('hex');
const JOB = `opts-${RUN}`;
const NS = `opts-${RUN}`;
const tls = (name: string) => join(TLS_DIR, name);
const CA_DIR = mkdtempSync(join(tmpdir(), 'nomad-restart-ca-'));
const NOT_CA_DIR = mkdtempSync(join(tmpdir(), 'nomad-restart-not-ca-'));
copyFileSync(tls('ca.pem'), join(CA_DIR, 'ca.pem'));
copyFileSync(tls('client.pem'), join(NOT_CA_DIR, 'client.pem'));
const DEAD = 'http://127.0.0.1:9';
const ESC = '\u001b[';

/** How one option is given and what every request (or the output) must then show. */
interface OptionCase {
  readonly option: string;
  /** As a flag: the arguments. */
  readonly flag?: readonly string[];
  /** As its variable. */
  readonly env?: Readonly<Record<string, string>>;
  /** Beside the flag in the "both" run: a different value, which must lose. */
  readonly losingEnv?: Readonly<Record<string, string>>;
  /** Serve HTTPS; `base` variables every run of the option gets (a CA, say). */
  readonly tls?: boolean;
  readonly base?: Readonly<Record<string, string>>;
  readonly check: (seen: readonly SeenRequest[], result: CliResult) => void;
  /** The exit code, when not a restart that succeeds. */
  readonly code?: number;
}

const every = (seen: readonly SeenRequest[], read: (r: SeenRequest) => unknown) => [
  ...new Set(seen.map(read)),
];
const TRUSTED = { NOMAD_CACERT: tls('ca.pem') };

const CASES: readonly OptionCase[] = [
  {
    option: '-address',
    flag: ['-address', '<proxy>'],
    env: { NOMAD_ADDR: '<proxy>' },
    losingEnv: { NOMAD_ADDR: DEAD },
    check: (seen) => expect(seen.length).toBeGreaterThan(0),
  },
  {
    option: '-token',
    flag: ['-token', 'flag-secret-1d2c'],
    env: { NOMAD_TOKEN: 'flag-secret-1d2c' },
    losingEnv: { NOMAD_TOKEN: 'env-secret-9e8f' },
    check: (seen, result) => {
      expect(every(seen, (r) => r.token)).toEqual(['flag-secret-1d2c']);
      expect(result.stdout + result.stderr).not.toContain('secret');
    },
  },
  {
    option: '-namespace',
    flag: ['-namespace', '<ns>'],
    env: { NOMAD_NAMESPACE: '<ns>' },
    losingEnv: { NOMAD_NAMESPACE: '<home>' },
    check: (seen) => expect(every(seen, (r) => r.query.get('namespace'))).toEqual([target.namespace(NS)]),
  },
  {
    option: '-region',
    flag: ['-region', 'global'],
    env: { NOMAD_REGION: 'global' },
    losingEnv: { NOMAD_REGION: 'eu' },
    check: (seen) => expect(every(seen, (r) => r.query.get('region'))).toEqual(['global']),
  },
  {
    option: '-ca-cert',
    tls: true,
    flag: ['-ca-cert', tls('ca.pem')],
    env: { NOMAD_CACERT: tls('ca.pem') },
    // A certificate that did not sign the server's: verification would fail with it.
    losingEnv: { NOMAD_CACERT: tls('client.pem') },
    check: (seen) => expect(seen.length).toBeGreaterThan(0),
  },
  {
    option: '-ca-path',
    tls: true,
    flag: ['-ca-path', CA_DIR],
    env: { NOMAD_CAPATH: CA_DIR },
    losingEnv: { NOMAD_CAPATH: NOT_CA_DIR },
    check: (seen) => expect(seen.length).toBeGreaterThan(0),
  },
  {
    option: '-client-cert and -client-key',
    tls: true,
    base: TRUSTED,
    flag: ['-client-cert', tls('client.pem'), '-client-key', tls('client-key.pem')],
    env: { NOMAD_CLIENT_CERT: tls('client.pem'), NOMAD_CLIENT_KEY: tls('client-key.pem') },
    losingEnv: { NOMAD_CLIENT_CERT: tls('server.pem'), NOMAD_CLIENT_KEY: tls('server-key.pem') },
    check: (seen) => expect(every(seen, (r) => r.clientCertCn)).toEqual(['cli.global.nomad']),
  },
  {
    option: '-tls-server-name',
    tls: true,
    base: TRUSTED,
    flag: ['-tls-server-name', 'server.global.nomad'],
    env: { NOMAD_TLS_SERVER_NAME: 'server.global.nomad' },
    losingEnv: { NOMAD_TLS_SERVER_NAME: 'localhost' },
    check: (seen) => expect(every(seen, (r) => r.serverName)).toEqual(['server.global.nomad']),
  },
  {
    option: '-tls-skip-verify',
    tls: true,
    flag: ['-tls-skip-verify'],
    env: { NOMAD_SKIP_VERIFY: 'true' },
    // Nomad applies the flag only when it is true, so a false variable cannot undo it.
    losingEnv: { NOMAD_SKIP_VERIFY: 'false' },
    check: (seen) => expect(seen.length).toBeGreaterThan(0),
  },
  {
    option: 'NOMAD_HTTP_AUTH',
    env: { NOMAD_HTTP_AUTH: 'ops:pa:ss' },
    check: (seen) =>
      expect(every(seen, (r) => r.authorization)).toEqual([
        `Basic ${Buffer.from('ops:pa:ss').toString('base64')}`,
      ]),
  },
  {
    option: '-force-color',
    flag: ['-force-color'],
    env: { NOMAD_CLI_FORCE_COLOR: '1' },
    check: (_seen, result) => expect(result.stdout).toContain(`${ESC}1m==> `),
  },
  {
    // Nomad's UI library colours error lines only at a terminal, whatever -force-color says.
    option: '-force-color, on an error line into a pipe',
    flag: ['-force-color', '-region', 'nowhere'],
    env: { NOMAD_CLI_FORCE_COLOR: '1', NOMAD_REGION: 'nowhere' },
    code: 1,
    check: (_seen, result) => {
      expect(result.stderr).toBe(
        `Error querying job prefix "${JOB}": Unexpected response code: 500 (No path to region)\n`,
      );
    },
  },
  {
    option: '-no-color',
    base: { NOMAD_CLI_FORCE_COLOR: '1' },
    flag: ['-no-color'],
    env: { NOMAD_CLI_NO_COLOR: '1' },
    check: (_seen, result) => expect(result.stdout + result.stderr).not.toContain(ESC),
  },
];

type Given = 'flag' | 'variable' | 'both';
const RUNS = CASES.flatMap((c) =>
  (['flag', 'variable', 'both'] as const)
    .filter((given) => (given === 'variable' ? c.env !== undefined : c.flag !== undefined))
    .map((given) => ({ ...c, given })),
);

let target: E2eTarget;
beforeAll(async () => {
  target = await openE2e({
    namespaces: [NS],
    jobs: [simpleJob(JOB, 'service', 1), { ...simpleJob(JOB, 'service', 1), Namespace: NS }],
  });
});
afterAll(async () => {
  await target?.close();
  rmSync(CA_DIR, { recursive: true, force: true });
  rmSync(NOT_CA_DIR, { recursive: true, force: true });
});

const proxies: RecordingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});
async function proxy(tlsOn: boolean): Promise<RecordingProxy> {
  const p = await startRecordingProxy(target.address, { tls: tlsOn });
  proxies.push(p);
  return p;
}

/** The target's own environment (its namespace on an agent), through the proxy `p`. */
const through = (p: RecordingProxy) => ({ ...target.env, NOMAD_ADDR: p.address });

/**
 * Runs `-yes <job>` with the option given one way; `<proxy>` is the proxy's address, `<ns>` the
 * fixture namespace and `<home>` the default one, as the target names them.
 */
async function run(c: OptionCase, given: Given, p: RecordingProxy): Promise<CliResult> {
  const names: Record<string, string> = {
    '<proxy>': p.address,
    '<ns>': target.namespace(NS),
    '<home>': target.namespace('default'),
  };
  const fill = (v: string) => names[v] ?? v;
  const env: Record<string, string> = { ...through(p), ...c.base };
  if (given !== 'flag') Object.assign(env, given === 'both' ? c.losingEnv : c.env);
  for (const [k, v] of Object.entries(env)) env[k] = fill(v);
  const flags = given === 'variable' ? [] : (c.flag ?? []).map(fill);
  return runCommand(['-yes', ...flags, JOB], env);
}

describe('general options through the real command', () => {
  it.each(RUNS)('$option given as $given', async (c) => {
    // Arrange
    const p = await proxy(c.tls === true);

    // Act
    const result = await run(c, c.given, p);

    // Assert
    if (c.code === undefined) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Restarting 1 allocation');
    } else expect(result.code).toBe(c.code);
    c.check(p.seen, result);
  });

  it('sends -region on every request when NOMAD_REGION is unset, and changes nothing in another region', async () => {
    // Arrange: the proxy answers a foreign region as a one-region cluster does.
    const p = await proxy(false);

    // Act
    const result = await runCommand(['-region', 'eu', '-yes', JOB], through(p));

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error querying job prefix "${JOB}": Unexpected response code: 500 (No path to region)\n`,
    );
    expect(p.seen.length).toBeGreaterThan(0);
    expect(every(p.seen, (r) => r.query.get('region'))).toEqual(['eu']);
    expect(p.seen.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it.each([
    ['-region=', { NOMAD_REGION: 'global' }, (r: SeenRequest) => r.query.get('region'), 'global'],
    ['-namespace=', { NOMAD_NAMESPACE: '<ns>' }, (r: SeenRequest) => r.query.get('namespace'), '<ns>'],
    ['-token=', { NOMAD_TOKEN: 'env-secret-5a6b' }, (r: SeenRequest) => r.token, 'env-secret-5a6b'],
  ] as const)(
    'treats an empty %s as not given, as Nomad does: its variable applies',
    async (flag, env, read, want) => {
      // Arrange
      const p = await proxy(false);

      // Act
      const named = (v: string) => (v === '<ns>' ? target.namespace(NS) : v);
      const vars = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, named(v)]));
      const result = await runCommand([flag, '-yes', JOB], { ...through(p), ...vars });

      // Assert
      expect(result.code).toBe(0);
      expect(every(p.seen, read)).toEqual([named(want)]);
    },
  );
});
