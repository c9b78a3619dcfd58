// Scenario: the README's demo figures come from the command it names. `npm run demo` (the real
// command, a subprocess) prints what the simulator saw; the README shows the same counters, and
// the Nomad request count inside the range the README states (it moves with timing).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './helpers/run-cli';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The `  <label>   <count>` lines under `What the simulator saw:`. */
function countersIn(text: string): Record<string, number> {
  const block = text.slice(text.indexOf('What the simulator saw:\n'));
  const counters: Record<string, number> = {};
  for (const [, label, count] of block.matchAll(/^ {2}(\S.*?)\s{2,}(\d+)$/gm)) {
    if (label !== undefined) counters[label] = Number(count);
  }
  return counters;
}

describe('the README demo', () => {
  it('shows the counters `npm run demo` prints, its Nomad requests within the stated range', async () => {
    // Arrange
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const range = /the README's test allows (\d+) to (\d+)\)/.exec(readme);
    const { 'Nomad requests': shownRequests, ...shown } = countersIn(readme);

    // Act
    const result = await runCli(['demo']);

    // Assert
    const { 'Nomad requests': requests, ...counted } = countersIn(result.stdout);
    expect(result.code).toBe(0);
    expect(Object.keys(shown)).toEqual([
      'in-place restarts',
      'allocation stops',
      'job evaluations',
      'replacements',
    ]);
    expect(counted).toEqual(shown);
    expect(range).not.toBeNull();
    const [low, high] = [Number(range?.[1]), Number(range?.[2])];
    for (const count of [shownRequests, requests]) {
      expect(count).toBeGreaterThanOrEqual(low);
      expect(count).toBeLessThanOrEqual(high);
    }
  });
});
