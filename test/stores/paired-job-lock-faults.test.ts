/**
 * The job lock pair (the engine's own lock and the job's shared lock in Nomad) when Nomad does not
 * answer, against the simulator with ACLs on and the README's policy. Nomad gives a shared lock's
 * ID to its holder once, and only the engine's lock keeps it: whatever Nomad's failure, that ID
 * must outlive it, or the job stays locked until Nomad's TTL (24 h for an execution) frees it.
 * - A lock-acquire whose answer is lost (503 after Nomad took the lock): the run keeps its own
 *   lock and the ID, and the retried take holds the job.
 * - The cleanup of a dead run (`releaseByOwner`) that meets a 503 on the release: the engine's
 *   lock still keeps the ID, and the cleanup's retry frees the job at once.
 * - A takeover from a dead run that meets a 503 on the release of the dead run's lock: the dead
 *   run's lock still keeps its ID, and the retried takeover holds the job.
 */
import { NomadClient, UnexpectedResponseError } from '../../lib/nomad';
import { MemoryJobLock, NomadVariablesLock, PairedJobLock, sharedLockPath } from '../../lib/stores';
import { type RunningSimulator, startSimulator } from '../../sim/index';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';

const KEY = { namespace: 'default', jobId: 'web' };
const PATH = sharedLockPath('web');
const LEASE = { owner: 'run-1', ttlSeconds: 60 };
const IDENTITY = { engine: 'aws', who: 'AWS Step Functions', host: 'aws:us-east-1' };

let sim: RunningSimulator;
let client: NomadClient;
let own: MemoryJobLock;
let pair: PairedJobLock;

beforeEach(async () => {
  sim = await startSimulator({ scenario: { nodes: [], jobs: [], acl: readmePolicyAcl() } });
  client = NomadClient.create({ address: sim.address, token: OPERATOR_TOKEN });
  own = new MemoryJobLock();
  pair = new PairedJobLock(own, new NomadVariablesLock(client, { identity: IDENTITY, ttl: '24h' }), {
    required: false,
  });
});
afterEach(async () => {
  await client.close();
  await sim.close();
});

/** The job's lock variable as Nomad holds it. */
const lockVariable = () => sim.control.state().variable('default', PATH);

/** The next lock request (`PUT /v1/var/<path>?lock-…`) answers 503, after or before taking effect. */
const nextLockRequestFails = (afterHandling: boolean) =>
  sim.control.injectFault({ pathSuffix: PATH, method: 'PUT', nth: 1, status: 503, afterHandling });

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('PairedJobLock.take when Nomad answers 503', () => {
  it('keeps its own lock and the ID when Nomad took the lock but its answer was lost; the retry holds the job', async () => {
    // Arrange
    nextLockRequestFails(true);

    // Act
    const failed = await caught(pair.take(KEY, LEASE));
    const kept = (await own.held(KEY, 'run-1'))?.sharedLockId;
    await pair.take(KEY, LEASE);

    // Assert
    expect(failed).toBeInstanceOf(UnexpectedResponseError);
    expect(kept).toMatch(/^[0-9a-f-]{36}$/);
    expect(lockVariable()?.lock?.id).toBe(kept);
    expect(lockVariable()?.items['runId']).toBe('run-1');
    expect(own.holder(KEY)).toBe('run-1');
  });

  it('releases both on the way out when the take is never retried', async () => {
    // Arrange
    nextLockRequestFails(false);
    await caught(pair.take(KEY, LEASE));

    // Act
    const released = await pair.release(KEY, 'run-1');

    // Assert: Nomad never took the lock; the run's own lock is freed all the same.
    expect(released).toBe(true);
    expect(own.holder(KEY)).toBeUndefined();
    expect(lockVariable()).toBeUndefined();
  });
});

describe('PairedJobLock.releaseByOwner when Nomad answers 503', () => {
  it('frees Nomad’s lock first, so the cleanup’s retry frees the job without waiting for the TTL', async () => {
    // Arrange: the dead run holds both; Nomad fails the first lock-release.
    await pair.take(KEY, LEASE);
    nextLockRequestFails(false);

    // Act
    const failed = await caught(pair.releaseByOwner('run-1'));
    const keptAfterFailure = (await own.held(KEY, 'run-1'))?.sharedLockId;
    const released = await pair.releaseByOwner('run-1');

    // Assert
    expect(failed).toBeInstanceOf(UnexpectedResponseError);
    expect(keptAfterFailure).toMatch(/^[0-9a-f-]{36}$/);
    expect(released).toEqual([KEY]);
    expect(lockVariable()?.lock).toBeUndefined();
    expect(own.holder(KEY)).toBeUndefined();
  });
});

describe('PairedJobLock.takeOver when Nomad answers 503', () => {
  it('frees the dead run’s lock in Nomad first, so the retried takeover holds the job', async () => {
    // Arrange: a dead run holds both; Nomad fails the release of its lock.
    await pair.take(KEY, { owner: 'run-dead', ttlSeconds: 60 });
    const deadId = (await own.held(KEY, 'run-dead'))?.sharedLockId;
    nextLockRequestFails(false);

    // Act
    const failed = await caught(pair.takeOver(KEY, LEASE, 'run-dead'));
    const keptAfterFailure = (await own.held(KEY, 'run-dead'))?.sharedLockId;
    await pair.takeOver(KEY, LEASE, 'run-dead');

    // Assert
    expect(failed).toBeInstanceOf(UnexpectedResponseError);
    expect(keptAfterFailure).toBe(deadId);
    expect(own.holder(KEY)).toBe('run-1');
    expect(lockVariable()?.items['runId']).toBe('run-1');
    expect(lockVariable()?.lock?.id).toBe((await own.held(KEY, 'run-1'))?.sharedLockId);
  });
});
