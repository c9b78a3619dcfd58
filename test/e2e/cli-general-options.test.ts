// Scenario: the general options a dev agent can show (-region, -namespace, -address), each as a
// flag, as its variable and as both (the flag wins), through the real command against the
// simulator or the agent at NOMAD_E2E_ADDR, behind the recording HTTPS front of the full option
// table (test/cli/commands/general-options.test.ts): region and namespace on every request, and a region
// the agent cannot reach refused with Nomad's error before anything is touched.

import { startTlsFront, TLS_FIXTURES, type TlsFront } from '../cli/helpers/tls-front';
import { simpleJob } from '../steps/helpers/harness';
import { type E2eTarget, openE2e } from './helpers/e2e-target';
import { runCommand } from './helpers/run-command';

const JOB = 'opts';
const NS = 'opts';
const CA = `${TLS_FIXTURES}/ca.pem`;
const RESTART = /^\/v1\/client\/allocation\/[^/]+\/restart$/;

/** One way of giving an option; `<front>`, `<ns>` and `<home>` are filled in per target. */
interface Given {
  readonly name: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly read: (r: TlsFront['seen'][number]) => unknown;
  readonly want: string;
}

const flagEnvBoth = (
  option: string,
  variable: string,
  good: string,
  bad: string,
  read: Given['read'],
  want: string,
): Given[] => [
  { name: `${option} as a flag`, args: [option, good], env: {}, read, want },
  { name: `${option} as ${variable}`, args: [], env: { [variable]: good }, read, want },
  { name: `${option} as both: the flag wins`, args: [option, good], env: { [variable]: bad }, read, want },
];

const CASES: Given[] = [
  ...flagEnvBoth('-region', 'NOMAD_REGION', 'global', 'eu', (r) => r.query.get('region'), 'global'),
  ...flagEnvBoth('-namespace', 'NOMAD_NAMESPACE', '<ns>', '<home>', (r) => r.query.get('namespace'), '<ns>'),
  ...flagEnvBoth(
    '-address',
    'NOMAD_ADDR',
    '<front>',
    'https://127.0.0.1:1',
    (r) => r.path.startsWith('/v1/'),
    'true',
  ),
];

let target: E2eTarget;
let front: TlsFront;
beforeAll(async () => {
  target = await openE2e({
    namespaces: [NS],
    jobs: [simpleJob(JOB, 'service', 1), { ...simpleJob(JOB, 'service', 1), Namespace: NS }],
  });
  front = await startTlsFront(target.address);
});
afterAll(async () => {
  await front?.close();
  await target?.close();
});
beforeEach(() => {
  front.seen.length = 0;
});

/** The command's environment: the target's own (its namespace on an agent), through the front. */
const base = () => ({ ...target.env, NOMAD_ADDR: front.address, NOMAD_CACERT: CA });

describe('general options against the simulator or NOMAD_E2E_ADDR', () => {
  it.each(CASES)('$name', async (c) => {
    // Arrange
    const names: Record<string, string> = {
      '<front>': front.address,
      '<ns>': target.namespace(NS),
      '<home>': target.namespace('default'),
    };
    const fill = (value: string) => names[value] ?? value;
    const env = { ...base(), ...Object.fromEntries(Object.entries(c.env).map(([k, v]) => [k, fill(v)])) };

    // Act
    const result = await runCommand(['-yes', ...c.args.map(fill), JOB], env);

    // Assert
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect([...new Set(front.seen.map((r) => String(c.read(r))))]).toEqual([fill(c.want)]);
    expect(front.seen.filter((r) => RESTART.test(r.path))).toHaveLength(1);
  });

  it('refuses -region naming a region the agent cannot reach (NOMAD_REGION unset), touching nothing', async () => {
    // Act
    const result = await runCommand(['-region', 'eu', '-yes', JOB], base());

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error querying job prefix "${JOB}": Unexpected response code: 500 (No path to region)\n`,
    );
    expect([...new Set(front.seen.map((r) => r.query.get('region')))]).toEqual(['eu']);
    expect(front.seen.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
