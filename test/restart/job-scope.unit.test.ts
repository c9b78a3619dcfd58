import { RestartValidationError } from '../../lib/restart/errors';
import { toRestartInput, validateRestartInput } from '../../lib/restart/input';
import { nodeInScope } from '../../lib/restart/job-scope';
import { refusal } from './helpers/refusal';

const confirmed = { interactive: false };
const fleet = { runId: 'weekly-2026-12-07', index: 2, of: 5 };

function messageOf(act: () => unknown): string {
  try {
    act();
  } catch (err) {
    expect(err).toBeInstanceOf(RestartValidationError);
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('job-scope', () => {
  describe('validateRestartInput with a fleet', () => {
    it('reads the fleet reference and the scope', () => {
      // Arrange
      const raw = {
        job: 'web',
        yes: true,
        fleet,
        scope: { nodes: ['n1', 'n2', 'n1'], nodePool: 'gpu', datacenters: ['dc1'] },
      };

      // Act
      const options = validateRestartInput(raw, confirmed);

      // Assert
      expect(options.fleet).toEqual(fleet);
      expect(options.scope).toEqual({ nodes: ['n1', 'n2'], nodePool: 'gpu', datacenters: ['dc1'] });
    });

    it('leaves both out when the input has neither', () => {
      // Arrange / Act
      const options = validateRestartInput({ job: 'web', yes: true }, confirmed);

      // Assert
      expect(options).not.toHaveProperty('fleet');
      expect(options).not.toHaveProperty('scope');
    });

    it.each([
      refusal(
        'empty run ID',
        { fleet: { ...fleet, runId: '' } },
        'Invalid input field "fleet[runId]": got "", expected the fleet run ID (non-empty string)',
      ),
      refusal(
        'index zero',
        { fleet: { ...fleet, index: 0 } },
        'Invalid input field "fleet[index]": got 0, expected the job\'s place in the fleet\'s order (integer from 1, at most "of")',
      ),
      refusal(
        'index beyond the count',
        { fleet: { ...fleet, index: 6 } },
        'Invalid input field "fleet[index]": got 6, expected the job\'s place in the fleet\'s order (integer from 1, at most "of") (5)',
      ),
      refusal(
        'decimal count',
        { fleet: { ...fleet, of: 2.5 } },
        'Invalid input field "fleet[of]": got 2.5, expected how many jobs the fleet restarts (integer from 1)',
      ),
      refusal(
        'unknown fleet field',
        { fleet: { ...fleet, parent: 'x' } },
        'Unknown input field "fleet[parent]": allowed fields are runId, index, of',
      ),
      refusal(
        'empty node ID',
        { scope: { nodes: ['n1', ''] } },
        'Invalid input field "scope[nodes][1]": got "", expected a non-empty string in a list of full node IDs (non-empty strings)',
      ),
      refusal(
        'empty node list',
        { scope: { nodes: [] } },
        'Invalid input field "scope[nodes]": got [], expected a list of full node IDs (non-empty strings)',
      ),
      refusal(
        'empty node pool',
        { scope: { nodePool: '' } },
        'Invalid input field "scope[nodePool]": got "", expected a node pool name (non-empty string)',
      ),
      refusal(
        'empty scope',
        { scope: {} },
        'Invalid input field "scope": got {}, expected at least one of "nodes", "nodePool", "datacenters" (set by a fleet run: restart only allocations on these nodes, {"nodes"?: [node IDs], "nodePool"?: string, "datacenters"?: [names]})',
      ),
    ])('fails: $name', ({ raw, expectedErr }) => {
      // Arrange
      const input = { job: 'web', yes: true, ...raw };

      // Act
      const message = messageOf(() => validateRestartInput(input, confirmed));

      // Assert
      expect(message).toBe(expectedErr);
    });
  });

  describe('toRestartInput', () => {
    it('carries the fleet reference and the scope back to the same options', () => {
      // Arrange
      const options = validateRestartInput(
        { job: 'web', yes: true, fleet, scope: { nodePool: 'gpu', datacenters: ['dc1', 'dc2'] } },
        confirmed,
      );

      // Act
      const input = toRestartInput(options);

      // Assert
      expect(input.fleet).toEqual(fleet);
      expect(input.scope).toEqual({ nodePool: 'gpu', datacenters: ['dc1', 'dc2'] });
      expect(validateRestartInput(input, confirmed)).toEqual(options);
    });
  });

  describe('nodeInScope', () => {
    const node = { ID: 'n1', NodePool: 'gpu', Datacenter: 'dc1' };

    it.each([
      { name: 'its ID is listed', scope: { nodes: ['n0', 'n1'] }, expected: true },
      { name: 'its ID is not listed', scope: { nodes: ['n0'] }, expected: false },
      { name: 'its pool is the scope pool', scope: { nodePool: 'gpu' }, expected: true },
      { name: 'its pool is another', scope: { nodePool: 'default' }, expected: false },
      { name: 'its datacenter is listed', scope: { datacenters: ['dc2', 'dc1'] }, expected: true },
      {
        name: 'pool matches but datacenter does not',
        scope: { nodePool: 'gpu', datacenters: ['dc2'] },
        expected: false,
      },
    ])('is $expected when $name', ({ scope, expected }) => {
      // Arrange / Act
      const inScope = nodeInScope(scope, node);

      // Assert
      expect(inScope).toBe(expected);
    });
  });
});
