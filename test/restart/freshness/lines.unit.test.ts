import type { FreshnessReport, ProgressEvent } from '../../../lib/restart/events';
import { createFormatter } from '../../../lib/restart/format';

// 2023-02-28T17:40:58-05:00 in New York, as the formatter's other tests use.
const T0 = Date.UTC(2023, 1, 28, 22, 40, 58);
const STARTED_BEFORE = T0 - 3_600_000;
const NY = 'America/New_York';

const report = (over: Partial<FreshnessReport>): FreshnessReport => ({
  namespace: 'default',
  jobId: 'web',
  startedBefore: STARTED_BEFORE,
  checked: 5,
  restarted: 4,
  alreadyFresh: 1,
  stale: [],
  ...over,
});

function render(r: FreshnessReport, verbose = false): string[] {
  const formatter = createFormatter({ verbose, color: false, timeZone: NY });
  const event: ProgressEvent = { type: 'freshness', time: T0, report: r };
  return formatter.render(event).map((line) => `${line.stream}: ${line.text}`);
}

describe('freshness lines', () => {
  describe('createFormatter().render of a freshness event', () => {
    it('says every allocation in scope started after the time when nothing is stale', () => {
      // Arrange
      const r = report({});

      // Act
      const lines = render(r);

      // Assert
      expect(lines).toEqual([
        'stdout: ==> 2023-02-28T17:40:58-05:00: Freshness: 5 allocations checked, 4 restarted, 1 already fresh, 0 still stale',
        'stdout: Every allocation in scope started after 2023-02-28T16:40:58-05:00',
      ]);
    });

    it('names each stale allocation with why, and never says every allocation is fresh', () => {
      // Arrange
      const r = report({
        restarted: 2,
        stale: [
          { allocationId: '653f983e-8d5c-4c8e-a6a8-0e8e4d1f2a3b', why: 'failed' },
          { allocationId: '77d5c4f6-1111-2222-3333-444444444444', why: 'not-reached' },
        ],
      });

      // Act
      const lines = render(r);

      // Assert
      expect(lines).toEqual([
        'stdout: ==> 2023-02-28T17:40:58-05:00: Freshness: 5 allocations checked, 2 restarted, 1 already fresh, 2 still stale',
        'stdout:     2023-02-28T17:40:58-05:00: Allocation "653f983e" started before the time given: its restart failed',
        'stdout:     2023-02-28T17:40:58-05:00: Allocation "77d5c4f6" started before the time given: the run ended before reaching it',
      ]);
    });

    it('prints full IDs with -verbose and counts the stale allocations a state left out', () => {
      // Arrange
      const r = report({
        checked: 1_000,
        restarted: 0,
        alreadyFresh: 0,
        stale: [{ allocationId: '653f983e-8d5c-4c8e-a6a8-0e8e4d1f2a3b', why: 'locked' }],
        staleOmitted: 999,
      });

      // Act
      const lines = render(r, true);

      // Assert
      expect(lines).toEqual([
        'stdout: ==> 2023-02-28T17:40:58-05:00: Freshness: 1000 allocations checked, 0 restarted, 0 already fresh, 1000 still stale',
        'stdout:     2023-02-28T17:40:58-05:00: Allocation "653f983e-8d5c-4c8e-a6a8-0e8e4d1f2a3b" started before the time given: another run held the job',
        'stdout:     2023-02-28T17:40:58-05:00: ... and 999 more stale allocations',
      ]);
    });
  });
});
