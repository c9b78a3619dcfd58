/**
 * Fault suite: a restart of the synthesized workflow (local engine, real handlers) against a
 * simulator that misbehaves the way a Nomad cluster does: bursts of 5xx on reads, connection
 * resets and latency, a lost leader mid-batch, a placement failure, a token revoked between
 * batches, a deployment that appears between batches. Each case ends with the accounting
 * check (accounting.ts): every planned allocation accounted for once, nothing restarted or
 * stopped twice, no replacement stopped, and the run's summary agreeing with the simulator.
 */
import type { Job } from '../../lib/nomad/types';
import type { RestartOptions } from '../../lib/restart/options';
import type { WorkflowRunOptions } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import {
  type Harness,
  type HarnessExtra,
  type HarnessSetup,
  simpleJob,
  TIME_SCALE,
} from '../steps/helpers/harness';
import { CLEAN, faultSuite, invariantsOf, runAccounted } from './helpers/accounting';

const JOB = 'web';
const COUNT = 6;
const BATCHES_OF_2 = { batchSize: { value: 2, percent: false } } as const;

const { harness } = faultSuite();

function cluster(
  extra: HarnessExtra = {},
  setup: Omit<HarnessSetup, 'jobs'> = {},
  job: Job = simpleJob(JOB, 'service', COUNT),
) {
  return harness.startRunning(job, extra, {
    nodes: [{ name: 'n1' }, { name: 'n2' }],
    ...setup,
  });
}

function restart(target: Harness, over: Partial<RestartOptions>, runOptions: WorkflowRunOptions = {}) {
  return runAccounted(target, restartOptions(JOB, { ...BATCHES_OF_2, ...over }), runOptions);
}

describe('faults in Nomad during a restart', () => {
  it('1. bursts of 500 (RPC), 502 and 503 on reads are retried and the run succeeds', async () => {
    // Arrange
    const target = await cluster();
    target.sim.control.injectFault({
      pathSuffix: '/v1/jobs',
      method: 'GET',
      nth: 1,
      status: 500,
      body: 'rpc error: EOF',
    });
    for (const nth of [1, 2, 3]) {
      target.sim.control.injectFault({
        pathSuffix: '/deployments',
        method: 'GET',
        nth,
        status: 502,
        body: '',
      });
      target.sim.control.injectFault({ pathSuffix: `/${JOB}`, method: 'GET', nth, status: 503, body: '' });
    }

    // Act
    const { run, accounting } = await restart(target, {});

    // Assert
    expect(run.exitCode).toBe(0);
    expect(accounting.count('restarted')).toBe(COUNT);
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(target.sim.control.counters()['total:errors']).toBeGreaterThanOrEqual(7);
  });

  it('2. connection resets and added latency on every endpoint: retried, nothing done twice', async () => {
    // Arrange
    const target = await cluster();
    target.sim.control.injectFault({ kind: 'latency', latencyMs: 15 });
    target.sim.control.injectFault({ kind: 'reset', pathSuffix: '/allocations', method: 'GET', nth: 1 });
    target.sim.control.injectFault({ kind: 'reset', pathSuffix: '/deployments', method: 'GET', nth: 2 });
    target.sim.control.injectFault({ kind: 'reset', pathSuffix: '/stop', method: 'PUT', nth: 2 });

    // Act
    const { run, accounting } = await restart(target, { reschedule: true });

    // Assert: the reads were retried; the stop whose connection dropped may have been applied, so
    // it is not sent again blindly: that allocation is reported (and untouched), every other one
    // is replaced.
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(accounting.count('rescheduled')).toBe(COUNT - 1);
    expect(accounting.count('failed')).toBe(1);
    expect(run.errors).toEqual([
      expect.stringMatching(
        /^Error restarting allocation "[0-9a-f]{8}": Failed to stop allocation: PUT .*: other side closed$/,
      ),
    ]);
    expect(run.exitCode).toBe(1);
  });

  it('2b. a stop Nomad applied but answered 502 on the way back: found stopped and awaited, not reported', async () => {
    // Arrange: (the in-place twin is Nomad's own T14, where Nomad's CLI reports the error: so do we)
    const target = await cluster();
    target.sim.control.injectFault({
      pathSuffix: '/stop',
      method: 'PUT',
      nth: 2,
      status: 502,
      afterHandling: true,
    });

    // Act
    const { run, accounting } = await restart(target, { reschedule: true });

    // Assert
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(run.errors).toEqual([]);
    expect(accounting.count('rescheduled')).toBe(COUNT);
    expect(
      target.sim.control.requestLog().filter((e) => e.path.endsWith('/stop') && e.status === 502),
    ).toHaveLength(1);
  });

  it('3. no cluster leader for 10 s in the middle of a batch: the run waits it out and succeeds', async () => {
    // Arrange: the 3rd restart request (batch 2) takes the leader away for 10 simulated seconds.
    const target = await cluster();
    target.sim.control.onRequest({ pathSuffix: '/restart', nth: 3 }, () => {
      target.sim.control.injectFault({ kind: 'no-leader' });
      setTimeout(() => target.sim.control.clearFaults(), 10_000 * TIME_SCALE);
    });

    // Act
    const { run, accounting } = await restart(target, {});

    // Assert: a write answered `No cluster leader` was never applied, so it is sent again.
    expect(run.exitCode).toBe(0);
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(accounting.count('restarted')).toBe(COUNT);
    expect(target.sim.control.requestLog().filter((e) => e.status === 500).length).toBeGreaterThan(0);
  });

  it('3b. a leader election outlasting the client’s own retries: Step Functions retries the batch step, nothing restarted twice', async () => {
    // Arrange: eight `No cluster leader` answers in a row on the restart endpoint (the client
    // tries each write 4 times), from the batch-2 restart on.
    const target = await cluster();
    for (let nth = 3; nth <= 10; nth++) {
      target.sim.control.injectFault({ pathSuffix: '/restart', nth, status: 500, body: 'No cluster leader' });
    }

    // Act
    const { run, accounting } = await restart(target, {});

    // Assert
    expect(run.exitCode).toBe(0);
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(accounting.count('restarted')).toBe(COUNT);
    expect(run.result.stats.retries).toBeGreaterThan(0);
  });

  it.each([
    { mode: 'stops', reschedule: true, fate: 'rescheduled' },
    { mode: 'restarts', reschedule: false, fate: 'restarted' },
  ] as const)(
    '9. a Lambda that dies after its batch $mode, before it returned: retried, nothing done twice',
    async ({ reschedule, fate }) => {
      const state = 'Restart batch';
      // Arrange: the first invocation of the step does its work, then its process dies.
      const target = await cluster();
      let died = 0;
      const dieOnce = async (stateName: string, invoke: () => Promise<unknown>) => {
        const result = await invoke();
        if (stateName !== state || died > 0) return result;
        died += 1;
        throw Object.assign(new Error('Process exited before completing request'), {
          name: 'Lambda.Unknown',
        });
      };

      // Act
      const { run, accounting } = await restart(
        target,
        { reschedule },
        {
          interceptInvocation: dieOnce,
        },
      );

      // Assert
      expect(died).toBe(1);
      expect(run.exitCode).toBe(0);
      expect(run.result.stats.retries).toBeGreaterThanOrEqual(1);
      expect(invariantsOf(accounting)).toEqual(CLEAN);
      expect(accounting.count(fate)).toBe(COUNT);
    },
  );

  it('6. a placement failure is unrecoverable and stops a -yes run before the next batch', async () => {
    // Arrange
    const target = await cluster({}, { nodes: [{ name: 'n1', id: 'node-1' }] });
    target.sim.control.setNodeEligibility('node-1', false);

    // Act
    const { run, accounting } = await restart(target, { reschedule: true });

    // Assert
    expect(run.result).toMatchObject({ status: 'FAILED', error: 'UnrecoverableError' });
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(accounting.count('failed')).toBe(2);
    expect(accounting.count('not reached')).toBe(COUNT - 2);
    expect(run.errors[0]).toMatch(/has placement failures for group "group1"/);
  });

  it('7. a token revoked between batches: permission denied stops the run, later batches untouched', async () => {
    // Arrange
    const acl = { enabled: true, tokens: [{ secret: 'ops', management: true }] };
    const target = await cluster({}, { acl });
    target.sim.control.onRequest({ pathSuffix: '/restart', nth: 3 }, () =>
      target.sim.control.seed({ nodes: [], jobs: [], acl: { enabled: true, tokens: [] } }),
    );

    // Act
    const { run, accounting } = await restart(target, {}, { token: 'ops' });

    // Assert
    expect(run.exitCode).toBe(1);
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(accounting.count('restarted')).toBe(2);
    expect(run.errors.join('\n')).toContain('Permission denied');
    expect(accounting.count('restarted') + accounting.count('failed') + accounting.count('not reached')).toBe(
      COUNT,
    );
  });

  it('11. a deployment that appears between batches stops the run with Nomad’s error', async () => {
    // Arrange
    const target = await cluster({}, {}, { ...simpleJob(JOB, 'service', COUNT), Update: { MaxParallel: 1 } });
    await target.sim.control.waitFor(
      (s) => s.deployments({ jobId: JOB }).every((d) => d.Status === 'successful'),
      5_000,
    );
    const [deployment] = target.sim.control.state().deployments({ jobId: JOB });
    target.sim.control.onRequest({ pathSuffix: '/restart', nth: 2 }, () =>
      target.sim.control.setDeploymentStatus(deployment?.ID ?? 'missing', 'running'),
    );

    // Act
    const { run, accounting } = await restart(target, {});

    // Assert
    expect(run.exitCode).toBe(1);
    expect(run.errors).toEqual([`Deployment "${deployment?.ID.slice(0, 8)}" is "running"`]);
    expect(invariantsOf(accounting)).toEqual(CLEAN);
    expect(accounting.count('restarted')).toBe(2);
    expect(accounting.count('not reached')).toBe(COUNT - 2);
  });
});
