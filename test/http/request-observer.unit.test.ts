// Scenario: the slow-request observer on a fake clock: a request unanswered past its hold plus
// the threshold is reported once, and its end is reported only when it was reported slow.
import { jest } from '@jest/globals';
import { type SlowRequest, slowRequestObserver } from '../../lib/http/request-observer';

describe('slowRequestObserver', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000 }));
  afterEach(() => jest.useRealTimers());

  /** An observer whose reports are recorded in order. */
  function recorded() {
    const reports: { kind: 'slow' | 'settled'; slow: SlowRequest }[] = [];
    const observer = slowRequestObserver({
      afterMs: 10_000,
      onSlow: (slow) => reports.push({ kind: 'slow', slow }),
      onSettled: (slow) => reports.push({ kind: 'settled', slow }),
    });
    return { observer, reports };
  }

  it('reports a request with no answer after the threshold, then its end', () => {
    // Arrange
    const { observer, reports } = recorded();

    // Act
    const settled = observer.sent('GET http://nomad/v1/job/web', 0);
    jest.advanceTimersByTime(9_999);
    const before = reports.length;
    jest.advanceTimersByTime(1);
    settled();

    // Assert
    expect(before).toBe(0);
    expect(reports).toEqual([
      { kind: 'slow', slow: { request: 'GET http://nomad/v1/job/web', sentAt: 1_000 } },
      { kind: 'settled', slow: { request: 'GET http://nomad/v1/job/web', sentAt: 1_000 } },
    ]);
  });

  it('says nothing of a request answered in time', () => {
    // Arrange
    const { observer, reports } = recorded();

    // Act
    const settled = observer.sent('PUT http://nomad/v1/client/allocation/a/restart', 0);
    jest.advanceTimersByTime(9_000);
    settled();
    jest.advanceTimersByTime(60_000);

    // Assert
    expect(reports).toEqual([]);
  });

  it('counts a blocking query as slow only after its hold', () => {
    // Arrange
    const { observer, reports } = recorded();

    // Act
    observer.sent('GET http://nomad/v1/job/web/allocations?index=5&wait=300000ms', 318_750);
    jest.advanceTimersByTime(318_750 + 9_999);
    const during = reports.length;
    jest.advanceTimersByTime(1);

    // Assert
    expect(during).toBe(0);
    expect(reports.map((r) => r.kind)).toEqual(['slow']);
  });

  it('reports the end of a slow request once, however often it is settled', () => {
    // Arrange
    const { observer, reports } = recorded();
    const settled = observer.sent('GET http://nomad/v1/jobs', 0);
    jest.advanceTimersByTime(10_000);

    // Act
    settled();
    settled();

    // Assert
    expect(reports.map((r) => r.kind)).toEqual(['slow', 'settled']);
  });
});
