import { type JobRunFacts, recordOfRun, runCounts } from '../../lib/history/job-record';
import { MAX_RECORD_ERROR_LENGTH } from '../../lib/history/record';
import { restartOptions } from '../fixtures/restart-options';

const ARN = 'arn:aws:states:eu-west-1:111122223333:execution:NomadRestart:run-1';

const facts = (over: Partial<JobRunFacts> = {}): JobRunFacts => ({
  options: restartOptions('web', { batchSize: { value: 2, percent: false }, reason: 'INC-4711' }),
  runId: ARN,
  executionId: `${ARN}-2`,
  startedBy: 'alice@laptop',
  startedAt: 1_000,
  engine: 'aws',
  jobId: 'web',
  namespace: 'prod',
  counts: runCounts(5, 2, 1, { notRunning: 3, alreadyReplaced: 1 }),
  ...over,
});

describe('runCounts', () => {
  it('counts what was planned and neither restarted nor failed as not reached', () => {
    // Act
    const counts = runCounts(5, 2, 1, { notRunning: 3, alreadyReplaced: 1 });

    // Assert
    expect(counts).toEqual({ planned: 5, restarted: 2, failed: 1, skipped: 4, notReached: 2 });
  });
});

describe('recordOfRun', () => {
  it('builds a provisional record without an end', () => {
    // Act
    const record = recordOfRun(facts());

    // Assert
    expect(record).toEqual({
      version: 1,
      runId: ARN,
      kind: 'job',
      namespace: 'prod',
      jobId: 'web',
      engine: 'aws',
      startedBy: 'alice@laptop',
      reason: 'INC-4711',
      options: '-batch-size=2 -yes',
      outcome: 'running',
      counts: { planned: 5, restarted: 2, failed: 1, skipped: 4, notReached: 2 },
      startedAt: 1_000,
      errors: [],
      omittedErrors: 0,
      executionArn: `${ARN}-2`,
    });
  });

  it('keeps the first three errors, each cut to its bound, and counts the rest', () => {
    // Arrange
    const long = 'e'.repeat(MAX_RECORD_ERROR_LENGTH + 50);

    // Act
    const record = recordOfRun(facts(), {
      outcome: 'failed',
      endedAt: 9_000,
      errors: [long, 'two', 'three', 'four', 'five'],
      omittedErrors: 7,
    });

    // Assert
    expect(record.outcome).toBe('failed');
    expect(record.endedAt).toBe(9_000);
    expect(record.errors).toEqual([`${'e'.repeat(MAX_RECORD_ERROR_LENGTH - 1)}…`, 'two', 'three']);
    expect([...(record.errors[0] ?? '')]).toHaveLength(MAX_RECORD_ERROR_LENGTH);
    expect(record.omittedErrors).toBe(2 + 7);
  });

  it('links a fleet job to its fleet run and names who stopped it', () => {
    // Arrange
    const options = restartOptions('web', { fleet: { runId: 'fleet-9', index: 1, of: 4 } });

    // Act
    const record = recordOfRun(facts({ options }), {
      outcome: 'canceled',
      endedAt: 2_000,
      errors: [],
      stoppedBy: 'bob via terminal',
    });

    // Assert
    expect(record).toMatchObject({
      fleetRunId: 'fleet-9',
      startedBy: 'fleet run "fleet-9" (job 1 of 4)',
      stoppedBy: 'bob via terminal',
      outcome: 'canceled',
    });
    expect(record).not.toHaveProperty('reason');
  });

  it('leaves out the execution of a terminal run, which no one can open later', () => {
    // Act
    const record = recordOfRun(facts({ engine: 'terminal' }));

    // Assert
    expect(record.engine).toBe('terminal');
    expect(record).not.toHaveProperty('executionArn');
  });
});
