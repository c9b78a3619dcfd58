/**
 * Scenario: a terminal run of `web` (3 allocations, one per batch, `-batch-wait 5s`, `-yes`, the
 * README's run policy) is killed with SIGKILL after its first batch: nothing in it ends its record
 * or frees its lock. `nomad-restart history web`, with only the README's reader policy, shows it
 * `running` while Nomad still holds the dead run's lock, and `started, never finished` once Nomad
 * frees it by its TTL (the simulator's lock clock runs five times faster: the terminal lock's 60 s
 * TTL, doubled, then the 15 s delay, pass in 27 s), though the lock variable still names the run.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedLockPath } from '../../lib/stores';
import { createScaledClock, type RunningSimulator, startSimulator } from '../../sim/index';
import { HISTORY_READER_TOKEN, OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { collectText } from '../fixtures/stream-text';
import { eventually } from '../sim/helpers/http';
import { simpleJob } from '../steps/helpers/harness';
import { runCli } from './helpers/run-cli';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'nomad-restart.js');

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** The run's state and outcome cell as the reader sees them. */
async function readerSees(s: RunningSimulator): Promise<{ state: string; row: string }> {
  const env = { NOMAD_ADDR: s.address, NOMAD_TOKEN: HISTORY_READER_TOKEN };
  const json = await runCli(['history', '-output', 'json', 'web'], env);
  const table = await runCli(['history', 'web'], env);
  const records = JSON.parse(json.stdout) as { state: string }[];
  expect(records).toHaveLength(1);
  return { state: records[0]?.state ?? '', row: table.stdout.split('\n')[1] ?? '' };
}

describe('a terminal run killed with SIGKILL', () => {
  it('shows running while Nomad holds its lock, then started, never finished', async () => {
    // Arrange: the run has restarted its first allocation and waits before the next batch.
    sim = await startSimulator({
      leaseClock: createScaledClock(0.2),
      scenario: { nodes: [{ name: 'n1' }], jobs: [simpleJob('web', 'service', 3)], acl: readmePolicyAcl() },
    });
    const s = sim;
    await s.control.waitFor(
      (state) => state.allocations({ jobId: 'web' }).filter((a) => a.ClientStatus === 'running').length === 3,
      10_000,
    );
    const child = spawn(process.execPath, [BIN, '-batch-size', '1', '-batch-wait', '5s', '-yes', 'web'], {
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        TZ: 'UTC',
        NOMAD_ADDR: s.address,
        NOMAD_TOKEN: OPERATOR_TOKEN,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout = collectText(child.stdout);
    const exited = new Promise((resolve) => child.on('close', resolve));
    await eventually(
      async () => (stdout().includes('Waiting 5s before restarting') ? true : undefined),
      30_000,
    );

    // Act
    child.kill('SIGKILL');
    await exited;
    const whileHeld = await readerSees(s);
    const lock = () => s.control.state().variable('default', sharedLockPath('web'));
    await eventually(async () => (lock()?.lock === undefined ? true : undefined), 45_000);
    const afterFreed = await readerSees(s);

    // Assert
    expect(whileHeld.state).toBe('running');
    expect(whileHeld.row).toMatch(/ running +0\/0\/3 +<none>$/);
    expect(lock()?.items['runId']).toBeDefined();
    expect(afterFreed.state).toBe('never-finished');
    expect(afterFreed.row).toMatch(/ started, never finished +0\/0\/3 +<none>$/);
  }, 90_000);
});
