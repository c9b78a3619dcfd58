import type { EndedExecution } from '../../lib/workflow/ended-execution';
import { endOfExecution, needsRunRecord } from '../../lib/workflow/run-end';

const FLEET = 'arn:aws:states:us-east-1:123456789012:execution:NomadRestart-Fleet:weekly-payments';
const LINES = [
  'Fleet restart finished with errors: 9 jobs restarted, 1 failed, 2 skipped',
  '    payments/ledger: failed: RestartFailed: 1 error occurred while restarting job',
];

const ended = (over: Partial<EndedExecution>): EndedExecution => ({
  executionArn: FLEET,
  status: 'SUCCEEDED',
  startDate: Date.parse('2026-12-06T02:00:00Z'),
  stopDate: Date.parse('2026-12-06T02:41:10Z'),
  input: JSON.stringify({ namespace: 'payments', maxJobs: 3, startedBy: 'alice@ops' }),
  ...over,
});

describe('endOfExecution of a fleet run', () => {
  it('tells a finished fleet by its summary’s lines, naming no job', () => {
    // Arrange
    const summary = {
      outcome: 'finished',
      runId: 'weekly-payments',
      lines: ['Fleet restart finished: 12 jobs restarted, 0 failed, 0 skipped'],
    };
    const e = ended({ output: JSON.stringify(summary) });

    // Act
    const end = endOfExecution(e);

    // Assert
    expect(needsRunRecord(e)).toBe(false);
    expect(end).toEqual({
      kind: 'ended',
      executionArn: FLEET,
      startedBy: 'alice@ops',
      outcome: 'succeeded',
      jobId: '',
      namespace: '',
      lines: summary.lines,
      errorText: '',
    });
  });

  it('tells a fleet that finished with errors by the cause of FleetRestartFinishedWithErrors, its summary’s text', () => {
    // Arrange
    const e = ended({ status: 'FAILED', error: 'FleetRestartFinishedWithErrors', cause: LINES.join('\n') });

    // Act
    const end = endOfExecution(e);

    // Assert
    expect(needsRunRecord(e)).toBe(false);
    expect(end).toMatchObject({ kind: 'ended', outcome: 'failed', jobId: '', lines: LINES, errorText: '' });
  });
});
