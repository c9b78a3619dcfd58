/**
 * Scenario: a run loses the job's lock mid-run (ACLs on, the README's policy). Right after the
 * run's first restart, a management token frees the run's lock in Nomad and another run takes
 * the job. A run renews its lock only when the lease needs it (lib/steps/lock/lease-renewal.ts),
 * so the loss is found at its next renewal: at a terminal, the safe point after a 2.5 s batch wait
 * renews a 4 s lease (less than half left); on AWS, "Decide" renews a 300 s lease before the batch
 * wait (less is left than the longest wait may last). From there the run restarts
 * nothing more: it says the lock was lost and to whom, and ends with Nomad's "Job restart finished
 * with errors" and exit 1. Through the real command at a terminal
 * (its process keeps the lock), and through the synthesized workflow on AWS's stores (S3 and
 * DynamoDB emulators, every call checked against its function's role) as an execution keeps it:
 * the execution fails `RestartFailed`, the reason in its summary.
 */

import { NomadClient } from '../../../lib/nomad';
import { NomadVariablesLock, sharedLockPath } from '../../../lib/stores';
import { TaskStates } from '../../../lib/workflow/state-names';
import type { RunningSimulator } from '../../../sim/index';
import { runCli } from '../../e2e/helpers/run-cli';
import { accountFor, CLEAN, invariantsOf } from '../../faults/helpers/accounting';
import { MANAGEMENT_TOKEN, OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { useEmulatedAws } from '../../iam/helpers/emulated-aws';
import { get, put } from '../../sim/helpers/http';
import { allocationsOf, type Harness, harnessPerTest, simpleJob } from '../../steps/helpers/harness';
import { runWorkflow } from './helpers/workflow-harness';

const RESTART = 'PUT /v1/client/allocation/:id/restart';
/** A lease short enough that every "Decide" renews it (lease-renewal.ts). */
const LEASE_SECONDS = '300';
/** A lease of which less than half is left after the terminal's batch wait. */
const SHORT_LEASE_SECONDS = '4';
const PATH = sharedLockPath('web');
const TAKER = { engine: 'local', who: 'bob', host: 'laptop-2', pid: '200' };
const LOST =
  'The job\'s lock in Nomad was lost: it is held by run "run-bob" (started by bob on laptop-2 with the local engine, since ';

let taker: NomadClient | undefined;
afterEach(async () => {
  await taker?.close();
  taker = undefined;
});
const harness = harnessPerTest();

/** Three running allocations of `web`, ACLs on with the README's policy. */
function cluster(): Promise<Harness> {
  return harness.startRunning(
    simpleJob('web', 'service', 3),
    { token: OPERATOR_TOKEN },
    { acl: readmePolicyAcl() },
  );
}

/** What a management token and another operator do behind the run: free its lock, take the job. */
async function takeTheJob(sim: RunningSimulator): Promise<void> {
  taker ??= NomadClient.create({ address: sim.address, token: OPERATOR_TOKEN });
  const held = await get<{ Lock?: { ID: string } }>(sim.address, `/v1/var/${PATH}`, MANAGEMENT_TOKEN);
  const lock = { Path: PATH, Lock: { ID: held.json.Lock?.ID } };
  await put(sim.address, `/v1/var/${PATH}?lock-release`, lock, MANAGEMENT_TOKEN);
  await new NomadVariablesLock(taker, { identity: TAKER, ttl: '60s' }).take(
    { namespace: 'default', jobId: 'web' },
    'run-bob',
    '33333333-3333-4333-8333-333333333333',
  );
}

describe('a run that loses the job’s lock', () => {
  it('at a terminal: says so, naming the run that took it, restarts nothing more and exits 1', async () => {
    // Arrange
    const { sim } = await cluster();
    // The command waits 2.5 s after its first batch: the job is taken meanwhile.
    sim.control.onRequest({ pathSuffix: '/restart', method: 'PUT', nth: 1 }, () => void takeTheJob(sim));

    // Act
    const result = await runCli(['-yes', '-batch-size', '1', '-batch-wait', '2.5s', 'web'], {
      NOMAD_ADDR: sim.address,
      NOMAD_TOKEN: OPERATOR_TOKEN,
      LOCK_TTL_SECONDS: SHORT_LEASE_SECONDS,
    });

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`==> <ts>: ${LOST}`);
    expect(result.stderr).toContain(
      'Stopping job restart before restarting anything more: 2 allocations not restarted',
    );
    expect(result.stdout).toContain('Job restart finished with errors');
    expect(result.stdout).not.toContain('Job restarted successfully!');
    expect(sim.control.counters()[RESTART]).toBe(1);
    expect(sim.control.state().variable('default', PATH)).toMatchObject({ items: { runId: 'run-bob' } });
    expect(sim.control.state().variable('default', PATH)?.lock).toBeDefined();
  });

  describe('with the stores of AWS (emulators, every call checked against its role)', () => {
    useEmulatedAws();
    const envBefore = process.env['LOCK_TTL_SECONDS'];
    beforeAll(() => {
      process.env['LOCK_TTL_SECONDS'] = LEASE_SECONDS;
    });
    afterAll(() => {
      if (envBefore === undefined) delete process.env['LOCK_TTL_SECONDS'];
      else process.env['LOCK_TTL_SECONDS'] = envBefore;
    });

    it('ends the execution failed, the loss in its summary, with one allocation restarted of three', async () => {
      // Arrange
      const harness = await cluster();
      const planned = allocationsOf(harness, 'web');
      const startedAt = harness.now();
      let decides = 0;

      // Act: the job is taken after the first batch, before "Decide" renews the lease.
      const run = await runWorkflow(
        harness,
        restartOptions('web', { batchSize: { value: 1, percent: false } }),
        {
          token: OPERATOR_TOKEN,
          interceptInvocation: async (state, invoke) => {
            if (state === TaskStates.decide && ++decides === 1) await takeTheJob(harness.sim);
            return invoke();
          },
        },
      );

      // Assert
      expect(run.exitCode).toBe(1);
      expect(run.result).toMatchObject({ status: 'FAILED', error: 'RestartFailed' });
      expect(run.result.cause).toContain(LOST);
      expect(run.errors).toEqual([expect.stringContaining(LOST)]);
      expect(run.events.map((e) => e.type)).toContain('lock-lost');
      expect(harness.sim.control.counters()[RESTART]).toBe(1);
      expect(harness.sim.control.state().variable('default', PATH)?.items['runId']).toBe('run-bob');
      const accounting = accountFor(harness, planned, run, startedAt);
      expect(invariantsOf(accounting)).toEqual(CLEAN);
      expect([accounting.count('restarted'), accounting.count('not reached')]).toEqual([1, 2]);
    });
  });
});
