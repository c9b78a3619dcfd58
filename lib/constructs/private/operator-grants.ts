/**
 * What an operator's identity needs to run `nomad-restart -engine=aws`, `attach` and `check`
 * against the workflow, per use, and nothing more: the permissions table of docs/operating-on-aws.md is this
 * one.
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { APPROVALS_TABLE_SCHEMA } from '../../stores/dynamodb-approval-store';
import { LOCK_TABLE_SCHEMA } from '../../stores/dynamodb-job-lock';

/**
 * What an operator does from a terminal:
 * - `start`: start a restart and follow it (`-engine=aws`);
 * - `answer`: answer its questions at the terminal (`-batch-wait ask`, `-on-error ask`), list them
 *   and answer them by id (`questions`, `approve`, `deny`);
 * - `interrupt`: Ctrl-C, confirmed: a cancel at the next safe point through the lock table, or a
 *   stop of the execution and of its continue-as-new successors;
 * - `attach`: follow any run again (`nomad-restart attach <execution-arn>`);
 * - `check`: check the deployment once (`nomad-restart check`, docs/deploying.md): start a
 *   deployment check execution, answer its question, stop it if it cannot end, read the alarms;
 * - `control`: pause, resume or stop a run at its next safe point (`nomad-restart pause|resume|stop
 *   <execution ARN>`, docs/run-control.md): the run read from the execution's input, the job it
 *   holds from the lock table's owner index, the request recorded on that lock item, and a run
 *   parked on its pause question answered as `approve` answers; for a fleet's execution, the
 *   request recorded on the fleet's item and each of its parked jobs answered.
 */
export type OperatorUse = 'start' | 'answer' | 'interrupt' | 'attach' | 'check' | 'control';

/** Every use, in the order docs/operating-on-aws.md lists them. */
export const OPERATOR_USES: readonly OperatorUse[] = [
  'start',
  'answer',
  'interrupt',
  'attach',
  'check',
  'control',
];

/** The actions of one use, by the resource they apply to. */
export interface OperatorActions {
  /** On the state machine. */
  readonly stateMachine: readonly string[];
  /** On the state machine's executions (every link of a continue-as-new chain is one). */
  readonly executions: readonly string[];
  /** On the approvals table's items (with `NOMAD_RESTART_APPROVALS_TABLE`). */
  readonly approvalsTable: readonly string[];
  /** On the approvals table's indexes, by index name. */
  readonly approvalsIndexes: Readonly<Record<string, readonly string[]>>;
  /** On the lock table (with `NOMAD_RESTART_LOCK_TABLE`). */
  readonly lockTable: readonly string[];
  /** On the lock table's indexes, by index name. */
  readonly lockIndexes: Readonly<Record<string, readonly string[]>>;
  /** Actions that take no resource narrower than `*`. */
  readonly anyResource: readonly string[];
}

const none: readonly string[] = [];

/** The IAM actions each use calls. */
export const OPERATOR_ACTIONS: Readonly<Record<OperatorUse, OperatorActions>> = {
  start: {
    stateMachine: ['states:StartExecution'],
    executions: ['states:GetExecutionHistory'],
    approvalsTable: none,
    approvalsIndexes: {},
    lockTable: none,
    lockIndexes: {},
    anyResource: none,
  },
  answer: {
    stateMachine: ['states:SendTaskSuccess'],
    // An answer whose SendTaskSuccess response was lost: did the execution take it?
    executions: ['states:DescribeExecution'],
    // The one decision: the question read, then a conditional write records who answered what.
    approvalsTable: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
    approvalsIndexes: {
      // A terminal following a run finds its question by execution.
      [APPROVALS_TABLE_SCHEMA.executionIndex]: ['dynamodb:Query'],
      // `questions`: the pending ones, of one state machine (Query) or all (Scan); no task token.
      [APPROVALS_TABLE_SCHEMA.pendingIndex]: ['dynamodb:Query', 'dynamodb:Scan'],
    },
    lockTable: none,
    lockIndexes: {},
    anyResource: none,
  },
  interrupt: {
    stateMachine: none,
    // The history tells whether a stopped hand-over started a successor, which is stopped too.
    executions: ['states:StopExecution', 'states:GetExecutionHistory'],
    approvalsTable: none,
    approvalsIndexes: {},
    lockTable: ['dynamodb:UpdateItem'],
    lockIndexes: {},
    anyResource: none,
  },
  attach: {
    stateMachine: none,
    // The oldest history event carries the input: no DescribeExecution is needed.
    executions: ['states:GetExecutionHistory'],
    approvalsTable: none,
    approvalsIndexes: {},
    lockTable: none,
    lockIndexes: {},
    anyResource: none,
  },
  check: {
    // The check execution started, and its question answered as `approve` answers.
    stateMachine: ['states:StartExecution', 'states:SendTaskSuccess'],
    // Its history read for the question and the read step's report; stopped when it cannot end.
    executions: ['states:GetExecutionHistory', 'states:StopExecution'],
    approvalsTable: none,
    approvalsIndexes: {},
    lockTable: none,
    lockIndexes: {},
    // Composite alarms are listed only to a DescribeAlarms scoped to "*"
    // (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_DescribeAlarms.html).
    anyResource: ['cloudwatch:DescribeAlarms'],
  },
  control: {
    // A parked pause question answered (resume: yes, stop: no).
    stateMachine: ['states:SendTaskSuccess'],
    // The run read from the execution's input (its oldest history event); DescribeExecution for an
    // answer whose SendTaskSuccess reply was lost.
    executions: ['states:GetExecutionHistory', 'states:DescribeExecution'],
    // The parked question read, then its one decision written.
    approvalsTable: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
    // The run's parked pause question, among the state machine's pending ones (Query); a fleet's
    // parked jobs among all pending ones (Scan): a fleet's execution does not name their state machine.
    approvalsIndexes: { [APPROVALS_TABLE_SCHEMA.pendingIndex]: ['dynamodb:Query', 'dynamodb:Scan'] },
    // The request recorded on (or, for an unreached pause, taken back from) the run's lock item;
    // a resume reads it first.
    lockTable: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
    // Which job the run holds.
    lockIndexes: { [LOCK_TABLE_SCHEMA.ownerIndex]: ['dynamodb:Query'] },
    anyResource: none,
  },
};

/** What the grants apply to. */
export interface OperatorResources {
  readonly stateMachine: sfn.StateMachine;
  readonly approvalsTable: dynamodb.Table;
  readonly lockTable: dynamodb.Table;
}

const unique = (lists: readonly (readonly string[])[]) => [...new Set(lists.flat())];

/** Grants `grantee` exactly the actions of `uses`. */
export function grantOperator(
  resources: OperatorResources,
  grantee: iam.IGrantable,
  uses: readonly OperatorUse[],
): iam.Grant {
  const of = (key: Exclude<keyof OperatorActions, 'approvalsIndexes' | 'lockIndexes'>) =>
    unique(uses.map((use) => OPERATOR_ACTIONS[use][key]));
  const grants: iam.Grant[] = [];
  const stateMachineActions = of('stateMachine');
  if (stateMachineActions.length > 0)
    grants.push(resources.stateMachine.grant(grantee, ...stateMachineActions));
  const executionActions = of('executions');
  if (executionActions.length > 0)
    grants.push(resources.stateMachine.grantExecution(grantee, ...executionActions));
  const { tableArn } = resources.approvalsTable;
  // The table's own ARN, and each index's: Table.grant() would add every index to every action.
  const approvalsActions = of('approvalsTable');
  if (approvalsActions.length > 0)
    grants.push(iam.Grant.addToPrincipal({ grantee, actions: approvalsActions, resourceArns: [tableArn] }));
  grants.push(...indexGrants(grantee, uses, 'approvalsIndexes', tableArn));
  const lockActions = of('lockTable');
  if (lockActions.length > 0) grants.push(resources.lockTable.grant(grantee, ...lockActions));
  grants.push(...indexGrants(grantee, uses, 'lockIndexes', resources.lockTable.tableArn));
  const anyActions = of('anyResource');
  if (anyActions.length > 0)
    grants.push(iam.Grant.addToPrincipal({ grantee, actions: anyActions, resourceArns: ['*'] }));
  return grants.reduce((all, grant) => all.combine(grant));
}

/** One grant per index the uses query, on that index alone. */
function indexGrants(
  grantee: iam.IGrantable,
  uses: readonly OperatorUse[],
  field: 'approvalsIndexes' | 'lockIndexes',
  tableArn: string,
): iam.Grant[] {
  const indexes = unique(uses.map((use) => Object.keys(OPERATOR_ACTIONS[use][field])));
  return indexes.map((index) => {
    const actions = unique(uses.map((use) => OPERATOR_ACTIONS[use][field][index] ?? none));
    return iam.Grant.addToPrincipal({ grantee, actions, resourceArns: [`${tableArn}/index/${index}`] });
  });
}
