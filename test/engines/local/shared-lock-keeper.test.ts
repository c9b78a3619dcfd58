/**
 * A local run's process keeps its shared job lock alive while the run runs (a question at the
 * terminal may wait for hours): it renews, with the ID its engine's own lock kept, before Nomad
 * would free the lock; it stops renewing a lock Nomad refuses (lost: the run's next safe point
 * meets the same refusal); it renews nothing for a run without the shared lock, and sends nothing
 * once stopped. ACLs on, the README's policy. The simulator's leases run 100 times faster than
 * the clock, so a 60 s TTL passes in 0.6 s.
 */

import { keepSharedLock, type SharedLockKeeper } from '../../../lib/engines/local/shared-lock-keeper';
import { NomadClient } from '../../../lib/nomad';
import {
  LOCAL_SHARED_LOCK_TTL_MS,
  MemoryJobLock,
  NomadVariablesLock,
  PairedJobLock,
  SharedLockHeldError,
  sharedLockPath,
} from '../../../lib/stores';
import { createScaledClock, type RunningSimulator, startSimulator } from '../../../sim/index';
import { MANAGEMENT_TOKEN, OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { put } from '../../sim/helpers/http';

const KEY = { namespace: 'default', jobId: 'web' };
const HERE = { engine: 'local', who: 'alice', host: 'laptop-1', pid: '1' };
const OTHER = { engine: 'local', who: 'bob', host: 'laptop-2', pid: '2' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let sim: RunningSimulator;
let keeper: SharedLockKeeper | undefined;
let client: NomadClient;
let own: MemoryJobLock;
beforeEach(async () => {
  sim = await startSimulator({
    leaseClock: createScaledClock(0.01),
    scenario: { nodes: [], jobs: [], acl: readmePolicyAcl() },
  });
  client = NomadClient.create({ address: sim.address, token: OPERATOR_TOKEN });
  own = new MemoryJobLock();
});
afterEach(async () => {
  await keeper?.stop();
  keeper = undefined;
  await client.close();
  await sim.close();
});

const lockAs = (identity: typeof HERE) =>
  new NomadVariablesLock(client, { identity, ttl: `${LOCAL_SHARED_LOCK_TTL_MS / 1000}s` });

/** Run-1 takes the job as "Lock job" does (its ID kept in `own`), then keeps it every `renewEveryMs`. */
async function takeAndKeepRun1(renewEveryMs: number) {
  await new PairedJobLock(own, lockAs(HERE), { required: false }).take(KEY, {
    owner: 'run-1',
    ttlSeconds: 60,
  });
  keeper = keepSharedLock({
    nomad: { address: sim.address, token: OPERATOR_TOKEN },
    own,
    key: KEY,
    runId: 'run-1',
    renewEveryMs,
  });
}
const renewals = () => sim.control.requestLog().filter((r) => r.query.includes('lock-renew')).length;
const holder = () => sim.control.state().variable('default', sharedLockPath('web'))?.items['runId'];

describe('keepSharedLock', () => {
  it('keeps the lock past twice its TTL and its LockDelay, so no other run can take it', async () => {
    // Arrange
    await takeAndKeepRun1(100);

    // Act: 2 s is 200 simulated seconds, past 2 × 60 s + 15 s.
    await sleep(2_000);
    const taken = await lockAs(OTHER)
      .take(KEY, 'run-2', '22222222-2222-4222-8222-222222222222')
      .catch((e: unknown) => e);

    // Assert
    expect(taken).toBeInstanceOf(SharedLockHeldError);
    expect(holder()).toBe('run-1');
    expect(renewals()).toBeGreaterThan(0);
  });

  it('stops renewing a lock Nomad refuses, leaving it to the run that holds it now', async () => {
    // Arrange
    await takeAndKeepRun1(50);
    const id = (await own.held(KEY, 'run-1'))?.sharedLockId;
    await put(
      sim.address,
      `/v1/var/${sharedLockPath('web')}?lock-release`,
      { Path: sharedLockPath('web'), Lock: { ID: id } },
      MANAGEMENT_TOKEN,
    );
    await lockAs(OTHER).take(KEY, 'run-2', '22222222-2222-4222-8222-222222222222');

    // Act
    await sleep(300);
    const refused = renewals();
    await sleep(300);

    // Assert
    expect(refused).toBeGreaterThan(0);
    expect(renewals()).toBe(refused);
    expect(holder()).toBe('run-2');
  });

  it('renews nothing for a run that goes on without the shared lock', async () => {
    // Arrange
    await own.acquire(KEY, { owner: 'run-1', ttlSeconds: 60 });
    keeper = keepSharedLock({
      nomad: { address: sim.address, token: OPERATOR_TOKEN },
      own,
      key: KEY,
      runId: 'run-1',
      renewEveryMs: 50,
    });

    // Act
    await sleep(300);

    // Assert
    expect(sim.control.requestLog()).toHaveLength(0);
  });

  it('sends nothing once stopped', async () => {
    // Arrange
    await takeAndKeepRun1(50);
    await sleep(200);

    // Act
    await keeper?.stop();
    const sent = sim.control.requestLog().length;
    await sleep(300);

    // Assert
    expect(renewals()).toBeGreaterThan(0);
    expect(sim.control.requestLog()).toHaveLength(sent);
  });
});
