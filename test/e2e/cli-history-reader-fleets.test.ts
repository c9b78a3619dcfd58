/**
 * Scenario: two fleet runs of namespace `default` whose records are still provisional, read by the
 * real `nomad-restart history -fleets` holding only the README's reader policy. Fleet A's job
 * `cache` is being restarted (its run holds the job's lock, its own record provisional and linked
 * to A); fleet B's one job run was left provisional by a run that holds no lock. A shows
 * `running`, B `started, never finished`. Job `queue`'s history also holds an item written by hand,
 * which the reader counts on stderr and leaves out.
 */
import { NomadClient } from '../../lib/nomad/client';
import { sharedLockPath } from '../../lib/stores';
import { NomadRunHistory } from '../../lib/stores/nomad-run-history';
import { runHistoryPath } from '../../lib/stores/shared-lock-settings';
import { type RunningSimulator, startSimulator } from '../../sim/index';
import { HISTORY_READER_TOKEN, OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { provisionalRecord } from '../fixtures/run-records';
import { runCli } from './helpers/run-cli';

const FLEET_A =
  'arn:aws:states:local:000000000000:execution:nomad-restart-fleet:aaaa0000-0000-4000-8000-00000000000a';
const FLEET_B =
  'arn:aws:states:local:000000000000:execution:nomad-restart-fleet:bbbb0000-0000-4000-8000-00000000000b';
const CACHE_RUN =
  'arn:aws:states:local:000000000000:execution:nomad-restart:cccc0000-0000-4000-8000-00000000000c';
const QUEUE_RUN =
  'arn:aws:states:local:000000000000:execution:nomad-restart:dddd0000-0000-4000-8000-00000000000d';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ scenario: { nodes: [], jobs: [], acl: readmePolicyAcl() } });
  const nomad = NomadClient.create({ address: sim.address, token: OPERATOR_TOKEN });
  const history = new NomadRunHistory(nomad);
  const fleets = { namespace: 'default', fleets: true } as const;
  const fleetRecord = (n: number, runId: string) =>
    provisionalRecord(n, { runId, kind: 'fleet', jobId: '', options: '-filter=Meta.tier==cache' });
  await history.put(fleets, fleetRecord(1, FLEET_A));
  await history.put(fleets, fleetRecord(2, FLEET_B));
  await nomad
    .variables()
    .acquireLock(sharedLockPath('cache'), { runId: CACHE_RUN }, { TTL: '24h' }, { namespace: 'default' });
  const jobOf = (runId: string, jobId: string, fleetRunId: string) =>
    provisionalRecord(3, { runId, jobId, fleetRunId, startedBy: `fleet ${fleetRunId}` });
  await history.put({ namespace: 'default', jobId: 'cache' }, jobOf(CACHE_RUN, 'cache', FLEET_A));
  await history.put({ namespace: 'default', jobId: 'queue' }, jobOf(QUEUE_RUN, 'queue', FLEET_B));
  // An item no record of this version: written by hand, or by a newer nomad-restart.
  const queuePath = runHistoryPath('queue');
  const queue = await nomad.variables().read(queuePath, { namespace: 'default' });
  await nomad
    .variables()
    .write(queuePath, { ...queue?.Items, 'by-hand': '{"note":"x"}' }, { namespace: 'default' });
  await nomad.close();
}, 30_000);

afterAll(async () => {
  await sim.close();
});

describe('nomad-restart history -fleets', () => {
  it('shows a provisional fleet running while one of its jobs’ runs holds its lock', async () => {
    // Act
    const result = await runCli(['history', '-fleets', '-output', 'json'], {
      NOMAD_ADDR: sim.address,
      NOMAD_TOKEN: HISTORY_READER_TOKEN,
    });

    // Assert
    expect(result.stderr).toBe('');
    const records = JSON.parse(result.stdout) as { runId: string; kind: string; state: string }[];
    expect(records.map((r) => [r.runId, r.kind, r.state])).toEqual([
      [FLEET_B, 'fleet', 'never-finished'],
      [FLEET_A, 'fleet', 'running'],
    ]);
  }, 30_000);

  it('counts on stderr the items that are no record it reads, and lists the rest', async () => {
    // Act
    const result = await runCli(['history', '-output', 'json', 'queue'], {
      NOMAD_ADDR: sim.address,
      NOMAD_TOKEN: HISTORY_READER_TOKEN,
    });

    // Assert
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      '1 item of the history is no record this version reads (written by a newer nomad-restart, or by hand): left out\n',
    );
    expect((JSON.parse(result.stdout) as { runId: string }[]).map((r) => r.runId)).toEqual([QUEUE_RUN]);
  }, 30_000);
});
