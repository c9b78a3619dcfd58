/**
 * Fault case 10: an execution aborted mid-batch (stopped from the console: no Catch runs, its
 * lock stays behind), the status-change path (`release-stale-lock`) releasing its lock, then a
 * new run for the same job. The new run skips what the aborted run already did (restarted in
 * place, or stopped and replaced, its replacements included) and does the rest, so over both
 * runs every allocation is restarted or replaced exactly once. Ends with the accounting check.
 * The aborted run's record in the job's restart history ends `aborted` on the status-change path
 * (no step of its own ever ran after the abort), beside the new run's `succeeded`.
 */
import { NomadClient } from '../../lib/nomad';
import { toRestartInput } from '../../lib/restart/input';
import type { RestartOptions } from '../../lib/restart/options';
import { sharedLockPath } from '../../lib/stores';
import { NomadRunHistory } from '../../lib/stores/nomad-run-history';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { HISTORY_READER_TOKEN, OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { restartOptions } from '../fixtures/restart-options';
import { asFunction } from '../iam/helpers/iam-check';
import { captureOutput, lambdaContext } from '../lambdas/helpers/fixtures';
import { allocationsOf, eventsOf, type Harness, simpleJob, waitAllRunning } from '../steps/helpers/harness';
import { accountFor, CLEAN, faultSuite, invariantsOf } from './helpers/accounting';

const { harness, aws } = faultSuite();

const { handler: releaseStaleLock } = await import('../../lambdas/release-stale-lock');

const JOB = 'web';
const COUNT = 6;
const KEY = { namespace: 'default', jobId: JOB };

/** Runs `options` and aborts the execution when the `nth` request ending in `pathSuffix` arrives. */
async function abortedRun(target: Harness, options: RestartOptions, pathSuffix: string, nth: number) {
  const controller = new AbortController();
  target.sim.control.onRequest({ pathSuffix, method: 'PUT', nth }, () => controller.abort());
  const run = await runWorkflow(target, options, { signal: controller.signal, token: OPERATOR_TOKEN });
  const executionArn = run.result.executions?.[0]?.executionArn ?? '';
  // Let the batch step the abort left running finish, as a Lambda does after its execution stops.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { run, executionArn };
}

/**
 * The EventBridge event Step Functions sends for the aborted execution, to its real handler, which
 * reaches Nomad (the job's shared lock) through `NOMAD_ADDR` as on Lambda.
 */
async function statusChange(target: Harness, executionArn: string, options: RestartOptions) {
  const event = {
    'detail-type': 'Step Functions Execution Status Change',
    detail: { executionArn, status: 'ABORTED', input: JSON.stringify(toRestartInput(options)) },
  };
  const before = { addr: process.env['NOMAD_ADDR'], token: process.env['NOMAD_TOKEN'] };
  Object.assign(process.env, { NOMAD_ADDR: target.sim.address, NOMAD_TOKEN: OPERATOR_TOKEN });
  try {
    const { result, error } = await captureOutput(() =>
      asFunction('release-stale-lock', () => releaseStaleLock(event, lambdaContext())),
    );
    if (error !== undefined) throw error;
    return result;
  } finally {
    for (const [name, value] of [
      ['NOMAD_ADDR', before.addr],
      ['NOMAD_TOKEN', before.token],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** The job's restart history, read with the README's reader policy. */
async function historyOf(target: Harness) {
  const client = NomadClient.create({ address: target.sim.address, token: HISTORY_READER_TOKEN });
  try {
    return (await new NomadRunHistory(client).read(KEY)).records;
  } finally {
    await client.close();
  }
}

/** The job's shared lock variable in the simulator. */
const sharedLockOf = (target: Harness) => target.sim.control.state().variable('default', sharedLockPath(JOB));

describe('an execution aborted mid-batch, then a new run for the same job', () => {
  it.each([
    { mode: '-reschedule', reschedule: true, path: '/stop', fate: 'rescheduled' },
    { mode: 'in place', reschedule: false, path: '/restart', fate: 'restarted' },
  ] as const)(
    '$mode: the new run skips what the aborted run did and does the rest, once',
    async ({ reschedule, path, fate }) => {
      // Arrange: batches of 2; the abort comes with the first request of batch 2.
      // ACLs on, the README's policy: the shared lock's ID is Nomad's to its holder alone, so the
      // status-change path frees it with the ID the lock table kept.
      const h = await harness.start(
        {
          nodes: [{ name: 'n1' }, { name: 'n2' }],
          jobs: [simpleJob(JOB, 'service', COUNT)],
          acl: readmePolicyAcl(),
        },
        { token: OPERATOR_TOKEN },
      );
      const target = h;
      await waitAllRunning(target, JOB, COUNT);
      const planned = allocationsOf(target, JOB);
      const startedAt = target.now();
      const options = restartOptions(JOB, { reschedule, batchSize: { value: 2, percent: false } });
      const aborted = await abortedRun(target, options, path, 3);
      expect(aborted.run.result.status).toBe('ABORTED');
      expect(await aws.lockHolder(KEY)).toBe(aborted.executionArn);
      expect(sharedLockOf(target)?.lock).toBeDefined();
      if (reschedule) await waitAllRunning(target, JOB, COUNT);
      const doneByAborted = target.sim.control.requestLog().filter((e) => e.path.endsWith(path)).length;
      expect(doneByAborted).toBeGreaterThanOrEqual(3); // batch 1, and batch 2 begun
      expect(doneByAborted).toBeLessThan(COUNT);

      // Act
      const beforeRelease = await historyOf(target);
      const released = await statusChange(target, aborted.executionArn, options);
      const sharedAfterRelease = sharedLockOf(target)?.lock;
      const afterRelease = await historyOf(target);
      const run = await runWorkflow(target, options, { token: OPERATOR_TOKEN });

      // Assert: both locks freed by the status-change path, none taken over.
      expect(released).toEqual({ released: 1 });
      expect(sharedAfterRelease).toBeUndefined();
      expect(eventsOf(run.events, 'lock-taken-over')).toEqual([]);
      expect(run.exitCode).toBe(0);
      const accounting = accountFor(target, planned, run, startedAt);
      expect({ ...invariantsOf(accounting), summaryAgrees: true }).toEqual(CLEAN);
      expect(accounting.count(fate)).toBe(COUNT);
      const requests = target.sim.control.requestLog().filter((e) => e.path.endsWith(path));
      expect(requests).toHaveLength(COUNT);
      expect(run.result.output).toMatchObject({ restarted: COUNT - doneByAborted });
      expect(eventsOf(run.events, 'earlier-run-resumed')).toEqual([
        expect.objectContaining({ previousRun: aborted.executionArn, skipped: doneByAborted }),
      ]);
      expect(await aws.lockHolder(KEY)).toBeUndefined();
      // The history: running until the status-change path ended it, then beside the new run's.
      expect(beforeRelease).toEqual([
        expect.objectContaining({ runId: aborted.executionArn, outcome: 'running' }),
      ]);
      expect(afterRelease).toEqual([
        expect.objectContaining({ runId: aborted.executionArn, outcome: 'aborted' }),
      ]);
      expect(afterRelease[0]?.endedAt).toBeDefined();
      expect((await historyOf(target)).map((r) => r.outcome)).toEqual(['succeeded', 'aborted']);
    },
  );
});
