/**
 * Two `nomad-restart` processes on the same job, as two operators on two laptops: the job's lock
 * lives in Nomad (a variable), so the second process learns which run holds the job, who started
 * it, where and since when, and exits 1 without touching an allocation, while the first finishes.
 * A token without the variables capability gets the capability named and the way out.
 * The simulator runs in real time here: the lock's TTL is Nomad's, in seconds.
 */

import { hostname, userInfo } from 'node:os';
import { jest } from '@jest/globals';
import { sharedLockPath } from '../../lib/stores';
import { type AclSpec, type RunningSimulator, startSimulator } from '../../sim/index';
import { simpleJob } from '../steps/harness';
import { runCli } from './run-cli';

jest.setTimeout(120_000);

const RESTART = 'PUT /v1/client/allocation/:id/restart';

let sim: RunningSimulator;
afterEach(async () => sim.close());

async function cluster(acl?: AclSpec): Promise<RunningSimulator> {
  sim = await startSimulator({
    scenario: { nodes: [{ name: 'n1' }], jobs: [simpleJob('web', 'service', 2)], ...(acl ? { acl } : {}) },
  });
  await sim.control.waitFor(
    (s) => s.allocations({ jobId: 'web' }).filter((a) => a.ClientStatus === 'running').length === 2,
    10_000,
  );
  return sim;
}

describe('two nomad-restart processes on the same job', () => {
  it('lets the second name the run that holds the job and exit 1 without touching anything', async () => {
    // Arrange: the first waits 5 s between its two batches, holding the job.
    const target = await cluster();
    const env = { NOMAD_ADDR: target.address };
    const first = runCli(['-batch-size', '1', '-batch-wait', '5s', '-yes', 'web'], env);
    await target.control.waitFor(
      (s) => s.variable('default', sharedLockPath('web'))?.lock !== undefined,
      30_000,
    );
    const holder = target.control.state().variable('default', sharedLockPath('web'))?.items['runId'] ?? '';

    // Act
    const second = await runCli(['-yes', 'web'], env);
    const restartsWhileHeld = target.control.counters()[RESTART];
    const done = await first;

    // Assert
    expect(second.code).toBe(1);
    // The refusal alone: planning (reads only) comes before the lock, but a refused run prints
    // none of its plan (no `Restarting 2 allocations` it will not do).
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `Job "web" in namespace "default" is already being restarted by run "${holder}" ` +
        `(started by ${userInfo().username} on ${hostname()} with the local engine, since <ts>)\n`,
    );
    expect(restartsWhileHeld).toBe(1);
    expect(done.code).toBe(0);
    expect(target.control.counters()[RESTART]).toBe(2);
    expect(target.control.state().variable('default', sharedLockPath('web'))?.lock).toBeUndefined();
  });
});

describe('a token without the variables capability', () => {
  const acl: AclSpec = {
    enabled: true,
    tokens: [{ secret: 'ops', namespaces: { default: ['read-job', 'alloc-lifecycle'] } }],
  };
  const NAMED =
    'the token needs the variables capabilities "read" and "write" on path "nomad-restart/locks/*"';

  it('warns, names the capability and restarts without the shared lock (nomad job restart needs none)', async () => {
    // Arrange
    const target = await cluster(acl);

    // Act
    const result = await runCli(['-yes', 'web'], { NOMAD_ADDR: target.address, NOMAD_TOKEN: 'ops' });

    // Assert
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Restarting job "web" without the lock shared with other operators.');
    expect(result.stderr).toContain(NAMED);
    expect(result.stderr).toContain('NOMAD_RESTART_VARIABLES_LOCK=false');
    expect(target.control.counters()[RESTART]).toBe(2);
  });

  it('refuses to restart with NOMAD_RESTART_VARIABLES_LOCK=required, before touching anything', async () => {
    // Arrange
    const target = await cluster(acl);

    // Act
    const result = await runCli(['-yes', 'web'], {
      NOMAD_ADDR: target.address,
      NOMAD_TOKEN: 'ops',
      NOMAD_RESTART_VARIABLES_LOCK: 'required',
    });

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(NAMED);
    expect(target.control.counters()[RESTART]).toBeUndefined();
  });
});
