/**
 * The simulator's Variables lock API, over HTTP, against what a real Nomad agent answered
 * (observed on a Nomad agent, see docs/reliability.md): acquire, a second holder's 409 without
 * holder information, the lock ID on a read, renew without items, release with a wrong ID (409),
 * release, acquire again at once; a lock not renewed stays held for its TTL and then its LockDelay;
 * a checked delete (`?cas=`) as the agent answered it; ACL checks (`destroy` to delete).
 */
import { createScaledClock, type RunningSimulator, startSimulator } from '../../sim/index';
import { call as wire } from './helpers/http';

const PATH = 'nomad-restart/locks/web';
const TIME_SCALE = 0.01; // a simulated second in 10 ms
/** Waits `ms` simulated milliseconds. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms * TIME_SCALE));

let sim: RunningSimulator;
afterEach(async () => sim.close());

/** A call to the lock variable at `path`: status, and the JSON body or else the text. */
async function call(method: string, query: string, body?: unknown, token?: string, path = PATH) {
  const res = await wire(sim.address, `/v1/var/${path}${query}`, {
    method,
    ...(body === undefined ? {} : { body }),
    ...(token === undefined ? {} : { token }),
  });
  type Body = Record<string, unknown> & { Lock?: { ID: string }; ModifyIndex?: number };
  return { status: res.status, body: (res.json ?? res.text) as Body };
}

const acquire = (
  owner: string,
  lock: Record<string, string> = { TTL: '30s', LockDelay: '5s' },
  token?: string,
  path = PATH,
) => call('PUT', '?lock-acquire', { Items: { owner }, Lock: lock }, token, path);
const OTHER = 'nomad-restart/locks/other';

/** An empty cluster whose lock leases run on the scaled clock. */
async function startEmptyCluster(): Promise<void> {
  sim = await startSimulator({
    leaseClock: createScaledClock(TIME_SCALE),
    scenario: { nodes: [], jobs: [] },
  });
}

describe('the simulator’s Variables locks', () => {
  beforeEach(startEmptyCluster);

  it('answers each lock call as the real agent did', async () => {
    // Act
    const first = await acquire('run-1');
    const second = await acquire('run-2');
    const read = await call('GET', '');
    const id = first.body.Lock?.ID ?? '';
    const renewed = await call('PUT', '?lock-renew', { Path: PATH, Lock: { ID: id } });
    const wrongRelease = await call('PUT', '?lock-release', { Path: PATH, Lock: { ID: 'not-the-id' } });
    const released = await call('PUT', '?lock-release', { Path: PATH, Lock: { ID: id } });
    const again = await acquire('run-2', {});

    // Assert
    expect(first).toMatchObject({
      status: 200,
      body: { Items: { owner: 'run-1' }, Lock: { TTL: '30s', LockDelay: '5s' } },
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.status).toBe(409);
    expect(second.body).toEqual(expect.objectContaining({ Path: PATH, CreateIndex: 0, ModifyIndex: 0 }));
    expect(second.body).not.toHaveProperty('Items');
    expect(second.body).not.toHaveProperty('Lock');
    expect(read).toMatchObject({ status: 200, body: { Items: { owner: 'run-1' }, Lock: { ID: id } } });
    expect(renewed.status).toBe(200);
    expect(renewed.body).not.toHaveProperty('Items');
    expect(wrongRelease.status).toBe(409);
    expect(released.status).toBe(200);
    expect(again).toMatchObject({
      status: 200,
      body: { Items: { owner: 'run-2' }, Lock: { TTL: '15s', LockDelay: '15s' } },
    });
    expect(again.body.Lock?.ID).not.toBe(id);
  });

  it('keeps a lock nobody renews for twice its TTL and its LockDelay, then frees it', async () => {
    // Arrange: TTL 10 s, delay 30 s (simulated); Nomad's server doubles the TTL.
    const first = await acquire('run-1', { TTL: '10s', LockDelay: '30s' });
    const id = first.body.Lock?.ID ?? '';
    const other = await acquire('run-9', { TTL: '10s', LockDelay: '30s' }, undefined, OTHER);
    const otherId = other.body.Lock?.ID ?? '';

    // Act
    await sleep(12_000);
    const renewedPastTtl = await call(
      'PUT',
      '?lock-renew',
      { Path: OTHER, Lock: { ID: otherId } },
      undefined,
      OTHER,
    );
    await sleep(10_000);
    const lateRenewal = await call('PUT', '?lock-renew', { Path: PATH, Lock: { ID: id } });
    const duringDelay = await acquire('run-2');
    await sleep(35_000);
    const afterDelay = await acquire('run-2');

    // Assert
    expect(renewedPastTtl.status).toBe(200);
    expect(lateRenewal.status).toBe(409);
    expect(duringDelay.status).toBe(409);
    expect(afterDelay.status).toBe(200);
  });

  it('deletes with cas as the real agent did: never a locked variable, nor one changed since', async () => {
    // Arrange
    const first = await acquire('run-1');
    const id = first.body.Lock?.ID ?? '';
    const index = Number(first.body.ModifyIndex);

    // Act
    const whileLocked = await call('DELETE', `?cas=${index}`);
    const released = await call('PUT', '?lock-release', { Path: PATH, Lock: { ID: id } });
    const releasedAt = Number(released.body.ModifyIndex);
    const stale = await call('DELETE', `?cas=${index}`);
    const deleted = await call('DELETE', `?cas=${releasedAt}`);
    const afterDelete = await call('GET', '');
    const again = await call('DELETE', `?cas=${releasedAt}`);
    const unchecked = await call('DELETE', '');
    const badCas = await call('DELETE', '?cas=abc');

    // Assert
    const zeroValue = { Namespace: 'default', Path: PATH, CreateIndex: 0, ModifyIndex: 0 };
    expect(whileLocked.status).toBe(409);
    expect(whileLocked.body).toEqual(expect.objectContaining(zeroValue));
    expect(whileLocked.body).not.toHaveProperty('Items');
    expect(released).toMatchObject({ status: 200, body: { Path: PATH } });
    expect(releasedAt).toBeGreaterThan(index);
    expect(released.body).not.toHaveProperty('Lock');
    expect(stale).toMatchObject({
      status: 409,
      body: { ModifyIndex: releasedAt, Items: { owner: 'run-1' } },
    });
    expect(deleted).toEqual({ status: 204, body: '' });
    expect(afterDelete.status).toBe(404);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(expect.objectContaining(zeroValue));
    expect(unchecked).toEqual({ status: 204, body: '' });
    expect(badCas).toEqual({
      status: 400,
      body: 'can not parse cas: strconv.ParseUint: parsing "abc": invalid syntax',
    });
  });

  it('never deletes a variable whose lock another run took after the release', async () => {
    // Arrange
    const first = await acquire('run-1');
    const released = await call('PUT', '?lock-release', { Path: PATH, Lock: { ID: first.body.Lock?.ID } });
    await acquire('run-2');

    // Act
    const late = await call('DELETE', `?cas=${Number(released.body.ModifyIndex)}`);

    // Assert
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ Items: { owner: 'run-2' }, Lock: expect.anything() });
    expect(await call('GET', '')).toMatchObject({ status: 200, body: { Items: { owner: 'run-2' } } });
  });

  it('refuses a TTL outside Nomad’s 10 s to 24 h', async () => {
    // Act
    const short = await acquire('run-1', { TTL: '5s' });

    // Assert
    expect(short).toEqual({
      status: 400,
      body: 'RPC Error:: 400,1 error occurred:\n\t* TTL must be between 10 seconds and 24 hours\n\n',
    });
  });

  it('lists the variables under a prefix in every namespace, with their locks but not their items', async () => {
    // Arrange
    await acquire('run-1');

    // Act
    const res = await fetch(`${sim.address}/v1/vars?prefix=nomad-restart/&namespace=*`);

    // Assert
    const listed = (await res.json()) as Record<string, unknown>[];
    expect(listed).toEqual([
      expect.objectContaining({ Namespace: 'default', Path: PATH, Lock: expect.anything() }),
    ]);
    expect(listed[0]).not.toHaveProperty('Items');
  });
});

describe('the simulator’s Variables ACL', () => {
  beforeEach(async () => {
    sim = await startSimulator({
      scenario: {
        nodes: [],
        jobs: [],
        acl: {
          enabled: true,
          tokens: [
            { secret: 'jobs-only', namespaces: { default: ['read-job', 'alloc-lifecycle'] } },
            { secret: 'write-only', variables: { default: { 'nomad-restart/locks/*': ['write'] } } },
            { secret: 'locks', variables: { default: { 'nomad-restart/locks/*': ['read', 'write'] } } },
            {
              secret: 'locks-destroy',
              variables: { default: { 'nomad-restart/locks/*': ['read', 'write', 'destroy'] } },
            },
            { secret: 'destroy-only', variables: { default: { 'nomad-restart/locks/*': ['destroy'] } } },
            { secret: 'management', management: true },
          ],
        },
      },
    });
  });

  it('needs write for a lock operation and read to read, as Nomad (write does not imply read)', async () => {
    // Act
    const denied = await acquire('run-1', undefined, 'jobs-only');
    const written = await acquire('run-1', undefined, 'write-only');
    const unreadable = await call('GET', '', undefined, 'write-only');
    const read = await call('GET', '', undefined, 'locks');

    // Assert
    expect(denied).toEqual({ status: 403, body: 'Permission denied' });
    expect(written.status).toBe(200);
    expect(unreadable.status).toBe(403);
    expect(read.status).toBe(200);
  });

  it('needs destroy to delete (write does not imply it); a conflict shows items to a reader only', async () => {
    // Arrange
    const first = await acquire('run-1', undefined, 'locks');
    await call('PUT', '?lock-release', { Path: PATH, Lock: { ID: first.body.Lock?.ID } }, 'locks');

    // Act
    const denied = await call('DELETE', '?cas=1', undefined, 'locks');
    const redacted = await call('DELETE', '?cas=1', undefined, 'destroy-only');
    const shown = await call('DELETE', '?cas=1', undefined, 'locks-destroy');
    const deleted = await call('DELETE', '', undefined, 'destroy-only');

    // Assert
    expect(denied).toEqual({ status: 403, body: 'Permission denied' });
    expect(redacted.status).toBe(409);
    expect(redacted.body).not.toHaveProperty('Items');
    expect(shown).toMatchObject({ status: 409, body: { Items: { owner: 'run-1' } } });
    expect(deleted.status).toBe(204);
  });

  it('shows a lock to its acquirer and to management only: a read or a list by anyone else leaves it out', async () => {
    // Arrange
    const taken = await acquire('run-1', undefined, 'locks');

    // Act
    const byHolderToken = await call('GET', '', undefined, 'locks');
    const byManagement = await call('GET', '', undefined, 'management');
    const listed = await wire<Array<Record<string, unknown>>>(sim.address, '/v1/vars?prefix=nomad-restart', {
      token: 'locks',
    });

    // Assert
    expect(taken.body.Lock?.ID).toMatch(/^[0-9a-f-]{36}$/);
    expect(byHolderToken.body).toMatchObject({ Items: { owner: 'run-1' } });
    expect(byHolderToken.body).not.toHaveProperty('Lock');
    expect(byManagement.body.Lock?.ID).toBe(taken.body.Lock?.ID);
    expect(listed.json).toHaveLength(1);
    expect(listed.json[0]).not.toHaveProperty('Lock');
  });
});

describe('the simulator’s answers where the agent checked with ACLs was precise', () => {
  beforeEach(startEmptyCluster);

  it('lets a lock be acquired under an ID the caller names, and again by that ID without restarting its timer', async () => {
    // Arrange
    const mine = { ID: 'my-own-lock-id', TTL: '10s', LockDelay: '1s' };
    await acquire('run-1', mine);

    // Act: 15 s later the holder acquires again; the first 2 × 10 s still count.
    await sleep(15_000);
    const again = await acquire('run-1', mine);
    await sleep(8_000);
    const byOther = await acquire('run-2', {});

    // Assert
    expect(again).toMatchObject({ status: 200, body: { Lock: { ID: 'my-own-lock-id' } } });
    expect(byOther.status).toBe(200);
  });

  it('answers a release of a lock that is gone with a 500, and a renewal with 409 or 404', async () => {
    // Arrange
    const { body } = await acquire('run-1');
    const lock = { Path: PATH, Lock: { ID: body.Lock?.ID } };
    await call('PUT', '?lock-release', lock);

    // Act
    const releaseAgain = await call('PUT', '?lock-release', lock);
    const renewUnlocked = await call('PUT', '?lock-renew', lock);
    await call('DELETE', '');
    const releaseDeleted = await call('PUT', '?lock-release', lock);
    const renewDeleted = await call('PUT', '?lock-renew', lock);

    // Assert
    expect(releaseAgain).toEqual({ status: 500, body: "variable doesn't hold a lock" });
    expect(renewUnlocked).toEqual({ status: 409, body: "variable doesn't hold a lock" });
    expect(releaseDeleted).toEqual({ status: 500, body: "variable doesn't exist" });
    expect(renewDeleted).toEqual({ status: 404, body: "variable doesn't exist" });
  });

  it.each([
    { api: 'absent' as const, status: 404, lock: false },
    { api: 'no-locks' as const, status: 200, lock: false },
  ])('speaks the variables API of an older Nomad ($api)', async ({ api, status, lock }) => {
    // Arrange
    sim.control.setVariablesApi(api);

    // Act
    const acquired = await acquire('run-1');
    const read = await call('GET', '');

    // Assert
    expect(acquired.status).toBe(status);
    expect(typeof acquired.body === 'object' && acquired.body.Lock !== undefined).toBe(lock);
    expect(read.status).toBe(api === 'absent' ? 404 : 200);
  });
});
