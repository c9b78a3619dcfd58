import { readFileSync } from 'node:fs';
import { validateFleetInput } from '../../lib/fleet/input';

describe('the fleet inputs docs/console.md shows', () => {
  it('are valid fleet inputs, each with a selector', () => {
    // Arrange
    const doc = readFileSync('docs/console.md', 'utf8');
    const section = doc.slice(doc.indexOf('## Fleets'));
    const block = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const inputs = block
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as unknown);

    // Act
    const options = inputs.map((input) => validateFleetInput(input, { interactive: true }));

    // Assert
    expect(inputs.length).toBeGreaterThanOrEqual(5);
    expect(options.map((o) => o.maxJobs)).toEqual([1, 3, 2, 5, 4, 1]);
  });
});
