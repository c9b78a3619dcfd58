import { fleetInputJsonSchema, toFleetInput, validateFleetInput } from '../../lib/fleet/input';
import { RestartValidationError } from '../../lib/restart/errors';
import { validateRestartInput } from '../../lib/restart/input';
import { refusal } from '../restart/helpers/refusal';

const headless = { interactive: false };

function messageOf(act: () => unknown): string {
  try {
    act();
  } catch (err) {
    expect(err).toBeInstanceOf(RestartValidationError);
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('fleet input', () => {
  describe('validateFleetInput', () => {
    it('applies the defaults: one job at a time, no failed job tolerated, ID order', () => {
      // Arrange / Act
      const options = validateFleetInput({ namespace: 'prod', yes: true }, headless);

      // Assert
      expect(options).toMatchObject({
        selection: { namespace: 'prod' },
        order: 'id',
        maxJobs: 1,
        maxFailedJobs: 0,
      });
    });

    it('validates the shared options exactly as the one-job input does', () => {
      // Arrange
      const shared = { batchSize: '25%', batchWait: '10s', onError: 'fail', waitHealthy: true, maxErrors: 2 };

      // Act
      const options = validateFleetInput({ filter: 'Type == "service"', ...shared }, headless);

      // Assert
      const {
        job: _job,
        groups: _g,
        tasks: _t,
        ...oneJob
      } = validateRestartInput({ job: 'x', ...shared }, headless);
      expect(options.jobOptions).toEqual(oneJob);
    });

    it('reads every selector, the order and the budget', () => {
      // Arrange
      const raw = {
        namespace: '*',
        filter: 'Meta.team == "payments"',
        nodes: ['9a1f', '9a1f', 'c3'],
        nodePool: 'gpu',
        datacenters: ['dc1'],
        order: 'priority',
        maxJobs: '3',
        maxFailedJobs: 1,
        yes: true,
      };

      // Act
      const options = validateFleetInput(raw, headless);

      // Assert
      expect(options).toMatchObject({
        selection: {
          namespace: '*',
          filter: 'Meta.team == "payments"',
          nodes: ['9a1f', 'c3'],
          nodePool: 'gpu',
          datacenters: ['dc1'],
        },
        order: 'priority',
        maxJobs: 3,
        maxFailedJobs: 1,
      });
    });

    it.each([
      refusal(
        'a bare fleet',
        { yes: true },
        'A fleet needs at least one selector: give "namespace" (-namespace), "filter" (-filter), "nodes" (-node), "nodePool" (-node-pool), "datacenters" (-datacenter), "usesVariables" (-uses-variable), "usesSecrets" (-uses-secret); "namespace": "*" with a filter selects across namespaces. A fleet never restarts every job by default',
      ),
      refusal(
        'only an empty namespace',
        { namespace: '', yes: true },
        'A fleet needs at least one selector: give "namespace" (-namespace), "filter" (-filter), "nodes" (-node), "nodePool" (-node-pool), "datacenters" (-datacenter), "usesVariables" (-uses-variable), "usesSecrets" (-uses-secret); "namespace": "*" with a filter selects across namespaces. A fleet never restarts every job by default',
      ),
      refusal(
        'groups',
        { namespace: 'prod', groups: ['web'] },
        'Invalid input field "groups": got ["web"], expected nothing: groups name things inside one job, and a fleet restarts whole jobs (restart one job\'s groups with nomad-restart -group <job>)',
      ),
      refusal(
        'tasks',
        { namespace: 'prod', tasks: ['app'] },
        'Invalid input field "tasks": got ["app"], expected nothing: tasks name things inside one job, and a fleet restarts whole jobs (restart one job\'s tasks with nomad-restart -task <job>)',
      ),
      refusal(
        'job',
        { namespace: 'prod', job: 'web' },
        expect.stringMatching(
          /^Unknown input field "job": allowed fields are namespace, filter, nodes, nodePool, datacenters, order, maxJobs, maxFailedJobs, usesVariables, usesSecrets, stale, region, batchSize/,
        ),
      ),
      refusal(
        'max jobs zero',
        { namespace: 'prod', maxJobs: 0, yes: true },
        'Invalid -max-jobs value "0": number value must be greater than zero',
      ),
      refusal(
        'max jobs not a number',
        { namespace: 'prod', maxJobs: 'many', yes: true },
        'Invalid -max-jobs value "many": max jobs must be an integer greater than zero',
      ),
      refusal(
        'max jobs a decimal',
        { namespace: 'prod', maxJobs: 2.5, yes: true },
        'Invalid -max-jobs value "2.5": max jobs must be an integer greater than zero',
      ),
      refusal(
        'max failed jobs negative',
        { namespace: 'prod', maxFailedJobs: -1, yes: true },
        'Invalid -max-failed-jobs value "-1": max failed jobs must be an integer greater than or equal to zero',
      ),
      refusal(
        'an unknown order',
        { namespace: 'prod', order: 'size', yes: true },
        'Invalid -order value "size": valid options are "id" and "priority"',
      ),
      refusal(
        'an empty filter',
        { filter: '  ', yes: true },
        'Invalid input field "filter": got "  ", expected a Nomad filter expression evaluated on each job, e.g. "Meta.team == \\"payments\\"" (non-empty string)',
      ),
      refusal(
        'an empty node prefix',
        { nodes: ['9a', ''] },
        'Invalid input field "nodes[1]": got "", expected a string',
      ),
      refusal(
        'an empty node pool',
        { nodePool: '' },
        'Invalid input field "nodePool": got "", expected a node pool name (non-empty string)',
      ),
      refusal(
        'a shared option, with the one-job message',
        { namespace: 'prod', batchSize: '0' },
        'Invalid -batch-size value "0": number value must be greater than zero',
      ),
      refusal(
        'ask without a terminal or yes',
        { namespace: 'prod', batchWait: 'ask' },
        'Invalid -batch-wait value "ask": "ask" cannot be used when terminal is not interactive',
      ),
      refusal(
        'an empty variable path',
        { usesVariables: ['nomad/jobs/shared/db', ' '], yes: true },
        'Invalid -uses-variable value " ": expected a path, such as "nomad/jobs/shared/db", or a prefix ending in "*"',
      ),
      refusal(
        'a * inside a secret path',
        { usesSecrets: ['kv/*/db'], yes: true },
        'Invalid -uses-secret value "kv/*/db": only a trailing "*" selects (every path under the prefix before it)',
      ),
      refusal(
        'stale without a variable path',
        { namespace: 'prod', usesSecrets: ['kv/payments/db'], stale: true, yes: true },
        "Invalid -stale: it needs -uses-variable <path>: each job's time is the newest change of the variables it reads there",
      ),
      refusal(
        'stale with startedBefore',
        { usesVariables: ['a'], stale: true, startedBefore: '2h', yes: true },
        'Invalid -stale with -started-before "2h": both give the time allocations must have started after; give one',
      ),
      refusal(
        'stale not a boolean',
        { usesVariables: ['a'], stale: 'yes', yes: true },
        'Invalid input field "stale": got "yes", expected with usesVariables: restart only allocations that started before the newest change of the variables each job reads (true or false)',
      ),
      refusal(
        'not an object',
        'prod',
        'Invalid input: got "prod", expected a JSON object with the fleet\'s selectors ("namespace", "filter"...)',
      ),
    ])('fails: $name', ({ raw, expectedErr }) => {
      // Arrange / Act
      const message = messageOf(() => validateFleetInput(raw, headless));

      // Assert
      expect(message).toEqual(expectedErr);
    });

    it('names the field at fault', () => {
      // Arrange / Act
      let field: string | undefined;
      try {
        validateFleetInput({ namespace: 'prod', maxFailedJobs: 'x', yes: true }, headless);
      } catch (err) {
        field = (err as RestartValidationError).field;
      }

      // Assert
      expect(field).toBe('maxFailedJobs');
    });
  });

  describe('consumer fields', () => {
    it('selects with -uses-variable or -uses-secret alone, paths trimmed and unique', () => {
      // Arrange
      const raw = {
        usesVariables: ['nomad/jobs/shared/db', ' nomad/jobs/shared/db ', 'cfg/*'],
        usesSecrets: ['kv/payments/db'],
        stale: true,
        yes: true,
      };

      // Act
      const options = validateFleetInput(raw, headless);

      // Assert
      expect(options.selection).toEqual({
        usesVariables: ['nomad/jobs/shared/db', 'cfg/*'],
        usesSecrets: ['kv/payments/db'],
      });
      expect(options.stale).toBe(true);
    });

    it('builds the input that validates back to the same consumer options', () => {
      // Arrange
      const options = validateFleetInput(
        { namespace: '*', usesVariables: ['nomad/jobs/shared/db'], stale: true, yes: true },
        headless,
      );

      // Act
      const input = toFleetInput(options);

      // Assert
      expect(input).toMatchObject({ usesVariables: ['nomad/jobs/shared/db'], stale: true });
      expect(validateFleetInput(input, headless)).toEqual(options);
    });
  });

  describe('toFleetInput', () => {
    it('builds the input that validates back to the same options', () => {
      // Arrange
      const options = validateFleetInput(
        {
          namespace: '*',
          filter: 'Meta.team == "payments"',
          nodes: ['9a1f'],
          order: 'priority',
          maxJobs: 3,
          maxFailedJobs: 1,
          batchSize: '2',
          batchWait: '30s',
          onError: 'fail',
          windowDuration: '2h',
          trigger: 'schedule',
          scheduleName: 'weekly',
        },
        headless,
      );

      // Act
      const input = toFleetInput(options, 'alice@laptop');

      // Assert
      expect(input).not.toHaveProperty('job');
      expect(input.startedBy).toBe('alice@laptop');
      expect(validateFleetInput(input, headless)).toEqual(options);
    });
  });

  describe('fleetInputJsonSchema', () => {
    it('describes the selectors, the budget and the shared options, and refuses unknown fields', () => {
      // Arrange / Act
      const schema = fleetInputJsonSchema() as { properties: Record<string, unknown>; required?: unknown };

      // Assert
      expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(schema.required).toBeUndefined();
      expect(Object.keys(schema.properties)).toEqual(
        expect.arrayContaining([
          'namespace',
          'filter',
          'nodes',
          'maxJobs',
          'maxFailedJobs',
          'order',
          'batchSize',
        ]),
      );
      expect(Object.keys(schema.properties)).not.toEqual(expect.arrayContaining(['job']));
      expect(Object.keys(schema.properties)).not.toContain('groups');
    });
  });
});
