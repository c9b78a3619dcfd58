/**
 * Scenario: the restart history of a cluster with ACLs on, written by runs holding the README's
 * run policy (through the run history store, as the steps write it) and read by the real
 * `nomad-restart history` in a subprocess holding only the README's reader policy, no AWS
 * credentials. Job `web` has six runs: a terminal success, one stopped by bob, a scheduled run on
 * AWS, a fleet's job, a provisional record of a run that died (another run holds the lock now)
 * and a provisional record of a run that holds the lock; job `db` a provisional record whose run
 * died holding the lock, freed by its TTL, its variable left naming the run; the fleet run
 * itself in the fleets' history, with a second job `api` in namespace `prod`.
 */
import { NomadClient } from '../../lib/nomad/client';
import { sharedLockPath } from '../../lib/stores';
import { NomadRunHistory } from '../../lib/stores/nomad-run-history';
import { createScaledClock, type RunningSimulator, startSimulator } from '../../sim/index';
import { HISTORY_READER_TOKEN, OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { provisionalRecord, runRecord } from '../fixtures/run-records';
import { eventually } from '../sim/helpers/http';
import { runCli } from './helpers/run-cli';

const local = (name: string) => `arn:aws:states:local:000000000000:execution:nomad-restart:${name}`;
const SUCCESS = local('11111111-0000-4000-8000-000000000001');
const STOPPED = local('abc22222-0000-4000-8000-000000000002');
const SCHEDULED =
  'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:abc33333-0000-4000-8000-000000000003';
const FLEET = local('f1ee7000-0000-4000-8000-000000000000');
const FLEET_JOB = local('44444444-0000-4000-8000-000000000004');
const DEAD = local('55555555-0000-4000-8000-000000000005');
const LIVE = local('66666666-0000-4000-8000-000000000006');
const DB_DEAD = local('77777777-0000-4000-8000-000000000007');
const PROD_API = local('88888888-0000-4000-8000-000000000008');

let sim: RunningSimulator;

/** The lock variable's items naming `runId` as its holder, as a terminal run writes them. */
const holderItems = (runId: string) => ({
  runId,
  engine: 'local',
  who: 'carol',
  host: 'laptop-3',
  since: '2026-12-07T14:06:00Z',
});

beforeAll(async () => {
  // Locks' TTLs at one second in 10 ms: db's lock runs out in the test's time; web's (24 h, an
  // execution's TTL) holds for the whole file.
  sim = await startSimulator({
    leaseClock: createScaledClock(0.01),
    scenario: { namespaces: ['prod'], nodes: [], jobs: [], acl: readmePolicyAcl(['default', 'prod']) },
  });
  const nomad = NomadClient.create({ address: sim.address, token: OPERATOR_TOKEN });
  const history = new NomadRunHistory(nomad);
  const web = { namespace: 'default', jobId: 'web' };
  const fleetOf = { fleetRunId: FLEET, startedBy: `fleet ${FLEET}` };
  // The live run took web's lock before it wrote its provisional record, as "Lock job" does.
  await nomad
    .variables()
    .acquireLock(sharedLockPath('web'), holderItems(LIVE), { TTL: '24h' }, { namespace: 'default' });
  await history.put(
    { namespace: 'default', fleets: true },
    runRecord(3, {
      runId: FLEET,
      kind: 'fleet',
      jobId: '',
      options: '-filter=Meta.tier==web -max-jobs=2',
      counts: { planned: 2, restarted: 2, failed: 0, skipped: 0, notReached: 0 },
      jobOutcomes: { succeeded: 2 },
    }),
  );
  await history.put(web, runRecord(1, { runId: SUCCESS, options: '-batch-size=1' }));
  await history.put(
    web,
    runRecord(2, {
      runId: STOPPED,
      options: '-batch-size=1',
      outcome: 'canceled',
      stoppedBy: 'bob@ops',
      counts: { planned: 3, restarted: 1, failed: 0, skipped: 0, notReached: 2 },
    }),
  );
  await history.put(web, runRecord(4, { runId: FLEET_JOB, options: '-batch-size=1', ...fleetOf }));
  await history.put(
    { namespace: 'prod', jobId: 'api' },
    runRecord(4, {
      runId: PROD_API,
      namespace: 'prod',
      jobId: 'api',
      options: '-batch-size=1',
      ...fleetOf,
    }),
  );
  await history.put(
    web,
    runRecord(5, {
      runId: SCHEDULED,
      engine: 'aws',
      executionArn: SCHEDULED,
      startedBy: 'schedule nightly-web',
      reason: 'weekly rotation',
      options: '-batch-size=1 -wait-healthy',
      outcome: 'failed',
      counts: { planned: 3, restarted: 2, failed: 1, skipped: 0, notReached: 0 },
      errors: ['Error restarting allocation "9f8e7d6c": Unexpected response code: 500'],
    }),
  );
  await history.put(web, provisionalRecord(6, { runId: DEAD, options: '-batch-size=1' }));
  await history.put(web, provisionalRecord(7, { runId: LIVE, options: '-batch-size=1' }));
  // db's run took the lock, wrote its provisional record and died: Nomad frees the lock after
  // its TTL (twice 10 s, then the 15 s delay: 0.35 s here), the variable left naming the run.
  await nomad
    .variables()
    .acquireLock(sharedLockPath('db'), holderItems(DB_DEAD), { TTL: '10s' }, { namespace: 'default' });
  await history.put(
    { namespace: 'default', jobId: 'db' },
    provisionalRecord(8, { runId: DB_DEAD, jobId: 'db', options: '-batch-size=1' }),
  );
  const dbLock = () => sim.control.state().variable('default', sharedLockPath('db'));
  await eventually(async () => (dbLock()?.lock === undefined ? true : undefined), 10_000);
  expect(dbLock()?.items['runId']).toBe(DB_DEAD);
  await nomad.close();
}, 30_000);

afterAll(async () => {
  await sim.close();
});

const reader = () => ({ NOMAD_ADDR: sim.address, NOMAD_TOKEN: HISTORY_READER_TOKEN });

describe('nomad-restart history', () => {
  it('lists a job’s runs newest first: who, why, what, outcome, counts, duration', async () => {
    // Act
    const result = await runCli(['history', 'web'], reader());

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'ID        When                  Who                   Why                                  What                         Outcome                  Restarted/Failed/Planned  Duration',
      '66666666  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                running                  0/0/3                     <none>',
      '55555555  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                started, never finished  0/0/3                     <none>',
      'abc33333  <ts>  schedule nightly-web  weekly rotation                      -batch-size=1 -wait-healthy  failed                   2/1/3                     42s',
      '44444444  <ts>  fleet f1ee7000        CHG-1234 rotate the TLS certificate  -batch-size=1                succeeded                3/0/3                     42s',
      'abc22222  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                canceled by bob@ops      1/0/3                     42s',
      '11111111  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                succeeded                3/0/3                     42s',
      '',
    ]);
  }, 30_000);

  it('lists only the newest -n runs', async () => {
    // Act
    const result = await runCli(['history', '-n', '2', 'web'], reader());

    // Assert
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'ID        When                  Who             Why                                  What           Outcome                  Restarted/Failed/Planned  Duration',
      '66666666  <ts>  alice@laptop-1  CHG-1234 rotate the TLS certificate  -batch-size=1  running                  0/0/3                     <none>',
      '55555555  <ts>  alice@laptop-1  CHG-1234 rotate the TLS certificate  -batch-size=1  started, never finished  0/0/3                     <none>',
      '',
    ]);
  }, 30_000);

  it('prints the records as one JSON array with -output json, each with how its run stands', async () => {
    // Act
    const result = await runCli(['history', '-output', 'json', 'web'], reader());

    // Assert
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout) as { runId: string; state: string; outcome: string }[];
    expect(records.map((r) => [r.runId, r.outcome, r.state])).toEqual([
      [LIVE, 'running', 'running'],
      [DEAD, 'running', 'never-finished'],
      [SCHEDULED, 'failed', 'ended'],
      [FLEET_JOB, 'succeeded', 'ended'],
      [STOPPED, 'canceled', 'ended'],
      [SUCCESS, 'succeeded', 'ended'],
    ]);
  }, 30_000);

  it('shows the one run a prefix names in full', async () => {
    // Act
    const result = await runCli(['history', 'web', 'abc3'], reader());

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'ID          = arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:abc33333-0000-4000-8000-000000000003',
      'Kind        = job',
      'Job ID      = web',
      'Namespace   = default',
      'Engine      = aws',
      'Started By  = schedule nightly-web',
      'Reason      = weekly rotation',
      'Fleet Run   = <none>',
      'Options     = -batch-size=1 -wait-healthy',
      'Outcome     = failed',
      'Stopped By  = <none>',
      'Started     = <ts>',
      'Ended       = <ts>',
      'Duration    = 42s',
      'Window End  = <none>',
      'Execution   = arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:abc33333-0000-4000-8000-000000000003',
      'Planned     = 3',
      'Restarted   = 2',
      'Failed      = 1',
      'Skipped     = 0',
      'Not Reached = 0',
      '',
      'Errors',
      '* Error restarting allocation "9f8e7d6c": Unexpected response code: 500',
      '',
    ]);
  }, 30_000);

  it('refuses a prefix several runs share with Nomad’s wording and the list, exit 1', async () => {
    // Act
    const result = await runCli(['history', 'web', 'abc'], reader());

    // Assert
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      'Prefix matched multiple runs',
      '',
      'ID        When                  Who                   Why                                  What                         Outcome              Restarted/Failed/Planned  Duration',
      'abc33333  <ts>  schedule nightly-web  weekly rotation                      -batch-size=1 -wait-healthy  failed               2/1/3                     42s',
      'abc22222  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                canceled by bob@ops  1/0/3                     42s',
      '',
    ]);
  }, 30_000);

  it('refuses a prefix no run has, exit 1', async () => {
    // Act
    const result = await runCli(['history', 'web', 'zzz'], reader());

    // Assert
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'No run with prefix or ID "zzz" found\n' });
  }, 30_000);

  it('says so for a job with no record, exit 0', async () => {
    // Act
    const result = await runCli(['history', 'nothing'], reader());

    // Assert
    expect(result).toEqual({ code: 0, stdout: 'No restart recorded for job "nothing"\n', stderr: '' });
  }, 30_000);

  it('merges every job and fleet of the namespace, a dead run’s freed lock told from a held one', async () => {
    // Act
    const result = await runCli(['history'], reader());

    // Assert
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      'ID        Job                  When                  Who                   Why                                  What                                Outcome                  Restarted/Failed/Planned  Duration',
      '77777777  db                   <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                       started, never finished  0/0/3                     <none>',
      '66666666  web                  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                       running                  0/0/3                     <none>',
      '55555555  web                  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                       started, never finished  0/0/3                     <none>',
      'abc33333  web                  <ts>  schedule nightly-web  weekly rotation                      -batch-size=1 -wait-healthy         failed                   2/1/3                     42s',
      '44444444  web                  <ts>  fleet f1ee7000        CHG-1234 rotate the TLS certificate  -batch-size=1                       succeeded                3/0/3                     42s',
      'f1ee7000  fleet (2 succeeded)  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -filter=Meta.tier==web -max-jobs=2  succeeded                2/0/2                     42s',
      'abc22222  web                  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                       canceled by bob@ops      1/0/3                     42s',
      '11111111  web                  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                       succeeded                3/0/3                     42s',
      '',
    ]);
  }, 30_000);

  it('reads every namespace with "*"', async () => {
    // Act
    const result = await runCli(['history', '-namespace', '*'], reader());

    // Assert
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      'ID        Namespace  Job                  When                  Who                   Why                                  What                                Outcome                  Restarted/Failed/Planned  Duration',
      '77777777  default    db                   <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                       started, never finished  0/0/3                     <none>',
      '66666666  default    web                  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                       running                  0/0/3                     <none>',
      '55555555  default    web                  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                       started, never finished  0/0/3                     <none>',
      'abc33333  default    web                  <ts>  schedule nightly-web  weekly rotation                      -batch-size=1 -wait-healthy         failed                   2/1/3                     42s',
      '44444444  default    web                  <ts>  fleet f1ee7000        CHG-1234 rotate the TLS certificate  -batch-size=1                       succeeded                3/0/3                     42s',
      '88888888  prod       api                  <ts>  fleet f1ee7000        CHG-1234 rotate the TLS certificate  -batch-size=1                       succeeded                3/0/3                     42s',
      'f1ee7000  default    fleet (2 succeeded)  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -filter=Meta.tier==web -max-jobs=2  succeeded                2/0/2                     42s',
      'abc22222  default    web                  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                       canceled by bob@ops      1/0/3                     42s',
      '11111111  default    web                  <ts>  alice@laptop-1        CHG-1234 rotate the TLS certificate  -batch-size=1                       succeeded                3/0/3                     42s',
      '',
    ]);
  }, 30_000);

  it('shows a fleet run in full with its jobs by outcome and the job runs linked to it', async () => {
    // Act
    const result = await runCli(['history', '-namespace', '*', '-fleets', 'f1ee'], reader());

    // Assert
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      'ID             = arn:aws:states:local:000000000000:execution:nomad-restart:f1ee7000-0000-4000-8000-000000000000',
      'Kind           = fleet',
      'Namespace      = default',
      'Engine         = terminal',
      'Started By     = alice@laptop-1',
      'Reason         = CHG-1234 rotate the TLS certificate',
      'Options        = -filter=Meta.tier==web -max-jobs=2',
      'Outcome        = succeeded',
      'Stopped By     = <none>',
      'Started        = <ts>',
      'Ended          = <ts>',
      'Duration       = 42s',
      'Window End     = <none>',
      'Execution      = <none>',
      'Jobs Planned   = 2',
      'Jobs Succeeded = 2',
      'Jobs Failed    = 0',
      'Skipped        = 0',
      'Not Reached    = 0',
      '',
      'Jobs by Outcome',
      '2 succeeded',
      '',
      'Job Runs',
      'ID        Job  Namespace  Outcome    Restarted/Failed/Planned',
      '44444444  web  default    succeeded  3/0/3',
      '88888888  api  prod       succeeded  3/0/3',
      '',
    ]);
  }, 30_000);

  it('prints an empty JSON array for a job with no record', async () => {
    // Act
    const result = await runCli(['history', '-output=json', 'nothing'], reader());

    // Assert
    expect(result).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  }, 30_000);

  it('names the reader policy when Nomad refuses the read, exit 1', async () => {
    // Act
    const result = await runCli(['history', 'web'], { ...reader(), NOMAD_TOKEN: 'no-such-token' });

    // Assert
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^Nomad denied reading the restart history \(Unexpected response code: 403 \([^)]*\)\): the token needs the variables capabilities "read" and "list" on path "nomad-restart\/history\/\*" and "read" on path "nomad-restart\/locks\/\*" in namespace "default" \(docs\/history.md\)\n$/,
    );
  }, 30_000);

  it.each([
    {
      name: '-help',
      args: ['-help'],
      code: 0,
      stdout: /^Usage: nomad-restart history \[options\]/,
      stderr: /^$/,
    },
    {
      name: 'a bad -n',
      args: ['-n', 'x', 'web'],
      code: 1,
      stdout: /^$/,
      stderr: /^invalid value "x" for flag -n: parse error\nUsage: nomad-restart history/,
    },
    {
      name: 'too many arguments',
      args: ['web', 'a', 'b'],
      code: 1,
      stdout: /^$/,
      stderr:
        /^This command takes at most two arguments: \[<job> \[<run ID prefix>\]\]\nFor additional help try 'nomad-restart history -help'\n$/,
    },
  ])(
    'answers $name as Nomad answers a command line, before reading anything',
    async ({ args, code, stdout, stderr }) => {
      // Arrange
      const logged = sim.control.requestLog().length;

      // Act
      const result = await runCli(['history', ...args], reader());

      // Assert
      expect(result.code).toBe(code);
      expect(result.stdout).toMatch(stdout);
      expect(result.stderr).toMatch(stderr);
      expect(sim.control.requestLog().length).toBe(logged);
    },
    30_000,
  );
});
