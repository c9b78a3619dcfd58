/**
 * The job's shared lock (a Nomad variable) against the simulator over HTTP with ACLs on, as every
 * production cluster runs, and a token holding exactly the README's policy (a management token
 * only sets things up and looks behind the scenes). Nomad shows a variable's lock to management
 * tokens only, so the lock is renewed and released with the ID its taker chose and kept, never
 * read back. One holder; who holds it is read from the items after Nomad's 409; a renewal Nomad
 * refuses is a lost lock naming who holds the job now; a release leaves the variable for the next
 * run to take; each capability of the policy taken away in turn gives its documented answer; a
 * Nomad without the lock API is found out and locks nothing; the pair with the engine's own lock
 * keeps the ID where only the run reads it.
 */
import { jest } from '@jest/globals';
import { NomadClient } from '../../lib/nomad';
import {
  JobLockLostError,
  MemoryJobLock,
  NomadVariablesLock,
  PairedJobLock,
  SharedLockHeldError,
  SharedLockPermissionError,
  SharedLockUnsupportedError,
  sharedLockPath,
} from '../../lib/stores';
import { type RunningSimulator, startSimulator, type VariablesApi } from '../../sim/index';
import {
  type LockCapability,
  MANAGEMENT_TOKEN,
  OPERATOR_TOKEN,
  readmePolicyAcl,
} from '../fixtures/readme-policy';
import { get, put } from '../sim/helpers/http';

const KEY = { namespace: 'default', jobId: 'web' };
const PATH = sharedLockPath('web');
const HERE = { engine: 'local', who: 'alice', host: 'laptop-1', pid: '100' };
const ELSEWHERE = { engine: 'local', who: 'bob', host: 'laptop-2', pid: '200' };
const ID_1 = '11111111-1111-4111-8111-111111111111';
const ID_2 = '22222222-2222-4222-8222-222222222222';

let sim: RunningSimulator | undefined;
let clients: NomadClient[] = [];
/** What the lock logged, by level. */
const logged = { debug: [] as string[], warn: [] as string[] };
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  await sim?.close();
  sim = undefined;
  logged.debug = [];
  logged.warn = [];
  jest.restoreAllMocks();
});
const log = {
  debug: (message: string) => logged.debug.push(message),
  warn: (message: string) => logged.warn.push(message),
};

/** A simulator with ACLs on: the README's policy (less `without`) in `default` and `ops`. */
async function simulator(options: { without?: LockCapability; api?: VariablesApi } = {}) {
  sim = await startSimulator({
    scenario: {
      nodes: [],
      jobs: [],
      namespaces: ['ops'],
      acl: readmePolicyAcl(['default', 'ops'], options.without),
    },
  });
  if (options.api !== undefined) sim.control.setVariablesApi(options.api);
}

const running = (): RunningSimulator => {
  if (sim === undefined) throw new Error('no simulator');
  return sim;
};

/** A lock of the process `identity`, through the README's token. */
function lockAs(identity: typeof HERE): NomadVariablesLock {
  const client = NomadClient.create({ address: running().address, token: OPERATOR_TOKEN });
  clients.push(client);
  return new NomadVariablesLock(client, { identity, ttl: '60s', now: () => Date.UTC(2026, 10, 25, 15), log });
}

/** The job's lock variable as the simulator holds it. */
const lockVariable = (namespace = 'default', jobId = 'web') =>
  running().control.state().variable(namespace, sharedLockPath(jobId));

/** What a management token does behind the run's back: frees the lock at once. */
const releaseBehindTheRun = (id: string) =>
  put(running().address, `/v1/var/${PATH}?lock-release`, { Path: PATH, Lock: { ID: id } }, MANAGEMENT_TOKEN);

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

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

describe('NomadVariablesLock with the README’s policy', () => {
  beforeEach(() => simulator());

  it('takes the lock under the ID it chose; a reader sees the holder, and only management the ID', async () => {
    // Act
    await lockAs(HERE).take(KEY, 'run-1', ID_1);

    // Assert
    const asOperator = await get<{ Items: Record<string, string>; Lock?: unknown }>(
      running().address,
      `/v1/var/${PATH}`,
      OPERATOR_TOKEN,
    );
    const asManagement = await get<{ Lock?: { ID: string } }>(
      running().address,
      `/v1/var/${PATH}`,
      MANAGEMENT_TOKEN,
    );
    expect(asOperator.json.Items['runId']).toBe('run-1');
    expect(asOperator.json.Lock).toBeUndefined();
    expect(asManagement.json.Lock?.ID).toBe(ID_1);
  });

  it('tells the next run who holds the job, since when, from where', async () => {
    // Arrange
    await lockAs(HERE).take(KEY, 'run-1', ID_1);

    // Act
    const held = await caught(lockAs(ELSEWHERE).take(KEY, 'run-2', ID_2));

    // Assert
    expect(held).toBeInstanceOf(SharedLockHeldError);
    expect(held).toMatchObject({
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
    expect(lockVariable()?.lock?.id).toBe(ID_1);
  });

  it('calls a holder of this same process askable', async () => {
    // Arrange
    await lockAs(HERE).take(KEY, 'run-1', ID_1);

    // Act
    const sameProcess = await caught(lockAs(HERE).take(KEY, 'run-2', ID_2));

    // Assert
    expect(sameProcess).toMatchObject({ name: 'SharedLockHeldError', askable: true });
  });

  it('takes again under the ID it kept, as a take retried after its answer was lost', async () => {
    // Arrange
    await lockAs(HERE).take(KEY, 'run-1', ID_1);

    // Act
    await lockAs(HERE).take(KEY, 'run-1', ID_1);

    // Assert
    expect(lockVariable()?.lock?.id).toBe(ID_1);
  });

  it('renews with the ID it kept, without reading the variable', async () => {
    // Arrange
    const lock = lockAs(HERE);
    await lock.take(KEY, 'run-1', ID_1);
    running().control.resetCounters();

    // Act
    await lock.renew(KEY, 'run-1', ID_1);

    // Assert
    expect(running().control.counters()).toEqual({ 'PUT /v1/var/:path': 1, total: 1 });
    expect(lockVariable()?.lock?.id).toBe(ID_1);
  });

  it.each([
    {
      name: 'taken by another run',
      meanwhile: async () => {
        await releaseBehindTheRun(ID_1);
        await lockAs(ELSEWHERE).take(KEY, 'run-2', ID_2);
      },
      message:
        'The job\'s lock in Nomad was lost: it is held by run "run-2" (started by bob on laptop-2 with the local engine, since 2026-11-25T15:00:00Z) now',
      holder: 'run-2',
    },
    {
      name: 'freed without a renewal',
      meanwhile: () => releaseBehindTheRun(ID_1),
      message: "The job's lock in Nomad was lost: Nomad freed it (it was not renewed within its TTL)",
      holder: undefined,
    },
    {
      name: 'its variable deleted',
      meanwhile: async () => {
        await releaseBehindTheRun(ID_1);
        await running().control.state();
        await fetch(`${running().address}/v1/var/${PATH}`, {
          method: 'DELETE',
          headers: { 'X-Nomad-Token': MANAGEMENT_TOKEN },
        });
      },
      message: "The job's lock in Nomad was lost: its variable was deleted",
      holder: undefined,
    },
  ])('calls the lock lost when Nomad refuses its renewal: $name', async ({ meanwhile, message, holder }) => {
    // Arrange
    const lock = lockAs(HERE);
    await lock.take(KEY, 'run-1', ID_1);
    await meanwhile();

    // Act
    const lost = await caught(lock.renew(KEY, 'run-1', ID_1));

    // Assert
    expect(lost).toBeInstanceOf(JobLockLostError);
    expect((lost as JobLockLostError).message).toBe(message);
    expect((lost as JobLockLostError).holder?.runId).toBe(holder);
  });

  it('is released only under its ID, leaving its variable with the last holder’s items, and no log line', async () => {
    // Arrange
    await lockAs(HERE).take(KEY, 'run-1', ID_1);
    running().control.resetCounters();

    // Act
    const wrong = await lockAs(ELSEWHERE).release(KEY, ID_2);
    const right = await lockAs(HERE).release(KEY, ID_1);
    const again = await lockAs(HERE).release(KEY, ID_1);

    // Assert: three lock-release requests and nothing else (no delete, as Nomad's release keeps it).
    expect([wrong, right, again]).toEqual([false, true, false]);
    expect(lockVariable()).toMatchObject({ items: { runId: 'run-1', who: 'alice' } });
    expect(lockVariable()?.lock).toBeUndefined();
    expect(
      running()
        .control.requestLog()
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([`PUT /v1/var/${PATH}`, `PUT /v1/var/${PATH}`, `PUT /v1/var/${PATH}`]);
    expect(logged).toEqual({ debug: [], warn: [] });
  });

  it('lets the next run acquire the variable a released lock left', async () => {
    // Arrange
    await lockAs(HERE).take(KEY, 'run-1', ID_1);
    await lockAs(HERE).release(KEY, ID_1);

    // Act
    await lockAs(ELSEWHERE).take(KEY, 'run-2', ID_2);

    // Assert
    expect(lockVariable()?.items).toMatchObject({ runId: 'run-2', who: 'bob' });
    expect(lockVariable()?.lock?.id).toBe(ID_2);
  });
});

describe('the README’s policy with one lock capability taken away', () => {
  it('without "write": refused, naming the capability, the path, the policy and the way out', async () => {
    // Arrange
    await simulator({ without: 'write' });

    // Act
    const denied = await caught(lockAs(HERE).take(KEY, 'run-1', ID_1));

    // Assert
    expect(denied).toBeInstanceOf(SharedLockPermissionError);
    expect((denied as Error).message).toBe(
      'Nomad denied the job\'s shared lock: the token needs the variables capability "write" on path ' +
        '"nomad-restart/locks/*" in namespace "default" (namespace "default" { variables { path ' +
        '"nomad-restart/locks/*" { capabilities = ["read", "write"] } } }), or set ' +
        'NOMAD_RESTART_VARIABLES_LOCK=false to restart without it',
    );
    expect(lockVariable()).toBeUndefined();
  });

  it('without "read": the lock holds, and the next run is refused with the capability that would name the holder', async () => {
    // Arrange
    await simulator({ without: 'read' });
    await lockAs(HERE).take(KEY, 'run-1', ID_1);

    // Act
    const held = await caught(lockAs(ELSEWHERE).take(KEY, 'run-2', ID_2));

    // Assert
    expect(held).toBeInstanceOf(SharedLockHeldError);
    expect(held).toMatchObject({ holder: 'unknown', details: undefined });
    expect(logged.warn).toEqual([expect.stringContaining('the token needs the variables capability "read"')]);
    await expect(lockAs(HERE).release(KEY, ID_1)).resolves.toBe(true);
  });
});

describe('a Nomad without the lock API', () => {
  it.each([
    {
      api: 'absent' as const,
      what: 'Nomad answered the lock request for "nomad-restart/locks/web" with 404: it has no variables (Nomad before 1.4)',
      left: undefined,
      debug: [],
    },
    {
      api: 'no-locks' as const,
      what: 'Nomad answered the lock request for "nomad-restart/locks/web" without a lock: its variables have no locks (Nomad 1.4 to 1.6)',
      // The take-back is a delete, which the README's policy does not grant: the unlocked variable stays.
      left: { runId: 'run-1' },
      debug: ['Lock variable left: the token lacks the "destroy" capability'],
    },
  ])(
    '($api) is named, with the switch that restarts without it, and locks nothing',
    async ({ api, what, left, debug }) => {
      // Arrange
      await simulator({ api });

      // Act
      const unsupported = await caught(lockAs(HERE).take(KEY, 'run-1', ID_1));

      // Assert
      expect(unsupported).toBeInstanceOf(SharedLockUnsupportedError);
      expect((unsupported as Error).message).toBe(
        `${what}. The job's shared lock needs Nomad 1.7 or later; set NOMAD_RESTART_VARIABLES_LOCK=false to restart without it (namespace "default")`,
      );
      expect(lockVariable()?.items).toEqual(left === undefined ? undefined : expect.objectContaining(left));
      expect(lockVariable()?.lock).toBeUndefined();
      expect(logged).toEqual({ debug, warn: [] });
    },
  );
});

describe('PairedJobLock with the README’s policy', () => {
  beforeEach(() => simulator());

  const pairAs = (identity: typeof HERE, own = new MemoryJobLock(), required = false) => ({
    own,
    pair: new PairedJobLock(own, lockAs(identity), { required }),
  });

  it('keeps the shared lock’s ID beside its own lock, renews and releases with it', async () => {
    // Arrange
    const { own, pair } = pairAs(HERE);

    // Act
    await pair.take(KEY, { owner: 'run-1', ttlSeconds: 60 });
    const kept = (await own.held(KEY, 'run-1'))?.sharedLockId;
    await pair.refresh(KEY, { owner: 'run-1', ttlSeconds: 60 });
    const released = await pair.release(KEY, 'run-1');

    // Assert
    expect(kept).toMatch(/^[0-9a-f-]{36}$/);
    expect(released).toBe(true);
    expect(own.holder(KEY)).toBeUndefined();
    expect(lockVariable()?.lock).toBeUndefined();
  });

  it('takes again under the kept ID when a take is retried', async () => {
    // Arrange
    const { own, pair } = pairAs(HERE);
    await pair.take(KEY, { owner: 'run-1', ttlSeconds: 60 });
    const kept = (await own.held(KEY, 'run-1'))?.sharedLockId;

    // Act
    await pair.take(KEY, { owner: 'run-1', ttlSeconds: 60 });

    // Assert
    expect(lockVariable()?.lock?.id).toBe(kept);
  });

  it('says the run lost the job when the shared lock was taken meanwhile', async () => {
    // Arrange
    const { own, pair } = pairAs(HERE);
    await pair.take(KEY, { owner: 'run-1', ttlSeconds: 60 });
    await releaseBehindTheRun((await own.held(KEY, 'run-1'))?.sharedLockId ?? '');
    await lockAs(ELSEWHERE).take(KEY, 'run-2', ID_2);

    // Act
    const lost = await caught(pair.refresh(KEY, { owner: 'run-1', ttlSeconds: 60 }));

    // Assert
    expect(lost).toBeInstanceOf(JobLockLostError);
    expect((lost as Error).message).toContain('it is held by run "run-2"');
  });

  it('says the run lost the job when its own lock is another run’s', async () => {
    // Arrange
    const { own, pair } = pairAs(HERE);
    await pair.take(KEY, { owner: 'run-1', ttlSeconds: 60 });
    await own.takeOver(KEY, { owner: 'run-2', ttlSeconds: 60 }, 'run-1');

    // Act
    const lost = await caught(pair.refresh(KEY, { owner: 'run-1', ttlSeconds: 60 }));

    // Assert
    expect(lost).toBeInstanceOf(JobLockLostError);
  });

  it('gives its own lock back when another run holds the shared one, so it blocks nobody', async () => {
    // Arrange
    await lockAs(ELSEWHERE).take(KEY, 'run-elsewhere', ID_2);
    const { own, pair } = pairAs(HERE);

    // Act
    const held = await caught(pair.take(KEY, { owner: 'run-here', ttlSeconds: 60 }));

    // Assert
    expect(held).toBeInstanceOf(SharedLockHeldError);
    expect(own.holder(KEY)).toBeUndefined();
  });

  it('frees a dead run’s shared locks in every namespace with the IDs its engine kept', async () => {
    // Arrange
    const own = new MemoryJobLock();
    const { pair } = pairAs(HERE, own);
    await pair.take(KEY, { owner: 'run-dead', ttlSeconds: 60 });
    await pair.take({ namespace: 'ops', jobId: 'api' }, { owner: 'run-dead', ttlSeconds: 60 });
    await pair.take({ namespace: 'ops', jobId: 'db' }, { owner: 'run-alive', ttlSeconds: 60 });

    // Act
    const released = await pair.releaseByOwner('run-dead');

    // Assert
    expect(released).toEqual([KEY, { namespace: 'ops', jobId: 'api' }]);
    expect(lockVariable()?.lock).toBeUndefined();
    expect(lockVariable('ops', 'api')?.lock).toBeUndefined();
    expect(lockVariable('ops', 'db')?.lock).toBeDefined();
  });

  it('takes over from a dead run, freeing its shared lock with the ID kept for it', async () => {
    // Arrange
    const own = new MemoryJobLock();
    await pairAs(ELSEWHERE, own).pair.take(KEY, { owner: 'run-dead', ttlSeconds: 60 });

    // Act
    await pairAs(HERE, own).pair.takeOver(KEY, { owner: 'run-2', ttlSeconds: 60 }, 'run-dead');

    // Assert
    expect(own.holder(KEY)).toBe('run-2');
    expect(lockVariable()?.items['runId']).toBe('run-2');
  });
});

describe('PairedJobLock when the shared lock is out of reach', () => {
  it.each([
    {
      name: 'a token without "write"',
      setup: { without: 'write' as const },
      error: SharedLockPermissionError,
    },
    { name: 'a Nomad before 1.7', setup: { api: 'no-locks' as const }, error: SharedLockUnsupportedError },
  ])(
    'goes on with its own lock and says why when optional, refuses when required: $name',
    async ({ setup, error }) => {
      // Arrange
      await simulator(setup);
      const own = new MemoryJobLock();
      const optional = new PairedJobLock(own, lockAs(HERE), { required: false });
      const required = new PairedJobLock(new MemoryJobLock(), lockAs(HERE), { required: true });

      // Act
      await optional.take(KEY, { owner: 'run-1', ttlSeconds: 60 });
      const refused = await caught(required.take(KEY, { owner: 'run-2', ttlSeconds: 60 }));
      await optional.refresh(KEY, { owner: 'run-1', ttlSeconds: 60 });

      // Assert
      expect(own.holder(KEY)).toBe('run-1');
      expect((await own.held(KEY, 'run-1'))?.sharedLockId).toBeUndefined();
      expect(optional.sharedSkipped).toBeInstanceOf(error);
      expect(refused).toBeInstanceOf(error);
      await expect(optional.release(KEY, 'run-1')).resolves.toBe(true);
      // Nothing is locked (a Nomad before 1.7 keeps the plain write the README's token may not delete).
      expect(lockVariable()?.lock).toBeUndefined();
    },
  );
});
