import {
  durationText,
  formatHistoryTable,
  outcomeText,
  shortRunId,
} from '../../../lib/cli/history/history-view';
import { FIRST_START, provisionalRecord, runRecord } from '../../fixtures/run-records';

/** A local run's ID: its first execution's ARN, named by a UUID. */
const localRunId = (uuid: string) => `arn:aws:states:local:000000000000:execution:nomad-restart:${uuid}`;

describe('outcomeText', () => {
  it.each([
    { name: 'a success', record: runRecord(0), state: 'ended' as const, expected: 'succeeded' },
    {
      name: 'a stopped run, by whom',
      record: runRecord(0, { outcome: 'canceled', stoppedBy: 'bob@ops' }),
      state: 'ended' as const,
      expected: 'canceled by bob@ops',
    },
    {
      name: 'a canceled run nobody is named for',
      record: runRecord(0, { outcome: 'canceled' }),
      state: 'ended' as const,
      expected: 'canceled',
    },
    {
      name: 'a provisional record whose run holds the lock',
      record: runRecord(0, { outcome: 'running' }),
      state: 'running' as const,
      expected: 'running',
    },
    {
      name: 'a provisional record whose run is gone',
      record: runRecord(0, { outcome: 'running' }),
      state: 'never-finished' as const,
      expected: 'started, never finished',
    },
    {
      name: 'a window end',
      record: runRecord(0, { outcome: 'stopped-at-window-end' }),
      state: 'ended' as const,
      expected: 'stopped at window end',
    },
  ])('says $expected for $name', ({ record, state, expected }) => {
    // Act
    const text = outcomeText({ record, state });

    // Assert
    expect(text).toBe(expected);
  });
});

describe('shortRunId', () => {
  it.each([
    { runId: localRunId('0b7f3c2e-1111-4a4a-9b9b-000000000001'), expected: '0b7f3c2e' },
    {
      runId: 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart:nightly-web-20261207',
      expected: 'nightly-web-20261207',
    },
    { runId: 'plain-id', expected: 'plain-id' },
  ])('shows $runId as $expected', ({ runId, expected }) => {
    // Act, Assert
    expect(shortRunId(runId)).toBe(expected);
  });
});

describe('durationText', () => {
  it('prints the run length to the second as Go does', () => {
    // Arrange
    const record = runRecord(0, { startedAt: FIRST_START, endedAt: FIRST_START + 3_725_400 });

    // Act, Assert
    expect(durationText(record)).toBe('1h2m5s');
  });

  it('is empty while the run has no end', () => {
    // Arrange
    const provisional = provisionalRecord(0);

    // Act, Assert
    expect(durationText(provisional)).toBe('');
  });
});

describe('formatHistoryTable', () => {
  it('lays one job’s runs out as Nomad lays out a list, empty cells as <none>', () => {
    // Arrange
    const { reason: _, ...provisional } = provisionalRecord(60, {
      runId: localRunId('aaaaaaaa-2222-4a4a-9b9b-000000000002'),
      counts: { planned: 3, restarted: 1, failed: 0, skipped: 0, notReached: 0 },
    });
    const ended = runRecord(0, {
      runId: localRunId('0b7f3c2e-1111-4a4a-9b9b-000000000001'),
      reason: 'CHG-1 | rotate certs',
      options: '-batch-size=1',
      endedAt: FIRST_START + 90_000,
    });
    const runs = [
      { record: provisional, state: 'never-finished' as const },
      { record: ended, state: 'ended' as const },
    ];

    // Act
    const table = formatHistoryTable(runs, { withJob: false, withNamespace: false, timeZone: 'UTC' });

    // Assert
    expect(table.split('\n')).toEqual([
      'ID        When                  Who             Why                   What                                         Outcome                  Restarted/Failed/Planned  Duration',
      'aaaaaaaa  2026-12-07T15:00:00Z  alice@laptop-1  <none>                -batch-size=1 -batch-wait=10s -on-error=ask  started, never finished  1/0/3                     <none>',
      '0b7f3c2e  2026-12-07T14:00:00Z  alice@laptop-1  CHG-1 | rotate certs  -batch-size=1                                succeeded                3/0/3                     1m30s',
    ]);
  });

  it('adds Namespace and Job columns, a fleet’s record naming its jobs by outcome', () => {
    // Arrange
    const fleet = runRecord(0, {
      kind: 'fleet',
      jobId: '',
      namespace: 'prod',
      runId: 'fleet-1',
      outcome: 'failed',
      jobOutcomes: { succeeded: 2, failed: 1 },
      counts: { planned: 3, restarted: 2, failed: 1, skipped: 0, notReached: 0 },
    });

    // Act
    const table = formatHistoryTable([{ record: fleet, state: 'ended' }], {
      withJob: true,
      withNamespace: true,
      timeZone: 'UTC',
    });

    // Assert
    expect(table.split('\n')[0]).toMatch(/^ID +Namespace +Job +When /);
    expect(table.split('\n')[1]).toMatch(
      /^fleet-1 +prod +fleet \(2 succeeded, 1 failed\) +2026-12-07T14:00:00Z /,
    );
  });

  it('cuts a long reason in the table to 40 characters', () => {
    // Arrange
    const record = runRecord(0, { reason: 'x'.repeat(200) });

    // Act
    const table = formatHistoryTable([{ record, state: 'ended' }], {
      withJob: false,
      withNamespace: false,
      timeZone: 'UTC',
    });

    // Assert
    expect(table).toContain(`${'x'.repeat(39)}…`);
    expect(table).not.toContain('x'.repeat(40));
  });
});
