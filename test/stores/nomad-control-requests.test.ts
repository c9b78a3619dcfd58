/**
 * Run-control requests in Nomad (the job's request variable, `nomad-restart/requests/<job>`)
 * against the simulator over HTTP with ACLs on and a token holding exactly the README's policy: a
 * requester writes, the holder reads what is for its run only and deletes it checked at the index
 * it read (a newer request survives); the pair with the engine's own lock answers the newer of its
 * two places and forgets a request with every older one; a token that may not read them is warned.
 * A pause that became the run's question is parked as a marker until the run's next safe point.
 */
import type { ControlRequest } from '../../lib/control/requests';
import { controlRequestPath, MemoryJobLock, NomadControlRequests, PairedJobLock } from '../../lib/stores';
import type { AclTokenSpec } from '../../sim/index';
import { MANAGEMENT_TOKEN, OPERATOR_TOKEN, readmePolicyToken } from '../fixtures/readme-policy';
import { simulatorPerTest } from './helpers/simulator-per-test';

const KEY = { namespace: 'default', jobId: 'web' };
const AT = Date.UTC(2026, 11, 7, 14, 0, 0, 123);
const PAUSE: ControlRequest = { verb: 'pause', requestedBy: 'bob@laptop-2', via: 'terminal', at: AT };
const RESUME: ControlRequest = { verb: 'resume', requestedBy: 'U0AAAAAAA', via: 'slack', at: AT + 5000 };
/** A token that may take the job's lock but not read the requests (a policy from before them). */
const LOCKS_ONLY = 'locks-only-secret';
/** A token that may read and delete the requests but not write them (no parked marker). */
const NO_WRITE = 'no-write-secret';

const { running, clientAs, log, warned } = simulatorPerTest(() => {
  const locksOnly: AclTokenSpec = {
    secret: LOCKS_ONLY,
    variables: { default: { 'nomad-restart/locks/*': ['read', 'write', 'destroy'] } },
  };
  return {
    nodes: [],
    jobs: [],
    acl: {
      enabled: true,
      tokens: [
        readmePolicyToken(),
        locksOnly,
        { secret: NO_WRITE, variables: { default: { 'nomad-restart/requests/*': ['read', 'destroy'] } } },
        { secret: MANAGEMENT_TOKEN, management: true },
      ],
    },
  };
});

/** The request store through `token` (the README's by default). */
function requestsAs(token = OPERATOR_TOKEN): NomadControlRequests {
  return new NomadControlRequests(clientAs(token), log);
}

const requestVariable = () => running().control.state().variable('default', controlRequestPath('web'));

describe('NomadControlRequests with the README’s policy', () => {
  it('writes a request its run reads back, attributed, with Nomad’s time in RFC 3339', async () => {
    // Arrange
    const requests = requestsAs();

    // Act
    await requests.write(KEY, 'run-1', PAUSE);
    const read = await requests.read(KEY, 'run-1');

    // Assert
    expect(read?.request).toEqual(PAUSE);
    expect(requestVariable()?.items).toEqual({
      runId: 'run-1',
      verb: 'pause',
      requestedBy: 'bob@laptop-2',
      via: 'terminal',
      at: '2026-12-07T14:00:00.123Z',
    });
  });

  it('reads nothing for another run of the job', async () => {
    // Arrange
    const requests = requestsAs();
    await requests.write(KEY, 'run-old', PAUSE);

    // Act
    const read = await requests.read(KEY, 'run-1');

    // Assert
    expect(read).toBeUndefined();
  });

  it('deletes a request acted on, but keeps a newer one written since it was read', async () => {
    // Arrange
    const requests = requestsAs();
    await requests.write(KEY, 'run-1', PAUSE);
    const first = await requests.read(KEY, 'run-1');
    if (first === undefined) throw new Error('no request');
    await requests.write(KEY, 'run-1', RESUME);

    // Act
    await requests.clear(KEY, first);
    const kept = await requests.read(KEY, 'run-1');
    const second = kept ?? first;
    await requests.clear(KEY, second);

    // Assert
    expect(kept?.request).toEqual(RESUME);
    expect(requestVariable()).toBeUndefined();
  });

  it('parks a pause as its marker: no request to read, the pause state parked', async () => {
    // Arrange
    const requests = requestsAs();
    await requests.write(KEY, 'run-1', PAUSE);
    const requested = await requests.pauseState(KEY, 'run-1');
    const stored = await requests.read(KEY, 'run-1');
    if (stored === undefined) throw new Error('no request');

    // Act
    await requests.park(KEY, 'run-1', stored);

    // Assert
    expect(requested).toBe('requested');
    expect(await requests.read(KEY, 'run-1')).toBeUndefined();
    expect(await requests.pauseState(KEY, 'run-1')).toBe('parked');
    expect(await requests.pauseState(KEY, 'run-2')).toBeUndefined();
    expect(requestVariable()?.items).toMatchObject({
      runId: 'run-1',
      verb: 'paused',
      requestedBy: 'bob@laptop-2',
    });
  });

  it('keeps a request written since the pause was read, instead of parking over it', async () => {
    // Arrange
    const requests = requestsAs();
    await requests.write(KEY, 'run-1', PAUSE);
    const stored = await requests.read(KEY, 'run-1');
    if (stored === undefined) throw new Error('no request');
    await requests.write(KEY, 'run-1', RESUME);

    // Act
    await requests.park(KEY, 'run-1', stored);

    // Assert
    expect((await requests.read(KEY, 'run-1'))?.request).toEqual(RESUME);
    expect(await requests.pauseState(KEY, 'run-1')).toBeUndefined();
  });

  it('deletes the pause instead of parking it, warned, with a token that may not write', async () => {
    // Arrange
    await requestsAs().write(KEY, 'run-1', PAUSE);
    const requests = requestsAs(NO_WRITE);
    const stored = await requests.read(KEY, 'run-1');
    if (stored === undefined) throw new Error('no request');

    // Act
    await requests.park(KEY, 'run-1', stored);

    // Assert
    expect(requestVariable()).toBeUndefined();
    expect(warned).toEqual([expect.stringContaining('"write" on path "nomad-restart/requests/*"')]);
  });

  it('warns and reads none with a token that may not read the requests', async () => {
    // Arrange
    await requestsAs().write(KEY, 'run-1', PAUSE);

    // Act
    const read = await requestsAs(LOCKS_ONLY).read(KEY, 'run-1');

    // Assert
    expect(read).toBeUndefined();
    expect(warned).toEqual([
      expect.stringContaining('"read" and "destroy" on path "nomad-restart/requests/*"'),
    ]);
  });
});

describe('PairedJobLock with the request variable', () => {
  const pairOf = (own: MemoryJobLock) =>
    new PairedJobLock(own, undefined, { required: false, requests: requestsAs() });

  it('answers the newer of the engine’s request and Nomad’s', async () => {
    // Arrange
    const own = new MemoryJobLock();
    const pair = pairOf(own);
    await own.acquire(KEY, { owner: 'run-1', ttlSeconds: 60 });
    await own.requestControl(KEY, 'run-1', PAUSE);
    await requestsAs().write(KEY, 'run-1', RESUME);

    // Act
    const newer = await pair.controlRequest(KEY, 'run-1');
    await own.requestControl(KEY, 'run-1', { ...PAUSE, at: RESUME.at + 1 });
    const newest = await pair.controlRequest(KEY, 'run-1');

    // Assert
    expect(newer).toEqual(RESUME);
    expect(newest).toEqual({ ...PAUSE, at: RESUME.at + 1 });
  });

  it('reads Nomad’s request only while the run holds the job', async () => {
    // Arrange
    const own = new MemoryJobLock();
    await requestsAs().write(KEY, 'run-1', PAUSE);

    // Act
    const read = await pairOf(own).controlRequest(KEY, 'run-1');

    // Assert
    expect(read).toBeUndefined();
  });

  it('forgets a request with every older one in both places, and keeps a newer one', async () => {
    // Arrange
    const own = new MemoryJobLock();
    const pair = pairOf(own);
    await own.acquire(KEY, { owner: 'run-1', ttlSeconds: 60 });
    await own.requestControl(KEY, 'run-1', PAUSE);
    await requestsAs().write(KEY, 'run-1', RESUME);

    // Act
    await pair.clearControlRequest(KEY, 'run-1', RESUME);
    const afterBoth = await pair.controlRequest(KEY, 'run-1');
    await own.requestControl(KEY, 'run-1', { ...PAUSE, at: RESUME.at + 1 });
    await pair.clearControlRequest(KEY, 'run-1', RESUME);
    const afterNewer = await pair.controlRequest(KEY, 'run-1');

    // Assert
    expect(afterBoth).toBeUndefined();
    expect(requestVariable()).toBeUndefined();
    expect(afterNewer).toEqual({ ...PAUSE, at: RESUME.at + 1 });
  });

  it('parks a pause in Nomad for other terminals, and its next safe point deletes the marker', async () => {
    // Arrange: the run holds the job; bob's pause is in Nomad.
    const own = new MemoryJobLock();
    const pair = pairOf(own);
    await own.acquire(KEY, { owner: 'run-1', ttlSeconds: 60 });
    await requestsAs().write(KEY, 'run-1', PAUSE);

    // Act
    await pair.parkControlRequest(KEY, 'run-1', PAUSE);
    const whileParked = await pair.controlRequest(KEY, 'run-1');
    const parkedItems = requestVariable()?.items;
    const atSafePoint = await pair.controlRequest(KEY, 'run-1', { atSafePoint: true });

    // Assert: the parked question's poll reads no request and keeps the marker; the safe point deletes it.
    expect(whileParked).toBeUndefined();
    expect(parkedItems).toMatchObject({ runId: 'run-1', verb: 'paused' });
    expect(atSafePoint).toBeUndefined();
    expect(requestVariable()).toBeUndefined();
  });
});
