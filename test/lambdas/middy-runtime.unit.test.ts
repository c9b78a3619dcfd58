// Scenario: @middy/core 7 declares engines node >= 22, while these machines run Node 20.
// This proves the pinned version loads and runs a handler (with a middleware) on the
// Node that runs the tests, so the engines field is not a blocker for local runs.
import middy from '@middy/core';
import type { Context } from 'aws-lambda';

describe('@middy/core', () => {
  it('loads and runs a handler with a before hook on this Node', async () => {
    // Arrange
    const seen: string[] = [];
    const handler = middy(async (event: { name: string }) => ({ greeting: `hello ${event.name}` })).use({
      before: async (request) => {
        seen.push(`before:${(request.event as { name: string }).name}`);
      },
    });

    // Act
    const result = await handler({ name: 'nomad' }, {} as Context);

    // Assert
    expect(result).toEqual({ greeting: 'hello nomad' });
    expect(seen).toEqual(['before:nomad']);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(20);
  });
});
