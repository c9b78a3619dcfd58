import type { FleetJobEnd } from '../../../lib/fleet/job-end';
import type { FleetOptions } from '../../../lib/fleet/options';
import { MAX_RECORD_ERROR_LENGTH, MAX_RECORD_ERRORS } from '../../../lib/history/record';
import {
  fleetOptionsInShort,
  fleetOutcomeOf,
  fleetPlaceOf,
  fleetRecordNamespace,
  fleetRecordOf,
  MAX_FLEET_OPTIONS_LENGTH,
} from '../../../lib/steps/fleet/fleet-record';
import type { FleetState } from '../../../lib/workflow/fleet-state-names';

const START = Date.UTC(2026, 11, 7, 2, 0, 0);
const END = START + 600_000;

function fleetState(
  extra: Partial<FleetState['run']> = {},
  jobOptions: Record<string, unknown> = {},
): FleetState {
  return {
    run: {
      runId: 'fleet-weekly',
      startedAt: START,
      history: {
        namespace: 'payments',
        options: '-namespace=payments -max-jobs=2 -max-failed-jobs=0',
        engine: 'terminal',
      },
      ...extra,
    },
    plan: {
      itemsKey: 'fleets/fleet-weekly/items',
      skippedKey: 'fleets/fleet-weekly/skipped',
      resultsPrefix: 'fleets/fleet-weekly/results',
      jobs: 4,
      allocations: 12,
      skipped: 1,
      namespaces: ['payments'],
    },
    budget: { maxJobs: 2, maxFailedJobs: 1 },
    jobOptions: { batchSize: '2', ...jobOptions },
    dryRun: false,
  };
}

const end = (job: string, outcome: FleetJobEnd['outcome'], message = 'boom'): FleetJobEnd => ({
  namespace: 'payments',
  job,
  outcome,
  ...(outcome === 'failed' ? { problem: { kind: 'failed', error: 'RestartFailed', message } } : {}),
  ...(outcome === 'canceled' ? { problem: { kind: 'canceled', message: 'stopped before it finished' } } : {}),
});

const options = (extra: Partial<FleetOptions> = {}): FleetOptions => ({
  selection: { namespace: 'payments' },
  order: 'id',
  maxJobs: 1,
  maxFailedJobs: 0,
  stale: false,
  jobOptions: {} as FleetOptions['jobOptions'],
  ...extra,
});

describe('fleetRecordOf', () => {
  it('makes a provisional record that says running, with the jobs planned and no end', () => {
    // Arrange
    const state = fleetState({ startedBy: 'ops@laptop' }, { reason: 'CHG-1234 rotate the TLS certificate' });

    // Act
    const record = fleetRecordOf(state);

    // Assert
    expect(record).toEqual({
      version: 1,
      runId: 'fleet-weekly',
      kind: 'fleet',
      namespace: 'payments',
      jobId: '',
      engine: 'terminal',
      startedBy: 'ops@laptop',
      reason: 'CHG-1234 rotate the TLS certificate',
      options: '-namespace=payments -max-jobs=2 -max-failed-jobs=0',
      outcome: 'running',
      counts: { planned: 4, restarted: 0, failed: 0, skipped: 1, notReached: 0 },
      startedAt: START,
      errors: [],
      omittedErrors: 0,
    });
  });

  it('counts the final record in jobs and lists the jobs by outcome', () => {
    // Arrange: 4 jobs planned, 3 started (one never reached).
    const ends = [
      end('web', 'restarted'),
      end('api', 'failed', 'allocation "a1" failed'),
      end('db', 'locked'),
    ];

    // Act
    const record = fleetRecordOf(fleetState(), { outcome: 'failed', endedAt: END, ends });

    // Assert
    expect(record).toMatchObject({
      outcome: 'failed',
      endedAt: END,
      counts: { planned: 4, restarted: 1, failed: 1, skipped: 1, notReached: 1 },
      jobOutcomes: { succeeded: 1, failed: 1, 'skipped-job-locked': 1 },
      errors: ['payments/api: failed: allocation "a1" failed'],
      omittedErrors: 0,
    });
  });

  it('keeps the first failed jobs within the record bounds and counts the rest', () => {
    // Arrange
    const long = 'x'.repeat(MAX_RECORD_ERROR_LENGTH * 2);
    const ends = ['a', 'b', 'c', 'd', 'e'].map((job) => end(job, 'failed', long));

    // Act
    const record = fleetRecordOf(fleetState(), { outcome: 'failed', endedAt: END, ends });

    // Assert
    expect(record?.errors).toHaveLength(MAX_RECORD_ERRORS);
    expect(record?.errors.every((e) => e.length === MAX_RECORD_ERROR_LENGTH && e.endsWith('…'))).toBe(true);
    expect(record?.omittedErrors).toBe(5 - MAX_RECORD_ERRORS);
  });

  it.each([
    { name: 'the command', run: { startedBy: 'ops@laptop' }, jobOptions: {}, expected: 'ops@laptop' },
    { name: 'a schedule', run: {}, jobOptions: { scheduleName: 'weekly' }, expected: 'schedule "weekly"' },
    {
      name: 'the console',
      run: {},
      jobOptions: {},
      expected: 'an unnamed caller (the console or an SDK call: the input had no "startedBy")',
    },
  ])('says who started it: $name', ({ run, jobOptions, expected }) => {
    // Act
    const record = fleetRecordOf(fleetState(run, jobOptions));

    // Assert
    expect(record?.startedBy).toBe(expected);
  });

  it('carries the execution ARN and the window end when the plan fixed them', () => {
    // Arrange
    const arn = 'arn:aws:states:us-east-1:123456789012:execution:Fleet:fleet-weekly';
    const state = fleetState({
      history: { namespace: 'payments', options: '', engine: 'aws', executionArn: arn, windowEnd: END },
    });

    // Act
    const record = fleetRecordOf(state);

    // Assert
    expect(record).toMatchObject({ engine: 'aws', executionArn: arn, windowEnd: END });
  });

  it('keeps no record, and no place, for a run the plan gave none (a dry run)', () => {
    // Arrange
    const { history: _none, ...run } = fleetState().run;
    const state: FleetState = { ...fleetState(), run };

    // Act / Assert
    expect(fleetRecordOf(state)).toBeUndefined();
    expect(fleetPlaceOf(state)).toBeUndefined();
  });
});

describe('fleetPlaceOf', () => {
  it("is the fleets' history of the record's namespace", () => {
    // Act / Assert
    expect(fleetPlaceOf(fleetState())).toEqual({ namespace: 'payments', fleets: true });
  });
});

describe('fleetRecordNamespace', () => {
  it.each([
    { selected: 'payments', expected: 'payments' },
    { selected: '*', expected: 'default' },
  ])('keeps a fleet over $selected in $expected', ({ selected, expected }) => {
    // Act / Assert
    expect(fleetRecordNamespace(selected)).toBe(expected);
  });
});

describe('fleetOptionsInShort', () => {
  it('writes the selection, order and budget as the fleet command flags', () => {
    // Arrange
    const fleet = options({
      selection: {
        namespace: 'payments',
        filter: 'Meta.team == "payments"',
        nodes: ['9f2c', 'a1b2'],
        nodePool: 'gpu',
        usesVariables: ['nomad/jobs/shared/*'],
      },
      order: 'priority',
      stale: true,
      maxJobs: 2,
      maxFailedJobs: 1,
    });

    // Act
    const text = fleetOptionsInShort(fleet);

    // Assert
    expect(text).toBe(
      '-namespace=payments -filter="Meta.team == \\"payments\\"" -node=9f2c -node=a1b2 -node-pool=gpu ' +
        '-uses-variable="nomad/jobs/shared/*" -stale -order=priority -max-jobs=2 -max-failed-jobs=1',
    );
  });

  it('cuts a long selection to its bound', () => {
    // Arrange
    const fleet = options({ selection: { filter: `Name == "${'a'.repeat(1000)}"` } });

    // Act
    const text = fleetOptionsInShort(fleet);

    // Assert
    expect(text).toHaveLength(MAX_FLEET_OPTIONS_LENGTH);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('fleetOutcomeOf', () => {
  it.each([
    {
      name: 'no error',
      withErrors: false,
      ends: [end('web', 'restarted')],
      windowEnded: false,
      expected: 'succeeded',
    },
    {
      name: 'a failed job',
      withErrors: true,
      ends: [end('web', 'failed')],
      windowEnded: true,
      expected: 'failed',
    },
    {
      name: 'the window ended',
      withErrors: true,
      ends: [end('web', 'stopped-at-window-end')],
      windowEnded: true,
      expected: 'stopped-at-window-end',
    },
    {
      name: 'a stop',
      withErrors: true,
      ends: [end('web', 'canceled')],
      windowEnded: false,
      expected: 'canceled',
    },
    {
      name: 'a locked job',
      withErrors: true,
      ends: [end('web', 'locked')],
      windowEnded: false,
      expected: 'failed',
    },
  ])('says $expected after $name', ({ withErrors, ends, windowEnded, expected }) => {
    // Act / Assert
    expect(fleetOutcomeOf({ withErrors, ends, windowEnded })).toBe(expected);
  });
});
