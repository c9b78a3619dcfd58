/**
 * Two `nomad-restart` processes on the same job, as two operators on two laptops: the job's lock
 * lives in Nomad (a variable), so the second process learns which run holds the job, who started
 * it, where and since when, and exits 1 without touching an allocation, while the first finishes
 * and releases the lock, leaving its variable (as Nomad's release does) for the next run to take.
 * Against the simulator, or the agent at NOMAD_E2E_ADDR. The README's policy without `write` gets
 * the capability named and the way out (simulator ACLs).
 * The simulator runs in real time here: the lock's TTL is Nomad's, in seconds.
 */

import { hostname, userInfo } from 'node:os';
import type { Variable } from '../../lib/nomad';
import type { AllocListStub } from '../../lib/nomad/types';
import { sharedLockPath } from '../../lib/stores';
import { type AclSpec, type RunningSimulator, startSimulator } from '../../sim/index';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { eventually, get } from '../sim/helpers/http';
import { simpleJob } from '../steps/helpers/harness';
import { type E2eTarget, openE2e } from './helpers/e2e-target';
import { runCli } from './helpers/run-cli';

const RESTART = 'PUT /v1/client/allocation/:id/restart';

let sim: RunningSimulator | undefined;
let target: E2eTarget | undefined;
afterEach(async () => {
  await sim?.close();
  await target?.close();
  sim = undefined;
  target = undefined;
});

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
    target = await openE2e({
      nodes: [{ name: 'n1' }],
      jobs: [simpleJob('web', 'service', 2)],
      realTime: true,
    });
    const t = target;
    await t.waitRunning('web', 2);
    const namespace = t.namespace('default');
    const lockPath = `/v1/var/${sharedLockPath('web')}?namespace=${encodeURIComponent(namespace)}`;
    const first = runCli(['-batch-size', '1', '-batch-wait', '5s', '-yes', 'web'], t.env);
    const holder = await eventually(async () => {
      const held = (await get<Variable>(t.address, lockPath)).json;
      return held?.Lock?.ID === undefined ? undefined : (held.Items?.['runId'] ?? '');
    }, 30_000);

    // Act
    const second = await runCli(['-yes', 'web'], t.env);
    const restartsWhileHeld = t.sim?.control.counters()[RESTART];
    const done = await first;

    // Assert
    expect(second.code).toBe(1);
    // The refusal alone: planning (reads only) comes before the lock, but a refused run prints
    // none of its plan (no `Restarting 2 allocations` it will not do).
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `Job "web" in namespace "${namespace}" is already being restarted by run "${holder}" ` +
        `(started by ${userInfo().username} on ${hostname()} with the local engine, since <ts>)\n`,
    );
    if (t.sim) expect(restartsWhileHeld).toBe(1);
    expect(done.code).toBe(0);
    // Each allocation restarted once, by the first: the second touched none.
    const restarts = (await t.allocationsWhen('web', (all) => all.every(restartedOnce))).map(restartedOnce);
    expect(restarts).toEqual([true, true]);
    const left = (await get<Variable>(t.address, lockPath)).json;
    expect([left?.Items?.['runId'], left?.Lock?.ID]).toEqual([holder, undefined]);
  });
});

/** Whether the allocation's tasks got exactly one `Restart Signaled` event between them. */
function restartedOnce(allocation: AllocListStub): boolean {
  const signals = Object.values(allocation.TaskStates ?? {}).flatMap((state) =>
    (state.Events ?? []).filter((event) => event.Type === 'Restart Signaled'),
  );
  return signals.length === 1;
}

describe('the README’s policy without "write" on the lock path', () => {
  const acl = readmePolicyAcl(['default'], 'write');
  const NAMED = 'the token needs the variables capability "write" on path "nomad-restart/locks/*"';

  it('warns, names the capability and restarts without the shared lock (nomad job restart needs none)', async () => {
    // Arrange
    const target = await cluster(acl);

    // Act
    const result = await runCli(['-yes', 'web'], { NOMAD_ADDR: target.address, NOMAD_TOKEN: OPERATOR_TOKEN });

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
      NOMAD_TOKEN: OPERATOR_TOKEN,
      NOMAD_RESTART_VARIABLES_LOCK: 'required',
    });

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(NAMED);
    expect(target.control.counters()[RESTART]).toBeUndefined();
  });
});
