import { optionsInShort } from '../../../lib/restart/run/options-short';
import { restartOptions } from '../../fixtures/restart-options';

describe('optionsInShort', () => {
  it.each([
    { name: "Nomad's defaults with -yes", over: {}, expected: '-batch-size=1 -yes' },
    {
      name: 'a batch size, a batch wait and -reschedule',
      over: {
        batchSize: { value: 2, percent: false },
        batchWait: { kind: 'duration' as const, ns: 10e9 },
        reschedule: true,
        yes: false,
      },
      expected: '-batch-size=2 -batch-wait=10s -reschedule',
    },
    {
      name: 'a percentage, ask, groups and tasks',
      over: {
        batchSize: { value: 25, percent: true },
        batchWait: { kind: 'ask' as const },
        onError: 'fail' as const,
        groups: ['api', 'web front'],
        tasks: ['server'],
      },
      expected:
        '-batch-size=25% -batch-wait=ask -group=api -group="web front" -on-error=fail -task=server -yes',
    },
    {
      name: 'the health gate at its defaults, then with its own timings',
      over: { waitHealthy: { minHealthyTimeNs: 10e9, healthyDeadlineNs: 300e9 } },
      expected: '-batch-size=1 -yes -wait-healthy',
    },
    {
      name: 'the health gate with its own timings',
      over: { waitHealthy: { minHealthyTimeNs: 30e9, healthyDeadlineNs: 600e9 } },
      expected: '-batch-size=1 -yes -wait-healthy -min-healthy-time=30s -healthy-deadline=10m0s',
    },
    {
      name: "the options beyond Nomad's",
      over: {
        maxErrors: { value: 10, percent: true },
        replacementTimeoutNs: 600e9,
        startedBefore: Date.parse('2026-12-07T09:00:00Z'),
        stopOnAlarms: ['api-5xx'],
        bakeTimeMs: 600_000,
        verbose: true,
        reason: 'INC-1',
      },
      expected:
        '-batch-size=1 -yes -max-errors=10% -replacement-timeout=10m0s -started-before=2026-12-07T09:00:00.000Z -stop-on-alarm=api-5xx -bake-time=10m0s',
    },
  ])('lists $name', ({ over, expected }) => {
    // Act
    const text = optionsInShort(restartOptions('web', over));

    // Assert
    expect(text).toBe(expected);
  });
});
