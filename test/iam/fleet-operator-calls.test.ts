/**
 * Scenario: `nomad-restart fleet -engine=aws` run against a faked Step Functions with the deployed
 * stack's ARNs, every call it makes (start, the fleet's history, the map run's item executions,
 * each item's and each job's history) evaluated through the IAM evaluator against an operator role
 * granted `fleet.grantOperate(role, 'start')` on the synthesized template.
 */
import {
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { App } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { mockClient } from 'aws-sdk-client-mock';
import { NomadRestartStack } from '../../lib/constructs/index';
import { runFleetOnAws } from '../../lib/engines/aws';
import { validateFleetInput } from '../../lib/fleet/input';
import { ev, FakeExecution } from '../engines/aws/helpers/fake-history';
import { evaluateIdentityRequest } from './helpers/iam-evaluator';
import { DEPLOYED, TemplateIam } from './helpers/template-iam';

const sfn = mockClient(SFNClient);

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new NomadRestartStack(app, 'FleetOperatorCalls', {
  nomadAddress: 'https://nomad.internal:4646',
  env: { account: DEPLOYED.account, region: DEPLOYED.region },
});
const role = new iam.Role(stack, 'Operator', { assumedBy: new iam.AccountRootPrincipal() });
stack.fleet.grantOperate(role, 'start');
const t = new TemplateIam(app.synth().getStackByName(stack.stackName).template as Record<string, unknown>);
const machines = t.logicalIdsOf('AWS::StepFunctions::StateMachine');
const fleetMachine = t.arnOf(machines.find((id) => id.startsWith('FleetStateMachine')) ?? '');
const restartMachine = t.arnOf(machines.find((id) => id.startsWith('RestartStateMachine')) ?? '');
const roleId = t.logicalIdsOf('AWS::IAM::Role').find((id) => id.startsWith('Operator')) ?? '';

const name = (arn: string) => arn.slice(arn.lastIndexOf(':') + 1);
const states = `arn:aws:states:${DEPLOYED.region}:${DEPLOYED.account}`;
const FLEET = `${states}:execution:${name(fleetMachine)}:fleet-1`;
// A Distributed Map's run and its item executions are named under the parent state machine.
const MAP_RUN = `${states}:mapRun:${name(fleetMachine)}/Restart-jobs:0a1b2c3d`;
const ITEM = `${states}:execution:${name(fleetMachine)}/Restart-jobs:5e6f7a8b`;
const CHILD = `${states}:execution:${name(restartMachine)}:web-default-x`;

function serve(): void {
  const plan = { jobs: 1, allocations: 1, skipped: 0, namespaces: ['default'] };
  const summary = {
    outcome: 'finished',
    restarted: 1,
    failed: 0,
    skipped: 0,
    problems: [],
    omittedProblems: 0,
  };
  const item = {
    input: { job: 'web', namespace: 'default', fleet: { runId: 'fleet-1', index: 1, of: 1 } },
    executionName: 'web-default-x',
    allocations: 1,
  };
  const histories: Record<string, FakeExecution> = {
    [FLEET]: new FakeExecution([
      [
        {
          type: 'TaskStateExited',
          stateExitedEventDetails: {
            name: 'Plan fleet',
            output: JSON.stringify({ plan, budget: { maxJobs: 1, maxFailedJobs: 0 } }),
          },
        },
        { type: 'MapRunStarted', mapRunStartedEventDetails: { mapRunArn: MAP_RUN } },
      ],
      [],
      [],
      [
        {
          type: 'TaskStateExited',
          stateExitedEventDetails: { name: 'Summarize fleet', output: JSON.stringify({ summary }) },
        },
        ev.succeeded(summary),
      ],
    ]),
    [ITEM]: new FakeExecution([
      [
        {
          type: 'ExecutionStarted',
          executionStartedEventDetails: { input: JSON.stringify({ options: {}, item }) },
        },
        {
          type: 'TaskSubmitted',
          taskSubmittedEventDetails: {
            resourceType: 'states',
            resource: 'startExecution.sync:2',
            output: JSON.stringify({ ExecutionArn: CHILD }),
          },
        },
      ],
      [ev.succeeded({ ...item.input, executionArn: CHILD, output: { outcome: 'succeeded' } })],
    ]),
    [CHILD]: new FakeExecution([
      [ev.step('Validate input', []), ev.succeeded({ outcome: 'succeeded', errorText: '' })],
    ]),
  };
  sfn.on(StartExecutionCommand).resolves({ executionArn: FLEET, startDate: new Date(0) });
  sfn.on(ListExecutionsCommand).resolves({ executions: [{ executionArn: ITEM }] as never });
  sfn
    .on(GetExecutionHistoryCommand)
    .callsFake((input) => histories[input.executionArn]?.read(input) ?? { events: [] });
}

describe('an operator granted the fleet’s start use', () => {
  afterAll(() => sfn.reset());

  it('may make every call nomad-restart fleet -engine=aws makes to start and follow a fleet', async () => {
    // Arrange
    serve();

    // Act
    const result = await runFleetOnAws({
      fleet: validateFleetInput({ namespace: 'default', yes: true }, { interactive: false }),
      stateMachineArn: fleetMachine,
      clients: { sfn: new SFNClient({ region: DEPLOYED.region }) },
      emit: () => undefined,
      askFor: () => async (question) => question.defaultOnInterrupt,
      operator: 'ops@laptop',
      printError: () => undefined,
      pollIntervalMs: 0,
      env: {},
    });
    const requests = sfn.calls().map((call) => {
      const command = call.args[0] as unknown as {
        constructor: { name: string };
        input: Record<string, string>;
      };
      const action = `states:${command.constructor.name.replace(/Command$/, '')}`;
      const input = command.input;
      return {
        action,
        resource: input['stateMachineArn'] ?? input['executionArn'] ?? input['mapRunArn'] ?? '*',
        context: {},
      };
    });
    const denied: string[] = [];
    for (const request of new Map(requests.map((r) => [`${r.action} ${r.resource}`, r])).values()) {
      const decision = await evaluateIdentityRequest(t.arnOf(roleId), t.rolePolicies(roleId), request);
      if (!decision.allowed) denied.push(`${request.action} on ${request.resource}: ${decision.explanation}`);
    }

    // Assert
    expect(result.exitCode).toBe(0);
    expect(requests.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        'states:StartExecution',
        'states:GetExecutionHistory',
        'states:ListExecutions',
      ]),
    );
    expect(denied).toEqual([]);
  });
});
