import { formatRunDetail } from '../../../lib/cli/history/history-detail';
import { FIRST_START, runRecord } from '../../fixtures/run-records';

describe('formatRunDetail', () => {
  it('labels every field of a job run as nomad alloc status does, then its errors', () => {
    // Arrange
    const record = runRecord(0, {
      engine: 'aws',
      executionArn: 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart:nightly-web',
      runId: 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart:nightly-web',
      startedBy: 'schedule nightly-web',
      reason: 'CHG-7',
      options: '-batch-size=1 -batch-wait=10s',
      endedAt: FIRST_START + 90_000,
      outcome: 'failed',
      counts: { planned: 3, restarted: 1, failed: 1, skipped: 2, notReached: 1 },
      errors: ['Error restarting allocation "1a2b3c4d": boom'],
      omittedErrors: 2,
    });

    // Act
    const text = formatRunDetail({ record, state: 'ended' }, [], 'UTC');

    // Assert
    expect(text.split('\n')).toEqual([
      'ID          = arn:aws:states:eu-west-1:123456789012:execution:NomadRestart:nightly-web',
      'Kind        = job',
      'Job ID      = web',
      'Namespace   = default',
      'Engine      = aws',
      'Started By  = schedule nightly-web',
      'Reason      = CHG-7',
      'Fleet Run   = <none>',
      'Options     = -batch-size=1 -batch-wait=10s',
      'Outcome     = failed',
      'Stopped By  = <none>',
      'Started     = 2026-12-07T14:00:00Z',
      'Ended       = 2026-12-07T14:01:30Z',
      'Duration    = 1m30s',
      'Window End  = <none>',
      'Execution   = arn:aws:states:eu-west-1:123456789012:execution:NomadRestart:nightly-web',
      'Planned     = 3',
      'Restarted   = 1',
      'Failed      = 1',
      'Skipped     = 2',
      'Not Reached = 1',
      '',
      'Errors',
      '* Error restarting allocation "1a2b3c4d": boom',
      '* ... and 2 more errors not recorded',
    ]);
  });

  it('lists a fleet run’s jobs by outcome and the job runs linked to it', () => {
    // Arrange
    const fleet = runRecord(0, {
      kind: 'fleet',
      jobId: '',
      runId: 'fleet-1',
      outcome: 'failed',
      jobOutcomes: { succeeded: 1, failed: 1 },
      counts: { planned: 2, restarted: 1, failed: 1, skipped: 0, notReached: 0 },
    });
    const api = runRecord(0, {
      runId: 'arn:aws:states:local:000000000000:execution:nomad-restart:cccccccc-3333-4a4a-9b9b-000000000003',
      jobId: 'api',
      fleetRunId: 'fleet-1',
    });

    // Act
    const text = formatRunDetail({ record: fleet, state: 'ended' }, [{ record: api, state: 'ended' }], 'UTC');

    // Assert
    expect(text).toContain('Jobs Planned   = 2\nJobs Succeeded = 1\nJobs Failed    = 1');
    expect(text).not.toContain('Job ID');
    expect(text.split('\n').slice(-5)).toEqual([
      '1 succeeded, 1 failed',
      '',
      'Job Runs',
      'ID        Job  Namespace  Outcome    Restarted/Failed/Planned',
      'cccccccc  api  default    succeeded  3/0/3',
    ]);
  });
});
