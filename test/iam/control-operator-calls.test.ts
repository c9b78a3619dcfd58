/**
 * Scenario: `nomad-restart pause|resume|stop <execution ARN>` against the deployed stack's ARNs,
 * its tables on a DynamoDB emulator and a mocked Step Functions, every call it makes evaluated
 * through the IAM evaluator against an operator role granted `workflow.grantOperate(role,
 * 'control')` on the synthesized template: a pause, a pause taken back by a resume, a parked pause
 * question answered by a resume, and a stop whose answer's reply was lost (the execution then
 * read). The calls made are exactly the use's grants: none denied, none granted and never made.
 * A fleet's pause, resume and stop with `fleet.grantOperate(role, 'control')`, its parked job
 * answered, are none denied either.
 */
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { App } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { mockClient } from 'aws-sdk-client-mock';
import { runControlCommand } from '../../lib/cli/commands/control-command';
import { NomadRestartStack } from '../../lib/constructs/index';
import { OPERATOR_ACTIONS } from '../../lib/constructs/private/operator-grants';
import type { ControlVerb } from '../../lib/control/requests';
import { executionName } from '../../lib/fleet/execution-name';
import { toFleetInput, validateFleetInput } from '../../lib/fleet/input';
import { holdFleetControl } from '../../lib/steps/fleet/fleet-control-item';
import { APPROVALS_TABLE_SCHEMA, DynamoDbJobLock, LOCK_TABLE_SCHEMA } from '../../lib/stores';
import { emulatedApprovalsTable, parkedOn } from '../engines/aws/helpers/chat-fixtures';
import { FakeStepFunctions } from '../engines/aws/helpers/fake-step-functions';
import { fakeTerminal } from '../engines/aws/helpers/fixtures';
import { bindToSdkMock } from '../engines/aws/helpers/sdk-binding';
import { evaluateIdentityRequest } from './helpers/iam-evaluator';
import { type IamRequest, iamRequestFor } from './helpers/sdk-iam-actions';
import { DEPLOYED, TemplateIam } from './helpers/template-iam';

const sfn = mockClient(SFNClient);
const emulated = emulatedApprovalsTable();

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new NomadRestartStack(app, 'ControlOperatorCalls', {
  nomadAddress: 'https://nomad.internal:4646',
  env: { account: DEPLOYED.account, region: DEPLOYED.region },
});
const role = new iam.Role(stack, 'Operator', { assumedBy: new iam.AccountRootPrincipal() });
stack.workflow.grantOperate(role, 'control');
const fleetRole = new iam.Role(stack, 'FleetOperator', { assumedBy: new iam.AccountRootPrincipal() });
stack.fleet.grantOperate(fleetRole, 'control');
const template = app.synth().getStackByName(stack.stackName).template as Record<string, unknown>;
const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as Parameters<typeof stack.getLogicalId>[0]);

const KEY = { namespace: 'default', jobId: 'web' };
const PAUSE_PROMPT = 'Paused by bob@desk (terminal) at 2026-12-07T14:00:00Z.\nResume the restart? [y/N]';

/** Every request the command sends, DynamoDB's recorded by a middleware on the client it is given. */
function recordingDynamoDb(): { client: ReturnType<typeof emulated.db.newClient>; sent: [string, object][] } {
  const client = emulated.db.newClient();
  const sent: [string, object][] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push([String(context.commandName).replace(/Command$/, ''), { ...(args.input as object) }]);
      return next(args);
    },
    { step: 'initialize', name: 'recordForIamCheck' },
  );
  return { client, sent };
}

describe('an operator granted the control use', () => {
  afterEach(() => sfn.reset());

  it('may make every call pause, resume and stop make on an AWS run, and needs every grant', async () => {
    // Arrange: the deployed names are the emulator's tables; the run holds `web`.
    const lockTable = await emulated.db.createTable('LockTable');
    const t = new TemplateIam(template, {
      [logicalId(stack.workflow.lockTable)]: lockTable,
      [logicalId(stack.workflow.approvalsTable)]: emulated.table,
    });
    const machine = t.arnOf(logicalId(stack.workflow.stateMachine));
    const run = `${machine.replace(':stateMachine:', ':execution:')}:web-run-1`;
    const roleId = logicalId(role);
    const fake = new FakeStepFunctions();
    bindToSdkMock(sfn, fake);
    fake.addExecution(run, { job: 'web' });
    await new DynamoDbJobLock(emulated.db.client, lockTable).acquire(KEY, { owner: run, ttlSeconds: 3600 });
    const dynamodb = recordingDynamoDb();
    const control = async (verb: ControlVerb) => {
      const tty = fakeTerminal();
      const code = await runControlCommand(verb, [run], {
        ...tty.streams,
        env: { NOMAD_RESTART_LOCK_TABLE: lockTable, NOMAD_RESTART_APPROVALS_TABLE: emulated.table },
        awsClients: { dynamodb: dynamodb.client },
      });
      return { code, output: tty.output() };
    };
    const park = async (token: string) =>
      emulated.store.put(
        parkedOn(run, token, { runId: run, jobId: 'web', kind: 'pause', prompt: PAUSE_PROMPT }),
      );

    // Act: pause, take it back, pause again and answer the parked question (resume), then a stop
    // whose SendTaskSuccess reply is lost.
    const results = [await control('pause'), await control('resume')];
    await park('pause-token-1');
    results.push(await control('resume'));
    await park('pause-token-2');
    fake.faults.push((call) =>
      call.operation === 'SendTaskSuccess' && call.input['taskToken'] === 'pause-token-2'
        ? { name: 'TaskTimedOut', message: 'Task Timed Out' }
        : undefined,
    );
    sfn.on(DescribeExecutionCommand).resolves({ status: 'RUNNING' });
    results.push(await control('stop'));
    const issuers = new Map([
      ['pause-token-1', machine],
      ['pause-token-2', machine],
    ]);
    const facts = {
      partitionKeys: {
        [lockTable]: LOCK_TABLE_SCHEMA.partitionKey,
        [emulated.table]: APPROVALS_TABLE_SCHEMA.partitionKey,
      },
      taskTokenIssuers: issuers,
    };
    const requests: IamRequest[] = [
      ...sfn.calls().map((call) => {
        const command = call.args[0] as unknown as { constructor: { name: string }; input: object };
        return iamRequestFor(
          'SFN',
          command.constructor.name.replace(/Command$/, ''),
          command.input as never,
          facts,
        );
      }),
      ...dynamodb.sent.map(([operation, input]) =>
        iamRequestFor('DynamoDB', operation, input as never, facts),
      ),
    ];
    const denied: string[] = [];
    for (const request of new Map(requests.map((r) => [`${r.action} ${r.resource}`, r])).values()) {
      const decision = await evaluateIdentityRequest(t.arnOf(roleId), t.rolePolicies(roleId), request);
      if (!decision.allowed) denied.push(`${request.action} on ${request.resource}: ${decision.explanation}`);
    }

    // Assert
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(denied).toEqual([]);
    const use = OPERATOR_ACTIONS.control;
    const granted = [
      ...use.stateMachine,
      ...use.executions,
      ...use.approvalsTable,
      ...Object.values(use.approvalsIndexes).flat(),
      ...use.lockTable,
      ...Object.values(use.lockIndexes).flat(),
    ];
    // A one-job run's request makes every grant's call but the Scan, a fleet's (the next test).
    expect([...new Set(requests.map((r) => r.action)), 'dynamodb:Scan'].sort()).toEqual(
      [...new Set(granted)].sort(),
    );
    expect(
      requests.filter((r) => r.action === 'dynamodb:Query').map((r) => r.resource.split('/index/')[1]),
    ).toEqual(expect.arrayContaining([LOCK_TABLE_SCHEMA.ownerIndex, APPROVALS_TABLE_SCHEMA.pendingIndex]));
  });

  it("may pause, resume and stop a fleet run, answering its parked job, with the fleet's control use", async () => {
    // Arrange: the fleet holds its item; its job "web" runs, parked on its pause question.
    const lockTable = await emulated.db.createTable('LockTable');
    const t = new TemplateIam(template, {
      [logicalId(stack.workflow.lockTable)]: lockTable,
      [logicalId(stack.workflow.approvalsTable)]: emulated.table,
    });
    const machine = t.arnOf(logicalId(stack.workflow.stateMachine));
    const fleetMachine = t.arnOf(logicalId(stack.fleet.stateMachine));
    const fleetArn = `${fleetMachine.replace(':stateMachine:', ':execution:')}:weekly`;
    const child = `${machine.replace(':stateMachine:', ':execution:')}:${executionName('weekly', 'default', 'web')}`;
    const fake = new FakeStepFunctions();
    bindToSdkMock(sfn, fake);
    const fleetInput = validateFleetInput({ namespace: 'default', yes: true }, { interactive: false });
    fake.addExecution(fleetArn, toFleetInput(fleetInput, 'ops@laptop'));
    const lock = new DynamoDbJobLock(emulated.db.client, lockTable);
    await holdFleetControl(lock, 'weekly');
    await lock.acquire(KEY, { owner: child, ttlSeconds: 3600 });
    const dynamodb = recordingDynamoDb();
    const control = async (verb: ControlVerb) => {
      const tty = fakeTerminal();
      return runControlCommand(verb, [fleetArn], {
        ...tty.streams,
        env: { NOMAD_RESTART_LOCK_TABLE: lockTable, NOMAD_RESTART_APPROVALS_TABLE: emulated.table },
        awsClients: { dynamodb: dynamodb.client },
      });
    };

    // Act: pause, the job parks, resume answers it; then a stop.
    const codes = [await control('pause')];
    await emulated.store.put(
      parkedOn(child, 'fleet-token', { runId: child, jobId: 'web', kind: 'pause', prompt: PAUSE_PROMPT }),
    );
    codes.push(await control('resume'), await control('stop'));
    const facts = {
      partitionKeys: {
        [lockTable]: LOCK_TABLE_SCHEMA.partitionKey,
        [emulated.table]: APPROVALS_TABLE_SCHEMA.partitionKey,
      },
      taskTokenIssuers: new Map([['fleet-token', machine]]),
    };
    const requests: IamRequest[] = [
      ...sfn.calls().map((call) => {
        const command = call.args[0] as unknown as { constructor: { name: string }; input: object };
        return iamRequestFor(
          'SFN',
          command.constructor.name.replace(/Command$/, ''),
          command.input as never,
          facts,
        );
      }),
      ...dynamodb.sent.map(([operation, input]) =>
        iamRequestFor('DynamoDB', operation, input as never, facts),
      ),
    ];
    const roleId = logicalId(fleetRole);
    const denied: string[] = [];
    for (const request of new Map(requests.map((r) => [`${r.action} ${r.resource}`, r])).values()) {
      const decision = await evaluateIdentityRequest(t.arnOf(roleId), t.rolePolicies(roleId), request);
      if (!decision.allowed) denied.push(`${request.action} on ${request.resource}: ${decision.explanation}`);
    }

    // Assert
    expect(codes).toEqual([0, 0, 0]);
    expect(denied).toEqual([]);
    expect(fake.received('SendTaskSuccess').map((i) => i['taskToken'])).toEqual(['fleet-token']);
    expect(requests.map((r) => r.action)).toEqual(
      expect.arrayContaining(['dynamodb:Scan', 'states:SendTaskSuccess']),
    );
  });
});
