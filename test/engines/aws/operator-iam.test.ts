/**
 * Scenario: an operator's role gets exactly what `nomad-restart -engine=aws` and `attach` call,
 * per use (`NomadRestartWorkflow.grantOperate`), checked on the synthesized template; and when
 * AWS denies a call anyway, the command names the IAM action it needs, falling back where a
 * fallback exists: a denied approvals-table Query reads the question from the history, a denied
 * lock-table UpdateItem stops the execution instead. Without a fallback it ends with exit code 1
 * and says the run may go on and how to attach to it.
 */
import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { mockClient } from 'aws-sdk-client-mock';
import { NomadRestartWorkflow, type OperatorUse } from '../../../lib/constructs/nomad-restart-workflow';
import { type FakeAwsError, FakeStepFunctions, type SfnOperation } from './helpers/fake-step-functions';
import {
  answered,
  asking,
  batchRestarted,
  batchSettled,
  fakeTerminal,
  finishing,
  lines,
  planned,
  startAtTerminal,
} from './helpers/fixtures';
import { bindToSdkMock, sdkErrorOf } from './helpers/sdk-binding';

type Json = Record<string, unknown>;

describe('NomadRestartWorkflow.grantOperate', () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Operators', { env: { account: '123456789012', region: 'eu-west-1' } });
  const workflow = new NomadRestartWorkflow(stack, 'Restart', {
    nomadAddress: 'https://nomad.internal:4646',
  });
  const roles: Record<string, iam.Role> = {};
  const grantRole = (id: string, uses: OperatorUse[]) => {
    roles[id] = new iam.Role(stack, id, { assumedBy: new iam.AccountRootPrincipal() });
    workflow.grantOperate(roles[id], ...uses);
  };
  grantRole('Start', ['start']);
  grantRole('Answer', ['answer']);
  grantRole('Interrupt', ['interrupt']);
  grantRole('Attach', ['attach']);
  grantRole('Check', ['check']);
  grantRole('Control', ['control']);
  grantRole('Everything', []);
  const template = Template.fromStack(stack);
  const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as Parameters<Stack['getLogicalId']>[0]);
  const machine = logicalId(workflow.stateMachine);
  const approvals = logicalId(workflow.approvalsTable);
  const locks = logicalId(workflow.lockTable);

  /** Every (action, resource) the role's policies allow, resources as CloudFormation JSON. */
  function allowed(roleId: string): Map<string, string[]> {
    const role = roles[roleId];
    if (role === undefined) throw new Error(`no role ${roleId}`);
    const ref = logicalId(role);
    const result = new Map<string, string[]>();
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
      const props = (policy as { Properties: Json }).Properties;
      if (!JSON.stringify(props['Roles']).includes(`"${ref}"`)) continue;
      for (const statement of (props['PolicyDocument'] as { Statement: Json[] }).Statement) {
        const actions = [statement['Action']].flat() as string[];
        const resources = [statement['Resource']].flat().map((r) => JSON.stringify(r));
        for (const action of actions)
          result.set(action, [...(result.get(action) ?? []), ...resources].sort());
      }
    }
    return result;
  }
  const onMachine = (r: string) => r === `{"Ref":"${machine}"}`;
  const onExecutions = (r: string) => r.includes(':execution:') && r.endsWith(':*"]]}');
  const onTable = (table: string) => (r: string) => r.includes(`"${table}"`);
  const onTableItself = (table: string) => (r: string) => r === `{"Fn::GetAtt":["${table}","Arn"]}`;
  const onIndex = (table: string, index: string) => (r: string) =>
    r.includes(`"${table}"`) && r.endsWith(`"/index/${index}"]]}`);

  it.each<{ role: string; expected: Record<string, (r: string) => boolean> }>([
    {
      role: 'Start',
      expected: { 'states:StartExecution': onMachine, 'states:GetExecutionHistory': onExecutions },
    },
    {
      role: 'Answer',
      expected: {
        'states:SendTaskSuccess': onMachine,
        // An answer whose SendTaskSuccess reply was lost: did the execution take it?
        'states:DescribeExecution': onExecutions,
        'dynamodb:GetItem': onTableItself(approvals),
        'dynamodb:UpdateItem': onTableItself(approvals),
        'dynamodb:Query': (r) =>
          onIndex(approvals, 'execution-index')(r) || onIndex(approvals, 'pending-index')(r),
        'dynamodb:Scan': onIndex(approvals, 'pending-index'),
      },
    },
    {
      role: 'Interrupt',
      expected: {
        'states:StopExecution': onExecutions,
        'states:GetExecutionHistory': onExecutions,
        'dynamodb:UpdateItem': onTable(locks),
      },
    },
    { role: 'Attach', expected: { 'states:GetExecutionHistory': onExecutions } },
    {
      role: 'Check',
      expected: {
        'states:StartExecution': onMachine,
        'states:SendTaskSuccess': onMachine,
        'states:GetExecutionHistory': onExecutions,
        'states:StopExecution': onExecutions,
        // No resource-level permission reaches composite alarms.
        'cloudwatch:DescribeAlarms': (r) => r === '"*"',
      },
    },
    {
      role: 'Control',
      expected: {
        // A parked pause question answered as `approve` answers it.
        'states:SendTaskSuccess': onMachine,
        'states:DescribeExecution': onExecutions,
        'dynamodb:GetItem': (r) => onTableItself(approvals)(r) || onTable(locks)(r),
        'dynamodb:UpdateItem': (r) => onTableItself(approvals)(r) || onTable(locks)(r),
        'dynamodb:Query': (r) => onIndex(approvals, 'pending-index')(r) || onIndex(locks, 'owner-index')(r),
        // A fleet's parked jobs, among every pending question (its execution names no one-job machine).
        'dynamodb:Scan': onIndex(approvals, 'pending-index'),
        // The run read from the execution's input.
        'states:GetExecutionHistory': onExecutions,
      },
    },
  ])('gives the $role use exactly its actions, each on its resource', ({ role, expected }) => {
    // Act
    const granted = allowed(role);

    // Assert
    expect([...granted.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [action, resources] of granted) {
      expect({ action, resources: resources.filter((r) => !(expected[action]?.(r) ?? false)) }).toEqual({
        action,
        resources: [],
      });
    }
  });

  it('gives every use by default, and the queries reach only the approvals table’s two indexes and the lock table’s owner index', () => {
    // Act
    const granted = allowed('Everything');

    // Assert
    expect([...granted.keys()].sort()).toEqual([
      'cloudwatch:DescribeAlarms',
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:Scan',
      'dynamodb:UpdateItem',
      'states:DescribeExecution',
      'states:GetExecutionHistory',
      'states:SendTaskSuccess',
      'states:StartExecution',
      'states:StopExecution',
    ]);
    expect(granted.get('dynamodb:Query')?.filter((r) => r.includes('/index/'))).toHaveLength(3);
    expect(granted.get('dynamodb:Query')?.filter(onIndex(locks, 'owner-index'))).toHaveLength(1);
    expect(granted.get('dynamodb:Scan')?.every(onIndex(approvals, 'pending-index'))).toBe(true);
  });
});

const sfn = mockClient(SFNClient);
const ddb = mockClient(DynamoDBClient);
const documents = mockClient(DynamoDBDocumentClient);

const denied = (action: string): FakeAwsError => ({
  name: 'AccessDeniedException',
  message: `User: arn:aws:sts::123456789012:assumed-role/ops/me is not authorized to perform: ${action} on resource: arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart`,
});
const denySfn = (fake: FakeStepFunctions, operation: SfnOperation) => {
  fake.faults.push((call) => (call.operation === operation ? denied(`states:${operation}`) : undefined));
};

/** A run that parks one question after its first batch, and ends once it is answered. */
function runThatAsks() {
  const fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  fake.onStart = (execution) =>
    fake.append(execution.arn, [
      ...planned(),
      ...batchRestarted(1),
      ...batchSettled(1),
      ...asking('token-h'),
    ]);
  fake.onAnswer = () => {
    const [arn] = fake.executions.keys();
    if (arn !== undefined) fake.append(arn, [...answered(), ...finishing(true)]);
  };
  return fake;
}

describe('AccessDenied at the terminal', () => {
  afterEach(() => {
    sfn.reset();
    ddb.reset();
    documents.reset();
  });

  it.each<{ operation: SfnOperation; what: string }>([
    { operation: 'GetExecutionHistory', what: 'reading the history of execution' },
    { operation: 'SendTaskSuccess', what: 'answering the question of execution' },
  ])('names states:$operation and ends with exit code 1 when it is denied', async ({ operation, what }) => {
    // Arrange
    const fake = runThatAsks();
    denySfn(fake, operation);
    const tty = fakeTerminal();

    // Act
    const result = startAtTerminal(tty);
    if (operation === 'SendTaskSuccess') {
      await tty.waitFor(lines.proceedQuestion);
      tty.type('n');
    }
    const { exitCode, status } = await result;

    // Assert
    const [arn] = fake.executions.keys();
    expect(tty.stderr().split('\n')).toEqual([
      `Error ${what} "${arn}": AccessDeniedException: ${denied(`states:${operation}`).message}; this needs the IAM action states:${operation}`,
      `Execution "${arn}" may still be running in AWS Step Functions; follow it again with: nomad-restart attach ${arn}`,
      '',
    ]);
    expect({ exitCode, status }).toEqual({ exitCode: 1, status: 'UNKNOWN' });
  });

  it('names states:StopExecution when a confirmed interrupt cannot stop the execution', async () => {
    // Arrange
    const fake = runThatAsks();
    fake.onStart = (execution) => fake.append(execution.arn, [...planned(), ...batchRestarted(1)]);
    denySfn(fake, 'StopExecution');
    const tty = fakeTerminal();
    const result = startAtTerminal(tty);
    await tty.waitFor(lines.rescheduling(1));

    // Act
    tty.interrupt();
    await tty.waitFor(lines.stopQuestion);
    tty.type('y');
    const { exitCode } = await result;

    // Assert
    expect(tty.stderr()).toContain('; this needs the IAM action states:StopExecution\n');
    expect(tty.stderr()).toContain('may still be running in AWS Step Functions');
    expect(exitCode).toBe(1);
  });

  it('answers with the token from the history when the approvals table may not be queried', async () => {
    // Arrange
    const fake = runThatAsks();
    documents.on(QueryCommand).rejects(sdkErrorOf(denied('dynamodb:Query')));
    const tty = fakeTerminal();

    // Act
    const result = startAtTerminal(tty, { approvalsTable: 'approvals' });
    await tty.waitFor(lines.proceedQuestion);
    tty.type('n');
    const { exitCode } = await result;

    // Assert
    expect(tty.stderr()).toContain(
      'AccessDeniedException: User: arn:aws:sts::123456789012:assumed-role/ops/me is not authorized to perform: dynamodb:Query',
    );
    expect(tty.stderr()).toContain(
      '; this needs the IAM action dynamodb:Query; answering with the task token from the execution history instead (chat does not learn who answered)\n',
    );
    expect(fake.received('SendTaskSuccess').map((i) => i['taskToken'])).toEqual(['token-h']);
    expect(documents.commandCalls(QueryCommand)).toHaveLength(1);
    expect(exitCode).toBe(0);
  });

  it('stops the execution when the lock table may not be updated, and says so', async () => {
    // Arrange
    const fake = runThatAsks();
    fake.onStart = (execution) => fake.append(execution.arn, [...planned(), ...batchRestarted(1)]);
    ddb.on(UpdateItemCommand).rejects(sdkErrorOf(denied('dynamodb:UpdateItem')));
    const tty = fakeTerminal();
    const result = startAtTerminal(tty, { lockTable: 'locks' });
    await tty.waitFor(lines.rescheduling(1));

    // Act
    tty.interrupt();
    await tty.waitFor(lines.stopQuestion);
    tty.type('y');
    const { exitCode, status } = await result;

    // Assert
    const [arn] = fake.executions.keys();
    expect(tty.stderr()).toContain(
      `; this needs the IAM action dynamodb:UpdateItem; stopping execution "${arn}" at once instead\n`,
    );
    expect(fake.received('StopExecution')).toHaveLength(1);
    expect({ exitCode, status }).toEqual({ exitCode: 0, status: 'ABORTED' });
  });
});
