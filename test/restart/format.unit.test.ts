import { AllocationRestartError, PlacementFailureError } from '../../lib/restart/allocation-errors';
import type { ProgressEvent, RestartMode } from '../../lib/restart/events';
import { createFormatter, type OutputLine } from '../../lib/restart/format';
import { interruptQuestion, multiRegionQuestion, proceedQuestion } from '../../lib/restart/questions';
import { formatTimestamp, ordinal, plural } from '../../lib/restart/text';

// 2023-02-28T17:40:58-05:00, a fixed time in a −05:00 zone (the `±hh:mm` form of Nomad's timestamps).
const T0 = Date.UTC(2023, 1, 28, 22, 40, 58);
const T1 = T0 + 1000;
const NY = 'America/New_York';

const text = (lines: OutputLine[], stream: 'stdout' | 'stderr') =>
  lines
    .filter((l) => l.stream === stream)
    .map((l) => `${l.text}\n`)
    .join('');

function renderAll(events: ProgressEvent[], verbose = false): OutputLine[] {
  const formatter = createFormatter({ verbose, color: false, timeZone: NY });
  return events.flatMap((e) => formatter.render(e));
}

/** The event of one allocation's restart starting. */
function restarting(time: number, allocationId: string, group: string, mode: RestartMode): ProgressEvent {
  return { type: 'allocation-restarting', time, allocationId, group, mode };
}

describe('format', () => {
  describe('createFormatter().render: Nomad transcripts', () => {
    it('reproduces the default in-place restart with -batch-size=2 byte for byte', () => {
      // Arrange
      const events: ProgressEvent[] = [
        { type: 'restart-started', time: T0, count: 3 },
        { type: 'batch-started', time: T0, batchNumber: 1, size: 2 },
        restarting(T0, '653f983e-8d5c-4c8e-a6a8-0e8e4d1f2a3b', 'web', { kind: 'running-tasks' }),
        restarting(T0, '4d18e545-1111-2222-3333-444444444444', 'web', { kind: 'running-tasks' }),
        { type: 'batch-started', time: T1, batchNumber: 2, size: 1 },
        restarting(T1, '77d5c4f6-1111-2222-3333-444444444444', 'proxy', { kind: 'running-tasks' }),
        { type: 'finished', time: T1, errors: [], canceled: false },
      ];

      // Act
      const lines = renderAll(events);

      // Assert
      expect(text(lines, 'stdout')).toBe(
        [
          '==> 2023-02-28T17:40:58-05:00: Restarting 3 allocations',
          '==> 2023-02-28T17:40:58-05:00: Restarting 1st batch of 2 allocations',
          '    2023-02-28T17:40:58-05:00: Restarting running tasks in allocation "653f983e" for group "web"',
          '    2023-02-28T17:40:58-05:00: Restarting running tasks in allocation "4d18e545" for group "web"',
          '==> 2023-02-28T17:40:59-05:00: Restarting 2nd batch of 1 allocations',
          '    2023-02-28T17:40:59-05:00: Restarting running tasks in allocation "77d5c4f6" for group "proxy"',
          '==> 2023-02-28T17:40:59-05:00: Job restart finished',
          '',
          'Job restarted successfully!',
          '',
        ].join('\n'),
      );
      expect(text(lines, 'stderr')).toBe('');
    });

    it('reproduces the reschedule transcript', () => {
      // Arrange
      const a = '3933bb88-0000-0000-0000-000000000000';
      const b = 'c4b9a3b1-0000-0000-0000-000000000000';
      const events: ProgressEvent[] = [
        { type: 'restart-started', time: T0, count: 1 },
        restarting(T0, a, 'controller', { kind: 'reschedule' }),
        { type: 'allocation-status', time: T0, allocationId: b, status: 'pending', verbose: true },
        { type: 'allocation-replaced', time: T0, allocationId: a, replacementId: b },
        { type: 'allocation-status', time: T0, allocationId: b, status: 'running', verbose: false },
        { type: 'finished', time: T0, errors: [], canceled: false },
      ];

      // Act
      const lines = renderAll(events);

      // Assert
      const ts = '2023-02-28T17:40:58-05:00';
      expect(text(lines, 'stdout')).toBe(
        [
          `==> ${ts}: Restarting 1 allocation`,
          `    ${ts}: Rescheduling allocation "3933bb88" for group "controller"`,
          `    ${ts}: Allocation "3933bb88" replaced by "c4b9a3b1", waiting for "c4b9a3b1" to start running`,
          `    ${ts}: Allocation "c4b9a3b1" is "running"`,
          `==> ${ts}: Job restart finished`,
          '',
          'Job restarted successfully!',
          '',
        ].join('\n'),
      );
    });

    it('reproduces the -batch-wait=ask answer 10s transcript', () => {
      // Arrange
      const formatter = createFormatter({ verbose: false, color: false, timeZone: NY });
      const question = proceedQuestion({ outcome: 'ok', batchWaitAsk: true });

      // Act
      const prompt = formatter.renderQuestion(question, T0);
      const after = [
        ...formatter.render({ type: 'new-batch-wait', time: T0, waitMs: 10000 }),
        ...formatter.render({ type: 'waiting', time: T0, waitMs: 10000 }),
      ];

      // Assert
      expect(`${prompt}10s\n${text(after, 'stdout')}`).toBe(
        [
          '==> 2023-02-28T17:40:58-05:00: Proceed with the next batch? [Y/n/<wait duration>] 10s',
          '==> 2023-02-28T17:40:58-05:00: Proceeding restarts with new wait time of 10s',
          '==> 2023-02-28T17:40:58-05:00: Waiting 10s before restarting the next batch',
          '',
        ].join('\n'),
      );
    });

    it('reproduces the placement-failure transcript on both streams', () => {
      // Arrange
      const failure = new PlacementFailureError({
        evalId: 'eeeeeeee-0000-0000-0000-000000000000',
        group: 'group1',
        metric: { NodesEvaluated: 0 },
        verbose: false,
      });
      const errors = ['aaaaaaaa-1111-1111-1111-111111111111', 'bbbbbbbb-2222-2222-2222-222222222222'].map(
        (allocationId) =>
          new AllocationRestartError({ allocationId, cause: failure, verbose: false }).message,
      );
      const events: ProgressEvent[] = [
        { type: 'restart-started', time: T0, count: 3 },
        { type: 'batch-started', time: T0, batchNumber: 1, size: 2 },
        restarting(T0, 'aaaaaaaa-1111-1111-1111-111111111111', 'group1', { kind: 'reschedule' }),
        restarting(T0, 'bbbbbbbb-2222-2222-2222-222222222222', 'group1', { kind: 'reschedule' }),
        { type: 'stopping', time: T0, reason: 'unrecoverable-error' },
        { type: 'finished', time: T0, errors, canceled: false },
      ];

      // Act
      const lines = renderAll(events);

      // Assert
      const ts = '2023-02-28T17:40:58-05:00';
      expect(text(lines, 'stdout')).toBe(
        [
          `==> ${ts}: Restarting 3 allocations`,
          `==> ${ts}: Restarting 1st batch of 2 allocations`,
          `    ${ts}: Rescheduling allocation "aaaaaaaa" for group "group1"`,
          `    ${ts}: Rescheduling allocation "bbbbbbbb" for group "group1"`,
          `==> ${ts}: Stopping job restart due to unrecoverable error`,
          `==> ${ts}: Job restart finished with errors`,
          '',
        ].join('\n'),
      );
      expect(text(lines, 'stderr')).toBe(
        [
          '',
          '2 errors occurred while restarting job:',
          '* Error restarting allocation "aaaaaaaa": Evaluation "eeeeeeee" has placement failures for group "group1":',
          '    * No nodes were eligible for evaluation',
          '* Error restarting allocation "bbbbbbbb": Evaluation "eeeeeeee" has placement failures for group "group1":',
          '    * No nodes were eligible for evaluation',
          '',
        ].join('\n'),
      );
    });
  });

  describe('createFormatter().render: other lines', () => {
    const ts = '2023-02-28T17:40:58-05:00';

    it('indents the per-batch warning by 31 spaces on stderr', () => {
      // Arrange
      const errors = [
        'Error restarting allocation "aaaaaaaa": Unexpected response code: 502',
        'second\nline two',
      ];

      // Act
      const lines = renderAll([{ type: 'batch-errors', time: T0, errors }]);

      // Assert
      const pad = ' '.repeat(31);
      expect(lines).toEqual([
        {
          stream: 'stderr',
          text: `==> ${ts}: 2 errors occurred while restarting job:\n${pad}* ${errors[0]}\n${pad}* second\n${pad}line two`,
        },
      ]);
    });

    it.each<[string, ProgressEvent, string[]]>([
      ['nothing to restart', { type: 'nothing-to-restart', time: T0 }, ['No allocations to restart']],
      [
        'stopping on error',
        { type: 'stopping', time: T0, reason: 'error' },
        [`==> ${ts}: Stopping job restart due to error`],
      ],
      ['canceled', { type: 'canceled', time: T0 }, [`==> ${ts}: Job restart canceled`]],
      ['canceled run without errors', { type: 'finished', time: T0, errors: [], canceled: true }, []],
      [
        'still waiting',
        { type: 'still-waiting', time: T0, allocationId: '12345678-aaaa' },
        [`    ${ts}: Still waiting for allocation "12345678" to be replaced`],
      ],
      [
        'all tasks',
        restarting(T0, 'abcdefgh-1', 'g', { kind: 'all-tasks' }),
        [`    ${ts}: Restarting all tasks in allocation "abcdefgh" for group "g"`],
      ],
      [
        'one task',
        restarting(T0, 'abcdefgh-1', 'g', { kind: 'task', task: 't' }),
        [`    ${ts}: Restarting task "t" in allocation "abcdefgh" for group "g"`],
      ],
      [
        'max errors',
        { type: 'max-errors-exceeded', time: T0, failed: 3, maxErrors: '10%' },
        [`==> ${ts}: Stopping job restart: 3 allocations failed, more than -max-errors=10%`],
      ],
      [
        'a scheduled run skipped for the lock',
        { type: 'skipped-job-locked', time: T0, jobId: 'web', holder: 'arn:x' },
        [`==> ${ts}: Skipping scheduled restart: job "web" is already being restarted by execution "arn:x"`],
      ],
      [
        'window ended',
        { type: 'window-ended', time: T0, windowEnd: T0, done: 4, left: 6 },
        [
          `==> ${ts}: Stopping job restart: the maintenance window ended at ${ts}; 4 of 10 allocations done, 6 left`,
        ],
      ],
      [
        'a µs wait',
        { type: 'waiting', time: T0, waitMs: 0.0015, waitNs: 1500 },
        [`==> ${ts}: Waiting 1.5µs before restarting the next batch`],
      ],
      [
        'a 1m30s wait',
        { type: 'waiting', time: T0, waitMs: 90000 },
        [`==> ${ts}: Waiting 1m30s before restarting the next batch`],
      ],
      [
        'an evaluation (not printed, as Nomad)',
        { type: 'evaluation-triggered', time: T0, allocationId: 'a', jobId: 'j', evaluationId: 'e' },
        [],
      ],
      [
        'an intermediate status (verbose only)',
        { type: 'allocation-status', time: T0, allocationId: 'a', status: 'pending', verbose: true },
        [],
      ],
      [
        'a skip (verbose only)',
        { type: 'allocation-skipped', time: T0, allocationId: 'a', reason: { kind: 'group' } },
        [],
      ],
      [
        'the health wait of a batch',
        { type: 'health-waiting', time: T0, count: 3, minHealthyTimeNs: 10e9, healthyDeadlineNs: 300e9 },
        [`==> ${ts}: Waiting for 3 allocations to become healthy`],
      ],
      [
        'the health wait of one allocation',
        { type: 'health-waiting', time: T0, count: 1, minHealthyTimeNs: 10e9, healthyDeadlineNs: 300e9 },
        [`==> ${ts}: Waiting for 1 allocation to become healthy`],
      ],
      [
        'a healthy allocation',
        { type: 'allocation-healthy', time: T0, allocationId: '12345678-aaaa', checks: 1 },
        [`    ${ts}: Allocation "12345678" is healthy`],
      ],
      [
        'a slow one, every 60 s',
        {
          type: 'health-still-waiting',
          time: T0,
          allocationId: '12345678-aaaa',
          reason: 'check "http" is "failure": Internal Server Error',
        },
        [
          `    ${ts}: Still waiting for allocation "12345678" to become healthy: check "http" is "failure": Internal Server Error`,
        ],
      ],
      ['no checks (verbose only)', { type: 'health-no-checks', time: T0, allocationId: 'a' }, []],
      [
        'a flap (verbose only)',
        { type: 'health-reset', time: T0, allocationId: 'a', reason: 'check "http" is "failure"' },
        [],
      ],
    ])('renders %s', (_name, event, expected) => {
      // Arrange / Act
      const lines = renderAll([event]);

      // Assert
      expect(lines.map((l) => l.text)).toEqual(expected);
    });

    it('warns on stderr that an earlier run that never finished is resumed, and how many allocations it skips', () => {
      // Arrange / Act
      const lines = renderAll([
        { type: 'earlier-run-resumed', time: T0, previousRun: 'arn:x:run-1', skipped: 4 },
      ]);

      // Assert
      expect(lines).toEqual([
        {
          stream: 'stderr',
          text: `==> ${ts}: Resuming run "arn:x:run-1", which did not finish: skipping 4 allocations it already restarted or replaced`,
        },
      ]);
    });

    it("prints the health gate's verbose lines with -verbose, dark grey when coloured", () => {
      // Arrange
      const id = '12345678-aaaa-bbbb-cccc-dddddddddddd';
      const events: ProgressEvent[] = [
        { type: 'health-no-checks', time: T0, allocationId: id },
        { type: 'health-reset', time: T1, allocationId: id, reason: 'check "http" is "failure": boom' },
      ];

      // Act
      const plain = renderAll(events, true).map((l) => l.text);
      const coloured = createFormatter({ verbose: true, color: true, timeZone: NY }).render(
        events[0] as ProgressEvent,
      );

      // Assert
      expect(plain).toEqual([
        `    ${ts}: Allocation "${id}" has no Nomad service checks: judged on its tasks alone`,
        `    2023-02-28T17:40:59-05:00: Allocation "${id}" is unhealthy again, -min-healthy-time starts over: check "http" is "failure": boom`,
      ]);
      expect(coloured[0]?.text.startsWith('\u001b[90m')).toBe(true);
    });

    it('prints errors after a cancel without the "finished with errors" line', () => {
      // Arrange / Act
      const lines = renderAll([{ type: 'finished', time: T0, errors: ['boom'], canceled: true }]);

      // Assert
      expect(lines).toEqual([{ stream: 'stderr', text: '\n1 error occurred while restarting job:\n* boom' }]);
    });
  });

  describe('createFormatter().render: verbose skip lines (T13, our fix)', () => {
    const id = 'job_v1_group_1_stop_complete-0000-0000-0000-00000000';

    it.each<[string, ProgressEvent, string]>([
      [
        'status, desired and client in their own slots',
        {
          type: 'allocation-skipped',
          time: T0,
          allocationId: id,
          reason: { kind: 'status', desiredStatus: 'stop', clientStatus: 'complete' },
        },
        `Skipping allocation "${id.slice(0, 36)}" because desired status is "stop" and client status is "complete"`,
      ],
      [
        'replaced',
        {
          type: 'allocation-skipped',
          time: T0,
          allocationId: id,
          reason: { kind: 'replaced', nextAllocationId: 'n' },
        },
        `Skipping allocation "${id.slice(0, 36)}" because it has already been replaced by "n"`,
      ],
      [
        'group',
        { type: 'allocation-skipped', time: T0, allocationId: id, reason: { kind: 'group' } },
        `Skipping allocation "${id.slice(0, 36)}" because it doesn't have any of requested groups`,
      ],
      [
        'task',
        { type: 'allocation-skipped', time: T0, allocationId: id, reason: { kind: 'task' } },
        `Skipping allocation "${id.slice(0, 36)}" because it doesn't have any of requested tasks`,
      ],
      [
        'done',
        { type: 'allocation-skipped', time: T0, allocationId: id, reason: { kind: 'done' } },
        `Skipping allocation "${id.slice(0, 36)}" because an earlier run of this restart already restarted it`,
      ],
    ])('prints the %s skip line with a full ID', (_name, event, expected) => {
      // Arrange / Act
      const lines = renderAll([event], true);

      // Assert
      expect(lines).toEqual([{ stream: 'stdout', text: `    2023-02-28T17:40:58-05:00: ${expected}` }]);
    });
  });

  describe('createFormatter(): colour', () => {
    it("makes headers bold, verbose lines dark grey and errors red, with colorstring's double reset", () => {
      // Arrange
      const formatter = createFormatter({ verbose: true, color: true, timeZone: 'UTC' });

      // Act
      const header = formatter.render({ type: 'canceled', time: T0 })[0]?.text;
      const grey = formatter.render({
        type: 'allocation-status',
        time: T0,
        allocationId: 'a',
        status: 'pending',
        verbose: true,
      })[0]?.text;
      const detail = formatter.render({ type: 'still-waiting', time: T0, allocationId: 'a' })[0]?.text;
      const error = formatter.renderError('boom').text;

      // Assert
      expect(header).toBe('\u001b[1m==> 2023-02-28T22:40:58Z: Job restart canceled\u001b[0m\u001b[0m');
      expect(grey).toBe('\u001b[90m    2023-02-28T22:40:58Z: Allocation "a" is "pending"\u001b[0m\u001b[0m');
      expect(detail).toBe('    2023-02-28T22:40:58Z: Still waiting for allocation "a" to be replaced');
      expect(error).toBe('\u001b[0;31mboom\u001b[0m');
    });
  });

  describe('createFormatter(): questions and answers', () => {
    const formatter = createFormatter({ verbose: false, color: false, timeZone: NY });
    const pad = ' '.repeat(31);
    const ts = '2023-02-28T17:40:58-05:00';

    it.each([
      [
        'multi-region',
        multiRegionQuestion('example'),
        `==> ${ts}: Are you sure you want to restart multi-region job "example" in a single region? [y/N] `,
      ],
      [
        'recoverable errors',
        proceedQuestion({ outcome: 'recoverable', batchWaitAsk: false }),
        `==> ${ts}: Ignore the errors above and proceed with the next batch? [y/N] `,
      ],
      [
        'unrecoverable errors',
        proceedQuestion({ outcome: 'unrecoverable', batchWaitAsk: true }),
        `==> ${ts}: The errors above are likely to happen again.\n${pad}Ignore them anyway and proceed with the next batch? [y/N/<wait duration>] `,
      ],
      [
        'interrupt',
        interruptQuestion(),
        `==> ${ts}: Restart interrupted, no more allocations will be restarted.\n${pad}Are you sure you want to stop the restart process? [y/N] `,
      ],
    ])('renders the %s question with one trailing space', (_name, question, expected) => {
      // Arrange / Act
      const prompt = formatter.renderQuestion(question, T0);

      // Assert
      expect(prompt).toBe(expected);
    });

    it.each([
      [
        'an invalid answer',
        formatter.renderInvalidAnswer('xyz'),
        { stream: 'stdout', text: `${pad}Invalid answer "xyz"` },
      ],
      ['a read error', formatter.renderReadError('EOF'), { stream: 'stdout', text: 'EOF' }],
      ['an interrupted read', formatter.renderReadInterrupted(), { stream: 'stdout', text: '' }],
      [
        'a confirmed interrupt',
        formatter.renderInterruptConfirmed(),
        { stream: 'stdout', text: '\nCanceling job restart process' },
      ],
      [
        'a declined multi-region restart',
        formatter.renderMultiRegionCanceled(),
        { stream: 'stdout', text: '\nJob restart canceled.' },
      ],
    ])('renders %s', (_name, line, expected) => {
      // Assert
      expect(line).toEqual(expected);
    });

    it('renders a usage error with the additional-help line', () => {
      // Arrange / Act
      const lines = formatter.renderUsageError('This command takes one argument: <job>');

      // Assert
      expect(lines).toEqual([
        { stream: 'stderr', text: 'This command takes one argument: <job>' },
        { stream: 'stderr', text: "For additional help try 'nomad-restart -help'" },
      ]);
    });
  });
});

describe('text', () => {
  describe('ordinal', () => {
    it.each([
      [1, '1st'],
      [2, '2nd'],
      [3, '3rd'],
      [4, '4th'],
      [10, '10th'],
      [11, '11th'],
      [12, '12th'],
      [13, '13th'],
      [21, '21st'],
      [22, '22nd'],
      [23, '23rd'],
      [101, '101st'],
      [102, '102nd'],
      [111, '111th'],
      [112, '112th'],
      [113, '113th'],
      [0, '0th'],
    ])('formats %i as %s', (n, expected) => {
      // Assert
      expect(ordinal(n)).toBe(expected);
    });
  });

  describe('plural', () => {
    it.each([
      [0, '0 allocations'],
      [1, '1 allocation'],
      [2, '2 allocations'],
    ])('formats %i', (n, expected) => {
      // Assert
      expect(plural(n, 'allocation', 'allocations')).toBe(expected);
    });
  });

  describe('formatTimestamp', () => {
    it.each([
      ['America/New_York', '2023-02-28T17:40:58-05:00'],
      ['UTC', '2023-02-28T22:40:58Z'],
      ['Europe/London', '2023-02-28T22:40:58Z'],
      ['Asia/Kolkata', '2023-03-01T04:10:58+05:30'],
      ['Australia/Sydney', '2023-03-01T09:40:58+11:00'],
    ])('formats in %s as %s', (zone, expected) => {
      // Assert
      expect(formatTimestamp(T0 + 999, zone)).toBe(expected);
    });

    it('formats midnight as 00, not 24', () => {
      // Assert
      expect(formatTimestamp(Date.UTC(2023, 0, 1, 0, 0, 0), 'UTC')).toBe('2023-01-01T00:00:00Z');
    });
  });
});
