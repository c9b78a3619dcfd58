// Scenario: bench/sim.ts runs end to end at a tiny size (numbers are not asserted: timing
// belongs to the benchmark report, not to tests).
import { formatSimBench, runSimBench } from '../../bench/sim';

describe('runSimBench', () => {
  it('places every allocation, lists them and holds every blocking query', async () => {
    // Arrange
    const sizes = { nodes: 3, allocs: 12, blockingQueries: 5, listRepeats: 1 };

    // Act
    const result = await runSimBench(sizes);

    // Assert
    expect(result.heldQueries).toBe(5);
    expect(result.listBytes).toBeGreaterThan(12 * 100);
    expect(formatSimBench(result)).toContain('register job (12 allocations, 3 nodes)');
  });
});
