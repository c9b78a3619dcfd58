// Scenario: the request rates a fleet benchmark reports: requests per endpoint family and per
// wall-clock second, the busiest second, cleared with the counters.
import { familyOf, RequestStats } from '../../../sim/http/stats';

const entry = { time: 0, method: 'GET', path: '/v1/jobs', query: '', status: 200 };

describe('the simulator’s request rates', () => {
  it('names the family of a counter key by its first path segment', () => {
    // Act / Assert
    expect(familyOf('GET /v1/job/:id/allocations')).toBe('job');
    expect(familyOf('PUT /v1/client/allocation/:id/restart')).toBe('client');
    expect(familyOf('GET /v1/jobs')).toBe('jobs');
    expect(familyOf('GET (unmatched)')).toBe('(unmatched)');
  });

  it('counts per family and per second, and reports the busiest second', () => {
    // Arrange
    let now = 1_000_000;
    const stats = new RequestStats(() => now);

    // Act: 2 requests in one second, 3 in the next.
    stats.record('GET /v1/jobs', entry, false);
    stats.record('GET /v1/job/:id/allocations', entry, false);
    now += 1000;
    stats.record('GET /v1/job/:id/allocations', entry, true);
    stats.record('PUT /v1/client/allocation/:id/restart', entry, false);
    stats.record('PUT /v1/client/allocation/:id/restart', entry, false);
    const rates = stats.rates();
    stats.reset();

    // Assert
    expect(rates.byFamily).toEqual({ jobs: 1, job: 2, client: 2 });
    expect(rates.perSecond).toEqual([
      { second: 1000, count: 2 },
      { second: 1001, count: 3 },
    ]);
    expect(rates.peakPerSecond).toBe(3);
    expect(stats.rates()).toEqual({ byFamily: {}, perSecond: [], peakPerSecond: 0 });
  });

  it('keeps the most recent entries up to its limit', () => {
    // Arrange
    const stats = new RequestStats(Date.now, 10);

    // Act
    for (let i = 0; i < 25; i++) stats.record('GET /v1/jobs', { ...entry, time: i }, false);

    // Assert
    expect(stats.requests().map((e) => e.time)).toEqual([15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    expect(stats.counters()['total']).toBe(25);
  });
});
