import { readFileSync } from 'node:fs';
import { RestartValidationError } from '../../lib/restart/errors';
import { validateExecutionInput } from '../../lib/restart/execution-input';

describe('validateExecutionInput', () => {
  it('allows questions without -yes: the workflow asks through the approvals table', () => {
    // Act
    const options = validateExecutionInput({ job: 'example', batchWait: 'ask' });

    // Assert
    expect(options.batchWait).toEqual({ kind: 'ask' });
    expect(options.onError).toBe('ask');
  });

  it('refuses a dry run: an execution has no read-only path', () => {
    // Act
    const act = () => validateExecutionInput({ job: 'example', dryRun: true });

    // Assert
    expect(act).toThrow(RestartValidationError);
    expect(act).toThrow(
      'Invalid input field "dryRun": got true, expected false (a dry run is made by "nomad-restart -dry-run", not by an execution)',
    );
  });

  it('accepts every console input docs/console.md shows', () => {
    // Arrange
    const doc = readFileSync('docs/console.md', 'utf8');
    const block = /```json\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const inputs = block
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as unknown);

    // Act
    const jobs = inputs.map((input) => validateExecutionInput(input).job);

    // Assert
    expect(inputs.length).toBeGreaterThanOrEqual(5);
    expect(jobs.every((job) => job === 'example')).toBe(true);
  });
});
