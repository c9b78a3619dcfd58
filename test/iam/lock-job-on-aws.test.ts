/**
 * Scenario: "Lock job" on the AWS stores with IAM enforced (emulated-aws.ts), when the job's shared
 * lock in Nomad cannot be taken, on an agent with ACLs on and the README's policy. The run first
 * takes the engine's own lock (a DynamoDB item), then Nomad's; when Nomad's is refused, the engine's
 * item is given back with `DeleteItem` (`PairedJobLock.takeShared`), which Lock job's role must
 * allow, or AWS's AccessDenied replaces the real answer and every such run ends `StepFailed`.
 *
 * - A job held by a terminal run (a laptop: its variable's items name it) meets a scheduled run: it
 *   ends `SkippedJobLocked` naming the holder (docs/schedules.md), and a console run `JobLocked`.
 * - Nomad answers the lock-acquire 503 once, before or after taking the lock (a proxy failing on
 *   the way back): the state machine retries Lock job, which keeps the engine's lock and the
 *   shared lock's ID in between and takes Nomad's lock under it, and the run succeeds, leaving
 *   no lock behind.
 * - An execution dies holding the job; the stale-lock cleanup meets a 503 on Nomad's release: the
 *   engine's item still keeps the shared lock's ID, and Lambda's retry of the event frees the job
 *   at once instead of leaving it to Nomad's 24 h TTL.
 */
import { NomadClient } from '../../lib/nomad';
import type { RestartInput } from '../../lib/restart/input';
import type { RestartPlan } from '../../lib/restart/plan';
import type { RunSummary } from '../../lib/restart/run-summary';
import { rememberPlan } from '../../lib/steps/kit/plan-cache';
import { NomadVariablesLock, sharedLockPath } from '../../lib/stores';
import { FlowStates, TaskStates } from '../../lib/workflow/state-names';
import { createScaledClock } from '../../sim/index';
import { runWorkflowInput } from '../engines/local/helpers/workflow-harness';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { captureOutput, lambdaContext } from '../lambdas/helpers/fixtures';
import { type Harness, harnessPerTest, simpleJob } from '../steps/helpers/harness';
import { useEmulatedAws } from './helpers/emulated-aws';
import { asFunction } from './helpers/invoking-function';
import { withEnvironment } from './helpers/with-environment';

const aws = useEmulatedAws();
const harness = harnessPerTest();

const KEY = { namespace: 'default', jobId: 'web' };
const PATH = sharedLockPath('web');
const RESTARTS = 'PUT /v1/client/allocation/:id/restart';
/** A `nomad-restart` on someone's laptop: not this process, so no engine here can ask about it. */
const TERMINAL = { engine: 'local', who: 'alice', host: 'alice-laptop', pid: '4242' };
/** A terminal's run is named by its local execution (lib/engines/local), as the variable's items say. */
const TERMINAL_RUN = 'arn:aws:states:local:000000000000:execution:NomadRestart-Restart:0b5d6c1e-alice';
const TERMINAL_LOCK_ID = '44444444-4444-4444-8444-444444444444';

/** A plan of another run, which a process may hold instead of this run's. */
const OTHER_PLAN: RestartPlan = {
  kind: 'plan',
  job: { id: 'other', multiregion: false },
  batchSize: 1,
  batches: [],
  skipped: [],
  counts: { listed: 0, eligible: 0, skipped: 0, skippedBy: {} },
  createdAt: 0,
};

const scheduled = {
  job: 'web',
  yes: true,
  trigger: 'schedule' as const,
  scheduleName: 'nightly',
  scheduledTime: '2026-11-29T02:00:00.000Z',
};

/** Two allocations of `web` on an agent with ACLs on; the handlers hold the README's token. */
async function cluster(): Promise<Harness> {
  return await harness.startRunning(
    simpleJob('web', 'service', 2),
    { token: OPERATOR_TOKEN },
    {
      acl: readmePolicyAcl(),
    },
  );
}

/** The terminal run takes the job's shared lock in Nomad, through the README's token. */
async function heldByTerminal(h: Harness): Promise<void> {
  const client = NomadClient.create({ address: h.sim.address, token: OPERATOR_TOKEN });
  try {
    await new NomadVariablesLock(client, { identity: TERMINAL, ttl: '60s' }).take(
      KEY,
      TERMINAL_RUN,
      TERMINAL_LOCK_ID,
    );
  } finally {
    await client.close();
  }
}

/** The job's lock variable as Nomad holds it (read with the simulator's own eyes). */
const lockVariable = (h: Harness) => h.sim.control.state().variable('default', PATH);

/** The actions Lock job's calls needed, in order. */
const lockJobActions = (from: number) =>
  aws.ledger.calls
    .slice(from)
    .filter((c) => c.functionName === 'lock-job')
    .map((c) => c.request.action);

describe('Lock job when the job is held by a terminal run, on AWS with IAM enforced', () => {
  it('ends a scheduled run SkippedJobLocked naming the holder, and gives its own lock back', async () => {
    // Arrange
    const h = await cluster();
    await heldByTerminal(h);
    const from = aws.ledger.calls.length;

    // Act
    const run = await runWorkflowInput(h, scheduled, { token: OPERATOR_TOKEN });

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    expect(run.entered.at(-1)).toBe(FlowStates.skippedJobLocked);
    expect(run.entered).not.toContain(TaskStates.checkDeployments);
    const summary = run.result.output as RunSummary;
    expect(summary).toMatchObject({ outcome: 'skipped-job-locked', lockedBy: TERMINAL_RUN });
    expect(summary.lines[0]).toBe(
      `Restart of job "web" in namespace "default": skipped, the job is already being restarted by execution "${TERMINAL_RUN}"`,
    );
    expect(run.events).toEqual([
      expect.objectContaining({ type: 'skipped-job-locked', jobId: 'web', holder: TERMINAL_RUN }),
      expect.objectContaining({ type: 'run-ended', outcome: 'skipped-job-locked' }),
    ]);
    expect(lockJobActions(from)).toContain('dynamodb:DeleteItem');
    expect(await aws.lockHolder(KEY)).toBeUndefined();
    expect(lockVariable(h)?.items['runId']).toBe(TERMINAL_RUN);
    expect(h.sim.control.counters()[RESTARTS]).toBeUndefined();
  });

  it('reports a skipped scheduled run’s planned allocations as locked with startedBefore, reading its plan', async () => {
    // Arrange: on the wall clock, which "Validate input" resolves the time against.
    const h = await harness.startRunning(
      simpleJob('web', 'service', 2),
      { token: OPERATOR_TOKEN, clock: createScaledClock(1) },
      { acl: readmePolicyAcl() },
    );
    await heldByTerminal(h);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const startedBefore = new Date().toISOString();
    const from = aws.ledger.calls.length;

    // Act
    // The schedule fired now: a time after its scheduled time would be in the future.
    const scheduledTime = new Date(Date.now() + 1).toISOString();
    const run = await runWorkflowInput(
      h,
      { ...scheduled, scheduledTime, startedBefore },
      {
        token: OPERATOR_TOKEN,
        // On AWS, Lock job is a function of its own, without the plan Plan decoded in its process:
        // this process forgets it too, so Lock job reads it from S3 as it would there.
        interceptInvocation: (state, invoke) => {
          if (state === TaskStates.lockJob) rememberPlan('another-run/plan.json', OTHER_PLAN);
          return invoke();
        },
      },
    );

    // Assert
    expect(run.entered.at(-1)).toBe(FlowStates.skippedJobLocked);
    const summary = run.result.output as RunSummary;
    expect(summary.freshness).toMatchObject({
      startedBefore,
      checked: 2,
      restarted: 0,
      stale: [{ why: 'locked' }, { why: 'locked' }],
    });
    expect(run.exitCode).toBe(0);
    expect(lockJobActions(from)).toContain('s3:GetObject');
    expect(h.sim.control.counters()[RESTARTS]).toBeUndefined();
  });

  it('fails a console run JobLocked with the holder’s words, and gives its own lock back', async () => {
    // Arrange
    const h = await cluster();
    await heldByTerminal(h);

    // Act
    const run = await runWorkflowInput(h, { job: 'web', yes: true }, { token: OPERATOR_TOKEN });

    // Assert
    expect(run.result).toMatchObject({ status: 'FAILED', error: 'JobLocked' });
    expect(run.result.cause).toContain(
      `Job "web" in namespace "default" is already being restarted by run "${TERMINAL_RUN}" ` +
        '(started by alice on alice-laptop with the local engine, since ',
    );
    expect(await aws.lockHolder(KEY)).toBeUndefined();
    expect(lockVariable(h)?.items['runId']).toBe(TERMINAL_RUN);
    expect(h.sim.control.counters()[RESTARTS]).toBeUndefined();
  });
});

describe('Lock job when Nomad answers the lock-acquire 503 once, on AWS with IAM enforced', () => {
  it.each([
    { when: 'before taking the lock', afterHandling: false },
    { when: 'after taking the lock (the answer lost on the way back)', afterHandling: true },
  ])('is retried and the run succeeds, leaving no lock held: $when', async ({ afterHandling }) => {
    // Arrange
    const h = await cluster();
    h.sim.control.injectFault({ pathSuffix: PATH, method: 'PUT', nth: 1, status: 503, afterHandling });

    // Act
    const run = await runWorkflowInput(h, { job: 'web', yes: true }, { token: OPERATOR_TOKEN });

    // Assert: Step Functions' Retry ran Lock job again in the same state, and the run went on.
    expect(run.result.status).toBe('SUCCEEDED');
    expect(run.exitCode).toBe(0);
    expect(run.entered.filter((s) => s === TaskStates.lockJob)).toHaveLength(1);
    const acquires = h.sim.control
      .requestLog()
      .filter((r) => r.path.endsWith(PATH) && r.query.includes('lock-acquire'));
    expect(acquires.map((r) => r.status)).toEqual([503, 200]);
    expect(h.sim.control.counters()[RESTARTS]).toBe(2);
    expect(await aws.lockHolder(KEY)).toBeUndefined();
    expect(lockVariable(h)?.lock).toBeUndefined();
  });
});

const { handler: releaseStaleLock } = await import('../../lambdas/release-stale-lock');

/** Runs `input` and aborts the execution (stopped from the console: no Catch, its locks stay) at its first restart. */
async function abortedAtFirstRestart(h: Harness, input: RestartInput): Promise<string> {
  const controller = new AbortController();
  h.sim.control.onRequest({ pathSuffix: '/restart', method: 'PUT', nth: 1 }, () => controller.abort());
  const run = await runWorkflowInput(h, input, { token: OPERATOR_TOKEN, signal: controller.signal });
  expect(run.result.status).toBe('ABORTED');
  // Let the batch step the abort left running finish, as a Lambda does after its execution stops.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return run.result.executions?.[0]?.executionArn ?? '';
}

/** One delivery of the execution's status change to the stale-lock handler, reaching Nomad as on Lambda. */
function deliverAborted(h: Harness, executionArn: string, input: RestartInput) {
  const event = {
    'detail-type': 'Step Functions Execution Status Change',
    detail: { executionArn, status: 'ABORTED', input: JSON.stringify(input) },
  };
  return withEnvironment({ NOMAD_ADDR: h.sim.address, NOMAD_TOKEN: OPERATOR_TOKEN }, () =>
    captureOutput(() => asFunction('release-stale-lock', () => releaseStaleLock(event, lambdaContext()))),
  );
}

describe('the stale-lock cleanup when Nomad answers its release 503, on AWS with IAM enforced', () => {
  it('keeps the shared lock’s ID for the retry, which frees the job without waiting for the TTL', async () => {
    // Arrange: an execution aborted mid-run holds both locks; Nomad fails the next lock request.
    const h = await cluster();
    const input = { job: 'web', yes: true };
    const executionArn = await abortedAtFirstRestart(h, input);
    expect(await aws.lockHolder(KEY)).toBe(executionArn);
    expect(lockVariable(h)?.lock).toBeDefined();
    h.sim.control.injectFault({ pathSuffix: PATH, method: 'PUT', nth: 1, status: 503 });

    // Act: the event, then Lambda's retry of it (an asynchronous invocation that failed).
    const first = await deliverAborted(h, executionArn, input);
    const holderBetween = await aws.lockHolder(KEY);
    const retried = await deliverAborted(h, executionArn, input);

    // Assert
    expect(first.error).toBeInstanceOf(Error);
    expect(holderBetween).toBe(executionArn);
    expect(retried.error).toBeUndefined();
    expect(retried.result).toEqual({ released: 1 });
    expect(lockVariable(h)?.lock).toBeUndefined();
    expect(await aws.lockHolder(KEY)).toBeUndefined();
  });
});
