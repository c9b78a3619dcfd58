/**
 * The job's shared lock (a Nomad variable) against the simulator over HTTP: one holder, who it
 * is read back after Nomad's 409, a refresh by the holder, a takeover only from the run named,
 * release by the holder only, the status-change path's release by owner in any namespace, the
 * message for a token that may not, and the pair with the engine's own lock. A released lock
 * leaves no variable behind (checked against the release's index, so a run that took the lock
 * meanwhile keeps its own), or, for a token without `destroy`, leaves it quietly.
 */
import { jest } from '@jest/globals';
import { NomadClient, Variables } from '../../lib/nomad';
import {
  MemoryJobLock,
  NomadVariablesLock,
  PairedJobLock,
  SharedLockHeldError,
  SharedLockPermissionError,
  sharedLockPath,
} from '../../lib/stores';
import { type AclSpec, type RunningSimulator, startSimulator } from '../../sim/index';

const KEY = { namespace: 'default', jobId: 'web' };
const HERE = { engine: 'local', who: 'alice', host: 'laptop-1', pid: '100' };
const ELSEWHERE = { engine: 'local', who: 'bob', host: 'laptop-2', pid: '200' };

let sim: RunningSimulator | undefined;
let clients: NomadClient[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  await sim?.close();
  sim = undefined;
});

async function simulator(acl?: AclSpec) {
  sim = await startSimulator({
    scenario: { nodes: [], jobs: [], namespaces: ['ops'], ...(acl === undefined ? {} : { acl }) },
  });
}

/** The running simulator (each describe below starts one). */
const running = (): RunningSimulator => {
  if (sim === undefined) throw new Error('no simulator');
  return sim;
};

/** What the lock logged, by level. */
const logged = { debug: [] as string[], warn: [] as string[] };
afterEach(() => {
  logged.debug = [];
  logged.warn = [];
  jest.restoreAllMocks();
});
const log = {
  debug: (message: string) => logged.debug.push(message),
  warn: (message: string) => logged.warn.push(message),
};

function lockAs(identity: typeof HERE, token?: string): NomadVariablesLock {
  const client = NomadClient.create({
    address: running().address,
    ...(token === undefined ? {} : { token }),
  });
  clients.push(client);
  return new NomadVariablesLock(client, {
    identity,
    ttl: '60s',
    now: () => Date.UTC(2026, 10, 25, 15),
    log,
  });
}

/** The job's lock variable as the simulator holds it. */
const lockVariable = (namespace = 'default', jobId = 'web') =>
  running().control.state().variable(namespace, sharedLockPath(jobId));

describe('sharedLockPath', () => {
  it.each([
    { jobId: 'web', path: 'nomad-restart/locks/web' },
    { jobId: 'batch/nightly.job', path: 'nomad-restart/locks/batch~2fnightly~2ejob' },
    { jobId: 'tilde~x', path: 'nomad-restart/locks/tilde~7ex' },
  ])('writes $jobId as a valid variable path', ({ jobId, path }) => {
    // Act / Assert
    expect(sharedLockPath(jobId)).toBe(path);
  });

  it('keeps a long job ID within Nomad’s 128 characters, distinct from its neighbours', () => {
    // Act
    const a = sharedLockPath(`${'x'.repeat(200)}a`);
    const b = sharedLockPath(`${'x'.repeat(200)}b`);

    // Assert
    expect(a.length).toBeLessThanOrEqual(128);
    expect(a).toMatch(/^nomad-restart\/locks\/[A-Za-z0-9_~-]+$/);
    expect(a).not.toBe(b);
  });
});

describe('NomadVariablesLock on the simulator', () => {
  beforeEach(() => simulator());

  it('lets one run hold the job and tells the next who holds it, since when, from where', async () => {
    // Arrange
    await lockAs(HERE).acquire(KEY, 'run-1');

    // Act
    const lost = await lockAs(ELSEWHERE)
      .acquire(KEY, 'run-2')
      .catch((e: unknown) => e);

    // Assert
    expect(lost).toBeInstanceOf(SharedLockHeldError);
    expect(lost).toMatchObject({
      holder: 'run-1',
      askable: false,
      details: {
        runId: 'run-1',
        who: 'alice',
        host: 'laptop-1',
        engine: 'local',
        since: '2026-11-25T15:00:00Z',
      },
    });
    expect(running().control.state().variable('default', sharedLockPath('web'))?.items['runId']).toBe(
      'run-1',
    );
  });

  it('renews the lock for its holder, keeping the lock ID', async () => {
    // Arrange
    const lock = lockAs(HERE);
    await lock.acquire(KEY, 'run-1');
    const before = running().control.state().variable('default', sharedLockPath('web'))?.lock?.id;

    // Act
    await lock.acquire(KEY, 'run-1');

    // Assert
    expect(running().control.state().variable('default', sharedLockPath('web'))?.lock?.id).toBe(before);
    expect(running().control.counters()['PUT /v1/var/:path']).toBe(3); // acquire, acquire (409), renew
  });

  it('calls a holder of this same process askable, one elsewhere not', async () => {
    // Arrange
    await lockAs(HERE).acquire(KEY, 'run-1');

    // Act
    const sameProcess = await lockAs(HERE)
      .acquire(KEY, 'run-2')
      .catch((e: unknown) => e);

    // Assert
    expect(sameProcess).toMatchObject({ name: 'SharedLockHeldError', askable: true });
  });

  it('takes the lock over only from the run named as the one no longer running', async () => {
    // Arrange
    await lockAs(HERE).acquire(KEY, 'run-dead');

    // Act
    const fromWrongRun = await lockAs(HERE)
      .takeOver(KEY, 'run-3', 'run-other')
      .catch((e: unknown) => e);
    await lockAs(HERE).takeOver(KEY, 'run-2', 'run-dead');

    // Assert
    expect(fromWrongRun).toBeInstanceOf(SharedLockHeldError);
    expect(running().control.state().variable('default', sharedLockPath('web'))?.items['runId']).toBe(
      'run-2',
    );
  });

  it('is released by its holder only', async () => {
    // Arrange
    await lockAs(HERE).acquire(KEY, 'run-1');

    // Act
    const byOther = await lockAs(ELSEWHERE).release(KEY, 'run-2');
    const byHolder = await lockAs(HERE).release(KEY, 'run-1');
    const again = await lockAs(HERE).release(KEY, 'run-1');

    // Assert
    expect([byOther, byHolder, again]).toEqual([false, true, false]);
    expect(running().control.state().variable('default', sharedLockPath('web'))?.lock).toBeUndefined();
  });

  it('releases (and deletes) every job lock of a dead run, in any namespace, and no other run’s', async () => {
    // Arrange
    const lock = lockAs(HERE);
    await lock.acquire(KEY, 'run-dead');
    await lock.acquire({ namespace: 'ops', jobId: 'api' }, 'run-dead');
    await lock.acquire({ namespace: 'ops', jobId: 'db' }, 'run-alive');

    // Act
    const released = await lock.releaseByOwner('run-dead');

    // Assert
    expect(released).toBe(2);
    expect(lockVariable('ops', 'db')?.lock).toBeDefined();
    expect(lockVariable('ops', 'api')).toBeUndefined();
    expect(lockVariable()).toBeUndefined();
  });
});

describe('NomadVariablesLock with a token that may not', () => {
  beforeEach(() =>
    simulator({ enabled: true, tokens: [{ secret: 'jobs-only', namespaces: { default: ['read-job'] } }] }),
  );

  it('names the capability, the path and the policy, and the way out', async () => {
    // Act
    const denied = await lockAs(HERE, 'jobs-only')
      .acquire(KEY, 'run-1')
      .catch((e: unknown) => e);

    // Assert
    expect(denied).toBeInstanceOf(SharedLockPermissionError);
    expect((denied as Error).message).toBe(
      'Nomad denied the job\'s shared lock: the token needs the variables capabilities "read" and "write" on path ' +
        '"nomad-restart/locks/*" in namespace "default" (namespace "default" { variables { path ' +
        '"nomad-restart/locks/*" { capabilities = ["read", "write"] } } }), or set ' +
        'NOMAD_RESTART_VARIABLES_LOCK=false to restart without it',
    );
  });

  it('leaves the run its own lock, and says why, when the shared lock is optional; refuses when required', async () => {
    // Arrange
    const own = new MemoryJobLock();
    const optional = new PairedJobLock(own, lockAs(HERE, 'jobs-only'), {
      required: false,
      renewShared: true,
    });
    const required = new PairedJobLock(new MemoryJobLock(), lockAs(HERE, 'jobs-only'), {
      required: true,
      renewShared: true,
    });

    // Act
    await optional.acquire(KEY, 'run-1', 60);
    const refused = await required.acquire(KEY, 'run-2', 60).catch((e: unknown) => e);

    // Assert
    expect(own.holder(KEY)).toBe('run-1');
    expect(optional.sharedDenied).toBeInstanceOf(SharedLockPermissionError);
    expect(refused).toBeInstanceOf(SharedLockPermissionError);
    await expect(optional.release(KEY, 'run-1')).resolves.toBe(true);
  });
});

describe('PairedJobLock', () => {
  beforeEach(() => simulator());

  it('gives its own lock back when another run holds the shared one, so it blocks nobody', async () => {
    // Arrange
    await lockAs(ELSEWHERE).acquire(KEY, 'run-elsewhere');
    const own = new MemoryJobLock();
    const pair = new PairedJobLock(own, lockAs(HERE), { required: false, renewShared: true });

    // Act
    const lost = await pair.acquire(KEY, 'run-here', 60).catch((e: unknown) => e);

    // Assert
    expect(lost).toBeInstanceOf(SharedLockHeldError);
    expect(own.holder(KEY)).toBeUndefined();
  });
});

describe('NomadVariablesLock leaves no variable behind', () => {
  beforeEach(() => simulator());

  it('deletes the variable when its holder releases the lock', async () => {
    // Arrange
    const lock = lockAs(HERE);
    await lock.acquire(KEY, 'run-1');

    // Act
    const released = await lock.release(KEY, 'run-1');

    // Assert
    expect(released).toBe(true);
    expect(lockVariable()).toBeUndefined();
    expect(running().control.counters()['DELETE /v1/var/:path']).toBe(1);
    expect(logged).toEqual({ debug: [], warn: [] });
  });

  it('never deletes the lock of a run that took it between the release and the delete', async () => {
    // Arrange: the other run's acquire lands after the release answered, before the delete.
    await lockAs(HERE).acquire(KEY, 'run-1');
    const other = lockAs(ELSEWHERE);
    const checkedDelete = Variables.prototype.checkedDelete;
    let releasedAt: unknown;
    jest.spyOn(Variables.prototype, 'checkedDelete').mockImplementationOnce(async function (
      this: Variables,
      ...args
    ) {
      releasedAt = (await this.read(args[0], { namespace: 'default' }))?.ModifyIndex;
      await other.acquire(KEY, 'run-2');
      return checkedDelete.apply(this, args);
    });

    // Act
    const released = await lockAs(HERE).release(KEY, 'run-1');

    // Assert
    expect(released).toBe(true);
    const deletes = running()
      .control.requestLog()
      .filter((r) => r.method === 'DELETE');
    expect(deletes).toEqual([
      expect.objectContaining({ query: `cas=${releasedAt}&namespace=default`, status: 409 }),
    ]);
    expect(lockVariable()?.items['runId']).toBe('run-2');
    expect(lockVariable()?.lock).toBeDefined();
    expect(logged).toEqual({ debug: [], warn: [] });
  });

  it('counts the lock released when Nomad fails the delete, and logs the variable left as a warning', async () => {
    // Arrange
    const lock = lockAs(HERE);
    await lock.acquire(KEY, 'run-1');
    running().control.injectFault({ pathSuffix: sharedLockPath('web'), method: 'DELETE', status: 500 });

    // Act
    const released = await lock.release(KEY, 'run-1');

    // Assert
    expect(released).toBe(true);
    expect(lockVariable()?.lock).toBeUndefined();
    expect(logged).toEqual({ debug: [], warn: ['Lock variable left: Nomad did not delete it'] });
  });

  it('deletes a dead run’s variable on takeover before taking the lock afresh', async () => {
    // Arrange
    await lockAs(ELSEWHERE).acquire(KEY, 'run-dead');
    const before = lockVariable()?.lock?.id;

    // Act
    await lockAs(HERE).takeOver(KEY, 'run-2', 'run-dead');

    // Assert
    expect(running().control.counters()['DELETE /v1/var/:path']).toBe(1);
    expect(lockVariable()?.items['runId']).toBe('run-2');
    expect(lockVariable()?.lock?.id).not.toBe(before);
  });
});

describe('NomadVariablesLock with a token without destroy', () => {
  beforeEach(() =>
    simulator({
      enabled: true,
      tokens: [{ secret: 'locks', variables: { '*': { 'nomad-restart/locks/*': ['read', 'write'] } } }],
    }),
  );

  it('releases the lock and leaves the variable, with a debug line only', async () => {
    // Arrange
    const stderr = jest.spyOn(process.stderr, 'write');
    const lock = lockAs(HERE, 'locks');
    await lock.acquire(KEY, 'run-1');
    await lock.acquire({ namespace: 'ops', jobId: 'api' }, 'run-1');

    // Act
    const released = await lock.release(KEY, 'run-1');
    const byOwner = await lock.releaseByOwner('run-1');

    // Assert
    expect([released, byOwner]).toEqual([true, 1]);
    expect(lockVariable()).toMatchObject({ items: { runId: 'run-1' } });
    expect(lockVariable()?.lock).toBeUndefined();
    expect(lockVariable('ops', 'api')?.lock).toBeUndefined();
    expect(logged).toEqual({
      debug: [
        'Lock variable left: the token lacks the "destroy" capability',
        'Lock variable left: the token lacks the "destroy" capability',
      ],
      warn: [],
    });
    expect(stderr).not.toHaveBeenCalled();
    await expect(lockAs(ELSEWHERE, 'locks').acquire(KEY, 'run-2')).resolves.toBeUndefined();
  });
});
