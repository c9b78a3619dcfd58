// Scenario: the exported middy handlers, invoked as Lambda would (event + a context with time
// remaining), over a fake RestartSteps (the engine comes later) bound through the one
// steps-factory module. Secrets Manager is mocked; the token must reach the Nomad client and
// nothing else: no log line, no output.

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { NomadConnectionError } from '../../lib/nomad/errors';
import type { Decision, PlanRef, Progress } from '../../lib/workflow/payloads';
import type { RestartStepsDeps } from '../../lib/workflow/restart-steps';
import { captureOutput, FakeSteps, lambdaContext, plannedState } from './helpers/fixtures';

let fake = new FakeSteps({});
jest.unstable_mockModule('../../lib/steps/kit/steps-factory', () => ({
  createRestartSteps: (deps: RestartStepsDeps) => fake.create(deps),
}));

const TOKEN = 'f3a9c1d2-secret-token-0b7e';
const TOKEN_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:nomad-token-AbCdEf';
const secrets = mockClient(SecretsManagerClient);

const { handler: plan } = await import('../../lambdas/plan');
const { handler: awaitBatch } = await import('../../lambdas/await-batch');
const { handler: decide } = await import('../../lambdas/decide');
const { handler: lockJob } = await import('../../lambdas/lock-job');
const { handler: validateInput } = await import('../../lambdas/validate-input');
const { withLocalInvocation } = await import('../../lib/steps/kit/local-invocation');
const { handler: ask } = await import('../../lambdas/ask');
const { handler: releaseLock } = await import('../../lambdas/release-lock');
const { localStores } = await import('../../lib/stores/from-env');

const envBefore = { ...process.env };
beforeEach(() => {
  process.env['AWS_REGION'] = 'us-east-1';
  process.env['NOMAD_ADDR'] = 'http://127.0.0.1:4646';
  process.env['NOMAD_TOKEN_SECRET_ARN'] = TOKEN_ARN;
  process.env['POWERTOOLS_LOG_LEVEL'] = 'DEBUG';
  // These handlers' own locks only: the job's shared lock in Nomad is tested against the simulator.
  process.env['NOMAD_RESTART_VARIABLES_LOCK'] = 'false';
  secrets
    .on(GetSecretValueCommand, { SecretId: TOKEN_ARN })
    .resolves({ SecretString: JSON.stringify({ token: TOKEN }) });
});
afterEach(() => {
  secrets.reset();
  process.env = { ...envBefore };
});

describe('plan handler', () => {
  it('builds the Nomad client from the secret and merges the plan into the state, its lines held for "Lock job"', async () => {
    // Arrange
    const planned = plannedState();
    fake = new FakeSteps({
      plan: async () => ({
        plan: planned.plan as PlanRef,
        progress: planned.progress as Progress,
        decision: planned.decision as Decision,
        events: [{ type: 'restart-started', time: 1, count: 6 }],
      }),
    });
    const input = plannedState({ plan: null, progress: null, decision: null });

    // Act
    const { result, output } = await captureOutput(() => plan(input, lambdaContext()));

    // Assert
    expect(result).toEqual({
      ...input,
      plan: planned.plan,
      // The history estimate starts with the execution's first states (history-budget.ts).
      progress: { ...planned.progress, historyEvents: 24 },
      decision: planned.decision,
      events: [],
      planEvents: [{ type: 'restart-started', time: 1, count: 6 }],
    });
    expect(fake.calls).toEqual([{ method: 'plan', input: { options: input.options, run: input.run } }]);
    expect(fake.deps[0]?.nomad.config.token).toBe(TOKEN);
    expect(fake.deps[0]?.signal.aborted).toBe(false);
    expect(output).toContain('Planned restart');
    expect(output).not.toContain(TOKEN);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('re-throws a transient Nomad failure as NomadTransientError for Retry, without the token', async () => {
    // Arrange
    fake = new FakeSteps({
      plan: async () => {
        throw new NomadConnectionError(
          'Get "http://127.0.0.1:4646/v1/jobs": connection refused',
          false,
          'ECONNREFUSED',
        );
      },
    });

    // Act
    const { error, output } = await captureOutput(() => plan(plannedState(), lambdaContext()));

    // Assert
    expect(error).toMatchObject({
      name: 'NomadTransientError',
      message: 'Get "http://127.0.0.1:4646/v1/jobs": connection refused',
    });
    expect(output).toContain('NomadConnectionError');
    expect(output).not.toContain(TOKEN);
  });

  it('fails with the secret named when the secret has no token', async () => {
    // Arrange
    const otherArn = `${TOKEN_ARN}-other`;
    process.env['NOMAD_TOKEN_SECRET_ARN'] = otherArn;
    secrets.on(GetSecretValueCommand, { SecretId: otherArn }).resolves({ SecretString: '{"user":"x"}' });
    fake = new FakeSteps({});

    // Act
    const { error } = await captureOutput(() => plan(plannedState(), lambdaContext()));

    // Assert
    expect((error as Error).message).toBe(
      `Secret "${otherArn}" is JSON without a non-empty string field "token"`,
    );
  });
});

describe('await-batch handler', () => {
  it('stores done and the cursor on the batch, with a live deadline signal', async () => {
    // Arrange
    const batch = {
      index: 0,
      size: 2,
      startedAt: 5,
      stopIndex: 10,
      done: false,
      cursor: null,
      errorCount: 0,
      unrecoverable: false,
    };
    fake = new FakeSteps({
      awaitBatch: async () => ({ done: false, cursor: { index: 42 }, batch, events: [] }),
    });

    // Act
    const { result } = await captureOutput(() => awaitBatch(plannedState({ batch }), lambdaContext(120_000)));

    // Assert
    expect((result as { batch: unknown }).batch).toEqual({
      ...batch,
      done: false,
      cursor: { index: 42 },
      // One more slice counted against the execution's await budget.
      slicesThisExecution: 1,
    });
    expect(fake.deps[0]?.signal.aborted).toBe(false);
  });
});

describe('decide handler', () => {
  it('passes a pending cancel request to the engine and drops the finished batch', async () => {
    // Arrange
    const state = plannedState({
      run: { runId: 'arn:exec:decide', executionId: 'arn:exec:decide', executionNumber: 1 },
      batch: {
        index: 0,
        size: 2,
        startedAt: 5,
        stopIndex: 0,
        done: true,
        cursor: null,
        errorCount: 0,
        unrecoverable: false,
      },
    });
    await localStores.lock.acquire(
      { namespace: 'default', jobId: 'web' },
      { owner: 'arn:exec:decide', ttlSeconds: 60 },
    );
    await localStores.lock.requestCancel({ namespace: 'default', jobId: 'web' }, 'arn:exec:decide');
    fake = new FakeSteps({
      decide: async () => ({
        progress: state.progress as Progress,
        decision: { action: 'cancel', waitSeconds: 0, question: null },
        events: [],
      }),
    });

    // Act
    const { result } = await captureOutput(() => decide(state, lambdaContext()));

    // Assert
    expect(fake.calls[0]?.input).toMatchObject({ cancelRequested: true });
    expect(result).toMatchObject({ batch: null, decision: { action: 'cancel' } });
    await localStores.lock.release({ namespace: 'default', jobId: 'web' }, 'arn:exec:decide');
  });
});

describe('lock-job handler', () => {
  it("shows the plan's held lines once it holds the job, and carries them no further", async () => {
    // Arrange
    const planned = plannedState({
      run: { runId: 'arn:exec:alone', executionId: 'arn:exec:alone', executionNumber: 1 },
      events: [],
      planEvents: [{ type: 'restart-started', time: 1, count: 6 }],
    });

    // Act
    const { result } = await captureOutput(() => lockJob(planned, lambdaContext()));

    // Assert
    expect(result).toMatchObject({
      events: [
        { type: 'restart-started', time: 1, count: 6 },
        // The job is the run's: its record in the job's history starts.
        { type: 'run-started', runId: 'arn:exec:alone', jobId: 'web', planned: 6, batches: 3 },
      ],
    });
    expect(result).not.toHaveProperty('planEvents');
    await releaseLock(planned, lambdaContext());
  });

  it('fails a second run fast with JobLockedError naming the holder', async () => {
    // Arrange
    const first = plannedState({
      run: { runId: 'arn:exec:first', executionId: 'arn:exec:first', executionNumber: 1 },
    });
    const second = plannedState({
      run: { runId: 'arn:exec:second', executionId: 'arn:exec:second', executionNumber: 1 },
    });
    await lockJob(first, lambdaContext());
    localStores.runs.started('arn:exec:first');

    // Act
    const { error } = await captureOutput(() => lockJob(second, lambdaContext()));

    // Assert
    localStores.runs.ended('arn:exec:first');
    expect(error).toMatchObject({
      name: 'JobLockedError',
      message: 'Job "web" in namespace "default" is already being restarted by execution "arn:exec:first"',
    });
    await releaseLock(first, lambdaContext());
    expect(localStores.lock.holder({ namespace: 'default', jobId: 'web' })).toBeUndefined();
  });

  it('takes over the lock of a run that is no longer running, and says so', async () => {
    // Arrange: the first run ended without releasing its lock (no status-change event came).
    const first = plannedState({
      run: { runId: 'arn:exec:gone', executionId: 'arn:exec:gone', executionNumber: 1 },
    });
    const second = plannedState({
      run: { runId: 'arn:exec:next', executionId: 'arn:exec:next', executionNumber: 1 },
      planEvents: [{ type: 'restart-started', time: 1, count: 6 }],
    });
    await lockJob(first, lambdaContext());

    // Act
    const { result } = await captureOutput(() => lockJob(second, lambdaContext()));

    // Assert: the plan's line first, as a run that took the lock at once shows it.
    expect((result as { events: unknown[] }).events).toEqual([
      { type: 'restart-started', time: 1, count: 6 },
      expect.objectContaining({ type: 'run-started', runId: 'arn:exec:next' }),
      expect.objectContaining({
        type: 'lock-taken-over',
        previousRun: 'arn:exec:gone',
        previousStatus: 'NOT_FOUND',
      }),
    ]);
    expect(localStores.lock.holder({ namespace: 'default', jobId: 'web' })).toBe('arn:exec:next');
    await releaseLock(second, lambdaContext());
  });
});

describe('release-lock handler', () => {
  it('tolerates the raw input of a run that failed before planning', async () => {
    // Arrange
    const raw = { job: 'web', error: { Error: 'States.Runtime', Cause: 'x' } };

    // Act
    const { result } = await captureOutput(() => releaseLock(raw, lambdaContext()));

    // Assert
    expect(result).toEqual({ ...raw, events: [] });
  });

  it("leaves only the message of Lambda's error JSON in the cause, without the trace", async () => {
    // Arrange: on AWS a Catch writes a Lambda error as JSON, its stack trace included.
    const message = 'No job(s) with prefix or ID "gone" found';
    const cause = JSON.stringify({
      errorType: 'JobNotFoundError',
      errorMessage: message,
      trace: ['at plan'],
    });
    const raw = { job: 'gone', error: { Error: 'JobNotFoundError', Cause: cause } };

    // Act
    const { result } = await captureOutput(() => releaseLock(raw, lambdaContext()));

    // Assert
    expect(result).toEqual({ job: 'gone', events: [], error: { Error: 'JobNotFoundError', Cause: message } });
  });
});

describe('validate-input handler', () => {
  it.each([
    {
      name: 'refuses a zero batch size with Nomad’s message',
      input: { job: 'web', batchSize: '0' },
      expectedErr: 'Invalid -batch-size value "0": number value must be greater than zero',
    },
    {
      name: 'refuses an unknown on-error value with Nomad’s message',
      input: { job: 'web', onError: 'maybe' },
      expectedErr: 'Invalid -on-error value "maybe": valid options are "ask" and "fail"',
    },
    {
      name: 'refuses a batch wait the job’s lock, renewed just before it, would not outlast on AWS',
      input: { job: 'web', batchWait: '24h', yes: true },
      expectedErr:
        'Invalid -batch-wait value "24h": a run on AWS waits at most 23h at a time, since the job\'s lock it renews before the wait lasts 24h; use "ask" or a shorter wait',
    },
    {
      name: 'refuses a startedBefore that is neither a time nor a duration, naming the flag',
      input: { job: 'web', startedBefore: 'last week', yes: true },
      expectedErr:
        'Invalid -started-before value "last week": expected an RFC 3339 time with a zone, e.g. "2026-12-07T09:00:00Z", or a Go duration meaning that long before now, e.g. "2h" (string)',
    },
    {
      name: 'refuses a dry run, which only the command line makes (read-only)',
      input: { job: 'web', dryRun: true, yes: true },
      expectedErr:
        'Invalid input field "dryRun": got true, expected false (a dry run is made by "nomad-restart -dry-run", not by an execution)',
    },
  ])('$name', async ({ input, expectedErr }) => {
    // Arrange
    const event = { input, executionId: 'arn:exec:v' };

    // Act
    const { error } = await captureOutput(() => validateInput(event, lambdaContext()));

    // Assert
    expect(error).toMatchObject({ name: 'InvalidInputError', message: expectedErr });
  });

  it('lets a terminal wait longer between batches: its process renews the lock meanwhile', async () => {
    // Arrange
    const event = { input: { job: 'web', batchWait: '48h', yes: true }, executionId: 'arn:exec:v' };
    const local = withLocalInvocation(lambdaContext(), { liveEvents: () => {} });

    // Act
    const { result, error } = await captureOutput(() => validateInput(event, local));

    // Assert
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ options: { batchWait: { kind: 'duration', ns: 48 * 3600e9 } } });
  });

  it("resolves a relative startedBefore once, against the execution's start, not the handler's clock", async () => {
    // Arrange: a retried Validate input, long after the execution started, must give the same time.
    const event = {
      input: { job: 'web', startedBefore: '2h', yes: true },
      executionId: 'arn:exec:v',
      startTime: '2026-12-07T05:00:00.000Z',
    };

    // Act
    const { result } = await captureOutput(() => validateInput(event, lambdaContext()));

    // Assert
    expect(result).toMatchObject({ options: { startedBefore: Date.parse('2026-12-07T03:00:00.000Z') } });
  });

  it('starts the run with the execution as run id and empty slots', async () => {
    // Arrange
    const event = { input: { job: 'web', batchSize: '25%', yes: true }, executionId: 'arn:exec:v' };

    // Act
    const { result } = await captureOutput(() => validateInput(event, lambdaContext()));

    // Assert
    expect(result).toMatchObject({
      options: { job: 'web', batchSize: { value: 25, percent: true }, yes: true },
      run: { runId: 'arn:exec:v', executionId: 'arn:exec:v', executionNumber: 1 },
      plan: null,
      events: [],
    });
  });
});

describe('ask handler', () => {
  it('parks the question under an opaque id and never logs or returns the task token', async () => {
    // Arrange
    const taskToken = 'AQCEAAAAKgAAAAMAAAAAAAAAA-task-token';
    const event = {
      taskToken,
      executionId: 'arn:exec:ask',
      runId: 'arn:exec:ask',
      jobId: 'web',
      namespace: 'default',
      question: {
        kind: 'proceed',
        prompt: 'Proceed with the next batch? [Y/n]',
        summary: '2 of 6 restarted',
      },
    };

    // Act
    const { result, output } = await captureOutput(() => ask(event, lambdaContext()));

    // Assert
    const { approvalId } = result as { approvalId: string };
    const stored = await localStores.approvals.get(approvalId);
    expect(stored).toMatchObject({
      taskToken,
      executionId: 'arn:exec:ask',
      prompt: 'Proceed with the next batch? [Y/n]',
    });
    expect(JSON.stringify(result)).not.toContain(taskToken);
    expect(output).not.toContain(taskToken);
  });

  it('stores what chat shows with the question: region, who started the run, the batch just run', async () => {
    // Arrange
    const executionId = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:run-7';
    const event = {
      taskToken: 'token',
      executionId,
      runId: executionId,
      jobId: 'web',
      namespace: 'default',
      question: { kind: 'proceed', prompt: 'Proceed with the next batch? [Y/n]', summary: '' },
      options: { job: 'web', region: 'eu' },
      run: { runId: executionId, executionId, executionNumber: 1, startedBy: 'alice' },
      plan: { allocationCount: 5, batchSize: 2, batchCount: 3 },
      progress: { nextBatch: 3, restarted: 4, failed: 1 },
    };

    // Act
    const { result } = await captureOutput(() => ask(event, lambdaContext()));

    // Assert
    const stored = await localStores.approvals.get((result as { approvalId: string }).approvalId);
    expect(stored).toMatchObject({
      stateMachineArn: 'arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart',
      region: 'eu',
      startedBy: 'alice',
      // The third batch of 5 allocations by 2 holds the last one.
      batch: { number: 3, count: 3, size: 1 },
      totals: { restarted: 4, failed: 1 },
    });
  });

  it('names the schedule as who started a run whose input has no startedBy', async () => {
    // Arrange
    const event = {
      taskToken: 'token',
      executionId: 'arn:exec:scheduled',
      runId: 'arn:exec:scheduled',
      jobId: 'web',
      namespace: 'default',
      question: { kind: 'proceed', prompt: 'Proceed with the next batch? [Y/n]', summary: '' },
      options: { job: 'web', scheduleName: 'weekly-web' },
      run: { runId: 'arn:exec:scheduled', executionId: 'arn:exec:scheduled', executionNumber: 1 },
    };

    // Act
    const { result } = await captureOutput(() => ask(event, lambdaContext()));

    // Assert
    const stored = await localStores.approvals.get((result as { approvalId: string }).approvalId);
    expect(stored.startedBy).toBe('schedule "weekly-web"');
  });

  it('keeps the question as long as it can be answered: its timeout, plus a day', async () => {
    // Arrange: a 30-day approvalTimeout, past the week items used to live whatever the timeout.
    const timeoutSeconds = 30 * 86_400;
    const event = {
      taskToken: 'token',
      executionId: 'arn:exec:long-question',
      runId: 'arn:exec:long-question',
      jobId: 'web',
      namespace: 'default',
      question: { kind: 'proceed', prompt: 'Proceed with the next batch? [Y/n]', summary: '' },
      timeoutSeconds,
    };

    // Act
    const { result } = await captureOutput(() => ask(event, lambdaContext()));

    // Assert
    const stored = await localStores.approvals.get((result as { approvalId: string }).approvalId);
    expect(stored.timesOutAt).toBe(stored.createdAt + timeoutSeconds);
    expect(stored.expiresAt).toBe(stored.createdAt + timeoutSeconds + 86_400);
  });
});
