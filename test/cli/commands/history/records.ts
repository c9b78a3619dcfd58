/**
 * Run records (lib/history/record.ts) as the history tests need them: a finished terminal run of
 * `web` unless told otherwise.
 */
import { RECORD_VERSION, type RunRecord } from '../../../../lib/history/record';

/** 2026-12-07T10:00:00Z. */
export const T0 = Date.UTC(2026, 11, 7, 10, 0, 0);

/** A local run's ID: its first execution's ARN, named by a UUID. */
export const localRunId = (uuid: string) =>
  `arn:aws:states:local:000000000000:execution:nomad-restart:${uuid}`;

/** A record: `overrides` over a succeeded terminal run of `web` that restarted 3 of 3 in 90 s. */
export function runRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    version: RECORD_VERSION,
    runId: localRunId('0b7f3c2e-1111-4a4a-9b9b-000000000001'),
    kind: 'job',
    namespace: 'default',
    jobId: 'web',
    engine: 'terminal',
    startedBy: 'alice@laptop',
    options: '-batch-size=1 -batch-wait=10s',
    outcome: 'succeeded',
    counts: { planned: 3, restarted: 3, failed: 0, skipped: 0, notReached: 0 },
    startedAt: T0,
    endedAt: T0 + 90_000,
    errors: [],
    omittedErrors: 0,
    ...overrides,
  };
}
