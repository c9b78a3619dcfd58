/**
 * Smoke test of `bench/engine-requests.ts`: the benchmark runs end to end at a tiny size
 * and its request counts add up. Timings are printed by the bench, never asserted.
 */
import { runEngineRequestsBench } from '../../bench/engine-requests';

describe('runEngineRequestsBench', () => {
  it('measures both modes and counts one restart or stop per allocation', async () => {
    // Arrange
    const opts = { allocations: 4, batchSizes: [2], planAllocations: 10, timeScale: 0.001 };

    // Act
    const result = await runEngineRequestsBench(opts);

    // Assert
    expect(result.rows.map((row) => [row.mode, row.batchSize])).toEqual([
      ['in-place', 2],
      ['reschedule', 2],
    ]);
    expect(result.rows[0]?.byRoute['PUT /v1/client/allocation/:id/restart']).toBe(4);
    expect(result.rows[1]?.byRoute['PUT /v1/allocation/:id/stop']).toBe(4);
    expect(result.rows.every((row) => row.requestsPerAllocation === row.requests / 4)).toBe(true);
    expect(result.plan?.allocations).toBe(10);
  });
});
