/**
 * The "Lock job" and "Release lock" handlers as Lambda runs them (LOCK_TABLE set, the real
 * DynamoDB client) against a DynamoDB emulator on 127.0.0.1: real conditional writes decide
 * which of two concurrent runs holds a job, and whether a run whose lease ran out loses it.
 * Step Functions' `DescribeExecution` (who is still running) is the one faked edge.
 */
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDbJobLock } from '../../lib/stores';
import { captureOutput, lambdaContext, plannedState } from '../lambdas/helpers/fixtures';
import { emulatedHandlerEnvironment } from './helpers/dynamodb-emulator';

const { handler: lockJob } = await import('../../lambdas/lock-job');
const { handler: releaseLock } = await import('../../lambdas/release-lock');
const { handler: resumeRun } = await import('../../lambdas/resume-run');

const KEY = { namespace: 'default', jobId: 'web' };
const execution = (name: string) => `arn:aws:states:us-east-1:123456789012:execution:NomadRestart:${name}`;
const stateOf = (name: string) =>
  plannedState({ run: { runId: execution(name), executionId: execution(name), executionNumber: 1 } });

const sfn = mockClient(SFNClient);
const emulated = emulatedHandlerEnvironment();
let table: string;

beforeEach(async () => {
  table = await emulated.db.createTable('LockTable');
  process.env['LOCK_TABLE'] = table;
});
afterEach(() => sfn.reset());

/** Answers `DescribeExecution` with `status` for every execution named in `statuses`. */
function executionsAre(statuses: Record<string, 'RUNNING' | 'SUCCEEDED' | 'ABORTED'>): void {
  for (const [name, status] of Object.entries(statuses)) {
    sfn.on(DescribeExecutionCommand, { executionArn: execution(name) }).resolves({ status });
  }
}

describe('Lock job on a DynamoDB emulator', () => {
  it('lets exactly one of two concurrent runs hold the job; the other names the winner', async () => {
    // Arrange
    executionsAre({ first: 'RUNNING', second: 'RUNNING' });

    // Act
    const [a, b] = await Promise.all(
      ['first', 'second'].map((name) => captureOutput(() => lockJob(stateOf(name), lambdaContext()))),
    );

    // Assert
    const outcomes = [a, b].map((o) => (o?.error === undefined ? 'won' : 'lost'));
    expect(outcomes.sort()).toEqual(['lost', 'won']);
    const winner = a?.error === undefined ? 'first' : 'second';
    const loser = [a, b].find((o) => o?.error !== undefined);
    expect(loser?.error).toMatchObject({
      name: 'JobLockedError',
      message: `Job "web" in namespace "default" is already being restarted by execution "${execution(winner)}"`,
    });
    const holder = new DynamoDbJobLock(emulated.db.client, table);
    await expect(holder.release(KEY, execution(winner))).resolves.toEqual({ key: KEY });
  });

  it('keeps a job whose holder is still running, even with its lease long run out', async () => {
    // Arrange
    await new DynamoDbJobLock(emulated.db.client, table).acquire(KEY, {
      owner: execution('slow'),
      ttlSeconds: -3600,
    });
    executionsAre({ slow: 'RUNNING' });

    // Act
    const { error } = await captureOutput(() => lockJob(stateOf('next'), lambdaContext()));

    // Assert
    expect(error).toMatchObject({ name: 'JobLockedError' });
    expect(String((error as Error).message)).toContain(execution('slow'));
    await expect(
      new DynamoDbJobLock(emulated.db.client, table).release(KEY, execution('slow')),
    ).resolves.toEqual({
      key: KEY,
    });
  });

  it('takes a job over from a holder found not running, once, when two runs race for it', async () => {
    // Arrange: the holder was aborted without its lock being released.
    await new DynamoDbJobLock(emulated.db.client, table).acquire(KEY, {
      owner: execution('aborted'),
      ttlSeconds: 3600,
    });
    executionsAre({ aborted: 'ABORTED', one: 'RUNNING', two: 'RUNNING' });

    // Act
    const results = await Promise.all(
      ['one', 'two'].map((name) => captureOutput(() => lockJob(stateOf(name), lambdaContext()))),
    );

    // Assert
    const won = results.filter((r) => r.error === undefined);
    expect(won).toHaveLength(1);
    expect((won[0]?.result as { events: unknown[] } | undefined)?.events).toEqual([
      expect.objectContaining({ type: 'run-started' }),
      expect.objectContaining({ type: 'lock-taken-over', previousRun: execution('aborted') }),
    ]);
    expect(results.find((r) => r.error !== undefined)?.error).toMatchObject({ name: 'JobLockedError' });
  });

  it('lets the holder release the job and a late release of the run it took over from change nothing', async () => {
    // Arrange
    await new DynamoDbJobLock(emulated.db.client, table).acquire(KEY, {
      owner: execution('aborted'),
      ttlSeconds: 3600,
    });
    executionsAre({ aborted: 'ABORTED', next: 'RUNNING' });
    await captureOutput(() => lockJob(stateOf('next'), lambdaContext()));

    // Act
    await captureOutput(() => releaseLock(stateOf('aborted'), lambdaContext()));
    const afterLateRelease = await captureOutput(() => lockJob(stateOf('third'), lambdaContext()));
    await captureOutput(() => releaseLock(stateOf('next'), lambdaContext()));
    const afterRelease = await captureOutput(() => lockJob(stateOf('third'), lambdaContext()));

    // Assert
    expect(afterLateRelease.error).toMatchObject({ name: 'JobLockedError' });
    expect(String((afterLateRelease.error as Error).message)).toContain(execution('next'));
    expect(afterRelease.error).toBeUndefined();
  });

  it('keeps a run that continued as new: refused while its chain runs, taken over once it died', async () => {
    // Arrange: run A took the job in its first execution, which continued as new (SUCCEEDED) in
    // a second one ("a-2"), that names itself in the lock as it starts.
    const runA = stateOf('a-1');
    await captureOutput(() => lockJob(runA, lambdaContext()));
    await captureOutput(() =>
      resumeRun({ continuation: runA, executionId: execution('a-2') }, lambdaContext()),
    );
    executionsAre({ 'a-1': 'SUCCEEDED', 'a-2': 'RUNNING', 'b-1': 'RUNNING', 'b-2': 'RUNNING' });

    // Act
    const duringA = await captureOutput(() => lockJob(stateOf('b-1'), lambdaContext()));
    executionsAre({ 'a-2': 'ABORTED' });
    const afterA = await captureOutput(() => lockJob(stateOf('b-2'), lambdaContext()));

    // Assert
    expect(duringA.error).toMatchObject({
      name: 'JobLockedError',
      message: `Job "web" in namespace "default" is already being restarted by execution "${execution('a-1')}"`,
    });
    expect(afterA.error).toBeUndefined();
    expect((afterA.result as { events: unknown[] } | undefined)?.events).toEqual([
      expect.objectContaining({ type: 'run-started', runId: execution('b-2') }),
      expect.objectContaining({
        type: 'lock-taken-over',
        previousRun: execution('a-1'),
        previousStatus: 'ABORTED',
      }),
    ]);
  });

  it('keeps a run whose first execution handed over before the next one named itself', async () => {
    // Arrange: A's first execution SUCCEEDED by continuing as new; "Resume run" has not run yet.
    await captureOutput(() => lockJob(stateOf('a-1'), lambdaContext()));
    executionsAre({ 'a-1': 'SUCCEEDED', 'b-1': 'RUNNING' });

    // Act
    const { error } = await captureOutput(() => lockJob(stateOf('b-1'), lambdaContext()));

    // Assert
    expect(error).toMatchObject({ name: 'JobLockedError' });
  });
});
