/**
 * Scenario: `nomad-restart pause|resume|stop <job>` in-process against the simulator with ACLs
 * on, the command holding exactly the README's policy, a run of the job holding its lock in Nomad
 * (taken here as a terminal run takes it). The request lands in the job's request variable for
 * the holder's run, attributed; with no run holding the job, a token without `write` on the
 * request path and `-namespace '*'`, one clear line and exit 1, and no request variable is
 * written. A resume with nothing paused (no pause recorded, no parked marker: the variable a parked
 * run leaves) and a pause of a parked run are refused the same way, without a write to Nomad.
 */
import { runControlCommand } from '../../../lib/cli/commands/control-command';
import { operatorName } from '../../../lib/cli/terminal/operator';
import type { ControlRequest, ControlVerb } from '../../../lib/control/requests';
import { NomadClient } from '../../../lib/nomad';
import {
  CONTROL_REQUEST_PREFIX,
  controlRequestPath,
  LOCAL_SHARED_LOCK_TTL_MS,
  localLockIdentity,
  NomadControlRequests,
  NomadRunHistory,
  NomadVariablesLock,
} from '../../../lib/stores';
import { RUN_HISTORY_PREFIX } from '../../../lib/stores/shared-lock-settings';
import { type RunningSimulator, startSimulator } from '../../../sim/index';
import { fakeTerminal } from '../../engines/aws/helpers/fixtures';
import {
  MANAGEMENT_TOKEN,
  OPERATOR_TOKEN,
  readmePolicyAcl,
  readmePolicyToken,
} from '../../fixtures/readme-policy';
import { provisionalRecord, runRecord } from '../../fixtures/run-records';
import { simpleJob } from '../../steps/helpers/harness';

const KEY = { namespace: 'default', jobId: 'web' };
const HOLDER = 'local-run-1';
/** A controller's token (the README's policy less one capability), apart from the run's. */
const CONTROLLER_TOKEN = 'controller-secret';

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** The simulator with `web`, the README's token (or `tokens` instead) and a management token. */
async function cluster(tokens = readmePolicyAcl().tokens): Promise<RunningSimulator> {
  sim = await startSimulator({
    scenario: {
      nodes: [{ name: 'n1' }],
      jobs: [simpleJob('web', 'service', 1)],
      acl: { enabled: true, tokens },
    },
  });
  return sim;
}

/**
 * A terminal run of `web` as "Lock job" makes it: its lock in Nomad taken, then its provisional
 * record written to the job's history. `end` ends it as the run's last steps do: `recorded` (the
 * final record only, its release yet to come), `released` (the final record, then the release),
 * `released-first` (the failure path's release, before its record is ended).
 */
async function holdWeb(
  s: RunningSimulator,
  runId = HOLDER,
  end?: 'recorded' | 'released' | 'released-first',
): Promise<void> {
  const nomad = NomadClient.create({ address: s.address, token: OPERATOR_TOKEN });
  const lock = new NomadVariablesLock(nomad, {
    identity: localLockIdentity(),
    ttl: `${LOCAL_SHARED_LOCK_TTL_MS / 1000}s`,
  });
  const history = new NomadRunHistory(nomad);
  const lockId = `lock-of-${runId}`;
  await lock.take(KEY, runId, lockId);
  await history.put(KEY, provisionalRecord(1, { runId }));
  if (end === 'released-first') await lock.release(KEY, lockId);
  if (end === 'recorded' || end === 'released') await history.put(KEY, runRecord(1, { runId }));
  if (end === 'released') await lock.release(KEY, lockId);
  await nomad.close();
}

async function control(verb: ControlVerb, args: string[], token = OPERATOR_TOKEN) {
  const tty = fakeTerminal();
  tty.streams.stdin.isTTY = false;
  const env = { NOMAD_ADDR: sim?.address ?? '', NOMAD_TOKEN: token };
  const exitCode = await runControlCommand(verb, args, { ...tty.streams, env });
  return { exitCode, stdout: tty.output().replace(tty.stderr(), ''), stderr: tty.stderr() };
}

/**
 * Parks `pause` for run `runId` as the guard does (lib/steps/lock/control-step.ts): the pause
 * request written, then read and replaced by its parked marker, with the README's token.
 */
async function parkPause(s: RunningSimulator, pause: ControlRequest, runId = HOLDER): Promise<void> {
  const nomad = NomadClient.create({ address: s.address, token: OPERATOR_TOKEN });
  const requests = new NomadControlRequests(nomad);
  await requests.write(KEY, runId, pause);
  const stored = await requests.read(KEY, runId);
  if (stored === undefined) throw new Error('the pause was not read back');
  await requests.park(KEY, runId, stored);
  await nomad.close();
}

/** The writes and deletes among `log` that reached the request variable. */
const requestVariableWrites = (log: readonly { method: string; path: string }[]) =>
  log.filter((r) => r.method !== 'GET' && r.path.startsWith(`/v1/var/${controlRequestPath('web')}`));

/** The request variable's items, as Nomad holds them. */
const requestItems = () => sim?.control.state().variable('default', controlRequestPath('web'))?.items;

describe('nomad-restart pause|resume|stop <job>', () => {
  it('writes a pause for the run holding the job, attributed, to the job’s request variable', async () => {
    // Arrange
    await holdWeb(await cluster());

    // Act
    const out = await control('pause', ['web']);

    // Assert
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe(
      `Pause requested by ${operatorName()} for the restart of job "web" in namespace "default" (run "${HOLDER}"): ` +
        'it pauses before its next batch and asks whether to resume\n',
    );
    expect(requestItems()).toEqual({
      runId: HOLDER,
      verb: 'pause',
      requestedBy: operatorName(),
      via: 'terminal',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('replaces a recorded pause with a resume, and a stop goes through as well', async () => {
    // Arrange
    await holdWeb(await cluster());
    await control('pause', ['web']);

    // Act
    const resumed = await control('resume', ['web']);
    const afterResume = requestItems()?.['verb'];
    const stopped = await control('stop', ['-namespace', 'default', 'web']);

    // Assert
    expect([resumed.exitCode, stopped.exitCode]).toEqual([0, 0]);
    expect(resumed.stdout).toContain('(run "local-run-1"): it goes on with its next batch');
    expect(afterResume).toBe('resume');
    expect(requestItems()?.['verb']).toBe('stop');
  });

  it('writes a resume for a run parked on its pause question, replacing its parked marker', async () => {
    // Arrange: the run turned bob's pause into its question, leaving the parked marker.
    const s = await cluster();
    await holdWeb(s);
    const pause = { verb: 'pause' as const, requestedBy: 'bob', via: 'terminal' as const, at: Date.now() };
    await parkPause(s, pause);

    // Act
    const out = await control('resume', ['web']);

    // Assert
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain('(run "local-run-1"): it goes on with its next batch');
    expect(requestItems()).toMatchObject({ runId: HOLDER, verb: 'resume', requestedBy: operatorName() });
  });

  it('refuses a resume with nothing paused: exit 1, and no write to the request variable', async () => {
    // Arrange: a stale marker of another run of the job (ended while parked) pauses nothing.
    const s = await cluster();
    await holdWeb(s);
    const stale = { verb: 'pause' as const, requestedBy: 'bob', via: 'terminal' as const, at: Date.now() };
    await parkPause(s, stale, 'an-earlier-run');
    const before = requestItems();
    const logged = s.control.requestLog().length;

    // Act
    const out = await control('resume', ['web']);

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(
      'The restart of job "web" in namespace "default" is not paused: there is nothing to resume\n',
    );
    expect(requestItems()).toEqual(before);
    expect(requestVariableWrites(s.control.requestLog().slice(logged))).toEqual([]);
  });

  it('refuses a pause of a run already parked on its pause question, writing nothing', async () => {
    // Arrange
    const s = await cluster();
    await holdWeb(s);
    await parkPause(s, { verb: 'pause', requestedBy: 'bob', via: 'terminal', at: Date.now() });
    const logged = s.control.requestLog().length;

    // Act
    const out = await control('pause', ['web']);

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(
      'The restart of job "web" in namespace "default" is already paused: its pause question waits for an answer (resume or stop it)\n',
    );
    expect(requestItems()).toMatchObject({ verb: 'paused', requestedBy: 'bob' });
    expect(requestVariableWrites(s.control.requestLog().slice(logged))).toEqual([]);
  });

  it.each([
    {
      name: 'a job no run holds',
      verb: 'pause' as const,
      args: ['web'],
      held: false,
      expectedErr: 'No restart of job "web" in namespace "default" is running: no run holds its lock\n',
    },
    {
      name: '-namespace "*"',
      verb: 'stop' as const,
      args: ['-namespace', '*', 'web'],
      held: true,
      expectedErr:
        'Invalid -namespace value "*": a request is for one job, in one namespace\n' +
        "For additional help try 'nomad-restart stop -help'\n",
    },
  ])('refuses $name with one line and exit 1, writing nothing', async ({ verb, args, held, expectedErr }) => {
    // Arrange
    const s = await cluster();
    if (held) await holdWeb(s);

    // Act
    const out = await control(verb, args);

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(expectedErr);
    expect(requestItems()).toBeUndefined();
  });

  it.each([
    { name: 'released its lock after its final record', end: 'released' as const },
    {
      name: 'released its lock before its record was ended (the failure path)',
      end: 'released-first' as const,
    },
    { name: 'wrote its final record, its release still to come', end: 'recorded' as const },
  ])('refuses a job whose last run $name, though its lock variable still names it', async ({ end }) => {
    // Arrange
    const s = await cluster();
    await holdWeb(s, 'ended-run', end);

    // Act
    const out = await control('stop', ['web']);

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(
      'No restart of job "web" in namespace "default" is running: no run holds its lock\n',
    );
    expect(requestItems()).toBeUndefined();
  });

  it('writes for the run that took the lock variable an ended run left', async () => {
    // Arrange
    const s = await cluster();
    await holdWeb(s, 'ended-run', 'released');
    await holdWeb(s, HOLDER);

    // Act
    const out = await control('stop', ['web']);

    // Assert
    expect(out.exitCode).toBe(0);
    expect(requestItems()).toMatchObject({ runId: HOLDER, verb: 'stop' });
  });

  it.each([
    { lacking: 'write', prefix: CONTROL_REQUEST_PREFIX, kept: ['read', 'destroy'] },
    { lacking: 'read', prefix: RUN_HISTORY_PREFIX, kept: ['write'] },
  ])('names the capability a token without $lacking on $prefix* lacks', async ({ lacking, prefix, kept }) => {
    // Arrange: the run holds the README's token; the controller's is the README's, less one capability.
    const token = readmePolicyToken();
    const variables = Object.fromEntries(
      Object.entries(token.variables ?? {}).map(([ns, paths]) => [ns, { ...paths, [`${prefix}*`]: kept }]),
    );
    await holdWeb(
      await cluster([
        token,
        { ...token, secret: CONTROLLER_TOKEN, name: 'controller', variables },
        { secret: MANAGEMENT_TOKEN, management: true },
      ]),
    );

    // Act
    const out = await control('pause', ['web'], CONTROLLER_TOKEN);

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(
      `Nomad denied the request: the token needs the variables capability "${lacking}" on path "${prefix}*" ` +
        'in namespace "default" (docs/run-control.md)\n',
    );
    expect(requestItems()).toBeUndefined();
  });
});
