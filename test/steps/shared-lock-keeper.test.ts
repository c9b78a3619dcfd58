/**
 * A local run's process keeps its shared job lock alive while the run runs (a question at the
 * terminal may wait for hours): it renews before Nomad would free the lock, takes it again if it
 * timed out and nobody took it, says once when another run holds it, and stops cleanly.
 * The simulator runs 100 times faster than the clock, so a 60 s TTL passes in 0.6 s.
 */
import { NomadClient } from '../../lib/nomad';
import { keepSharedLock, type SharedLockKeeper } from '../../lib/steps/shared-lock-keeper';
import { NomadVariablesLock, SharedLockHeldError, sharedLockPath } from '../../lib/stores';
import { createScaledClock, type RunningSimulator, startSimulator } from '../../sim/index';

const KEY = { namespace: 'default', jobId: 'web' };
const OTHER = { engine: 'local', who: 'bob', host: 'laptop-2', pid: '2' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let sim: RunningSimulator;
let keeper: SharedLockKeeper | undefined;
let other: NomadClient;
beforeEach(async () => {
  sim = await startSimulator({ clock: createScaledClock(0.01), scenario: { nodes: [], jobs: [] } });
  other = NomadClient.create({ address: sim.address });
});
afterEach(async () => {
  await keeper?.stop();
  keeper = undefined;
  await other.close();
  await sim.close();
});

const otherLock = () => new NomadVariablesLock(other, { identity: OTHER, ttl: '60s' });

/** Keeps run-1's lock, renewing every `renewEveryMs`; `lost` counts the calls of `onLost`. */
function keepRun1(renewEveryMs: number) {
  const seen = { lost: 0 };
  keeper = keepSharedLock({
    nomad: { address: sim.address },
    key: KEY,
    runId: 'run-1',
    onLost: () => {
      seen.lost += 1;
    },
    renewEveryMs,
  });
  return seen;
}
const holder = () => sim.control.state().variable('default', sharedLockPath('web'))?.items['runId'];

describe('keepSharedLock', () => {
  it('keeps the lock past twice its TTL and its LockDelay, so no other run can take it', async () => {
    // Arrange
    const seen = keepRun1(100);

    // Act: 2 s is 200 simulated seconds, past 2 × 60 s + 15 s.
    await sleep(2_000);
    const taken = await otherLock()
      .acquire(KEY, 'run-2')
      .catch((e: unknown) => e);

    // Assert
    expect(taken).toBeInstanceOf(SharedLockHeldError);
    expect(holder()).toBe('run-1');
    expect(seen.lost).toBe(0);
  });

  it('says once that another run holds the lock, and stops renewing', async () => {
    // Arrange
    await otherLock().acquire(KEY, 'run-2');

    // Act
    const seen = keepRun1(50);
    await sleep(500);

    // Assert
    expect(seen.lost).toBe(1);
    expect(holder()).toBe('run-2');
  });

  it('sends nothing once stopped', async () => {
    // Arrange
    keepRun1(50);
    await sleep(200);

    // Act
    await keeper?.stop();
    const sent = sim.control.requestLog().length;
    await sleep(300);

    // Assert
    expect(sent).toBeGreaterThan(0);
    expect(sim.control.requestLog()).toHaveLength(sent);
  });
});
