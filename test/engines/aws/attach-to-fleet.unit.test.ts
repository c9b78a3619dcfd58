/**
 * Scenario: `nomad-restart attach <execution-arn>` on a fleet execution that already ran (the
 * faked Step Functions holds its whole history): the fleet is recognized from its start input and
 * followed from its first line with a renderer made from its options; a one-job execution is left
 * to `attachToRun`.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { attachToFleet } from '../../../lib/engines/aws';
import type { FleetProgressEvent } from '../../../lib/fleet/events';
import { toFleetInput, validateFleetInput } from '../../../lib/fleet/input';
import type { FleetOptions } from '../../../lib/fleet/options';
import { ev } from './helpers/fake-history';
import { FakeStepFunctions } from './helpers/fake-step-functions';
import { bindToSdkMock } from './helpers/sdk-binding';

const sfn = mockClient(SFNClient);
const FLEET = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Fleet:fleet-1';
const fleet = validateFleetInput(
  { namespace: 'payments', maxJobs: 3, yes: true, verbose: true },
  { interactive: false },
);
const summary = {
  outcome: 'finished',
  restarted: 0,
  failed: 0,
  skipped: 0,
  problems: [],
  omittedProblems: 0,
};

async function attach(input: unknown) {
  const fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  fake.addExecution(FLEET, input, [
    {
      type: 'TaskStateExited',
      stateExitedEventDetails: {
        name: 'Plan fleet',
        output: JSON.stringify({ plan: { jobs: 0, allocations: 0, skipped: 0, namespaces: ['payments'] } }),
      },
    },
    {
      type: 'TaskStateExited',
      stateExitedEventDetails: {
        name: 'Summarize fleet',
        output: JSON.stringify({
          summary: {
            ...summary,
            events: [
              { type: 'fleet-finished', time: 1, restarted: 0, failed: 0, skipped: 0, withErrors: false },
            ],
          },
        }),
      },
    },
    ev.succeeded(summary),
  ]);
  const emitted: FleetProgressEvent[] = [];
  const rendered: FleetOptions[] = [];
  const result = await attachToFleet({
    executionArn: FLEET,
    clients: { sfn: new SFNClient({ region: 'eu-west-1' }) },
    renderer: (options) => {
      rendered.push(options);
      return {
        emit: (event) => emitted.push(event),
        askFor: () => async (question) => question.defaultOnInterrupt,
        printError: () => undefined,
      };
    },
    answeredBy: 'tester@laptop',
    printError: () => undefined,
    pollIntervalMs: 0,
    env: {},
  });
  return { result, emitted, rendered, fake };
}

describe('attachToFleet', () => {
  afterEach(() => sfn.reset());

  it('follows a fleet execution from its first line, rendered with the run’s own options', async () => {
    // Act
    const { result, emitted, rendered } = await attach(toFleetInput(fleet, 'ops@laptop'));

    // Assert
    expect(result).toEqual({ exitCode: 0, status: 'SUCCEEDED', executionArns: [FLEET] });
    expect(rendered).toEqual([fleet]);
    expect(emitted.map((e) => e.type)).toEqual(['fleet-planned', 'fleet-finished']);
  });

  it('leaves a one-job execution to attachToRun after one history read', async () => {
    // Act
    const { result, rendered, fake } = await attach({ job: 'example' });

    // Assert
    expect(result).toBeUndefined();
    expect(rendered).toEqual([]);
    expect(fake.received('GetExecutionHistory')).toHaveLength(1);
  });
});
