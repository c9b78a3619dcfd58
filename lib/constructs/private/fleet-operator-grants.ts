/**
 * What an operator's identity needs to run `nomad-restart fleet -engine=aws` and `attach` a fleet
 * run, per use: the fleet state machine's own actions, and reading its jobs' one-job executions
 * (the lines a fleet prints are its jobs').
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { NomadRestartWorkflow } from '../nomad-restart-workflow';

/**
 * What an operator does with a fleet from a terminal:
 * - `start`: start a fleet run and follow it (`nomad-restart fleet -engine=aws`);
 * - `interrupt`: stop it (its Map Run stops the jobs' executions, whose locks the stale-lock rule
 *   releases);
 * - `attach`: follow any fleet run again (`nomad-restart attach <fleet execution arn>`);
 * - `control`: pause, resume or stop a fleet run (`nomad-restart pause|resume|stop <fleet execution
 *   arn>`, docs/run-control.md): its start input read, then the workflow's `control` use (the
 *   request on the fleet's item of the lock table, its parked jobs' questions answered).
 */
export type FleetOperatorUse = 'start' | 'interrupt' | 'attach' | 'control';

/** Every use, in the order docs/operating-on-aws.md lists them. */
export const FLEET_OPERATOR_USES: readonly FleetOperatorUse[] = ['start', 'interrupt', 'attach', 'control'];

/** The IAM actions of one use on the fleet state machine and on its executions. */
export const FLEET_OPERATOR_ACTIONS: Readonly<
  Record<
    FleetOperatorUse,
    { readonly stateMachine: readonly string[]; readonly executions: readonly string[] }
  >
> = {
  start: { stateMachine: ['states:StartExecution'], executions: ['states:GetExecutionHistory'] },
  interrupt: { stateMachine: [], executions: ['states:StopExecution'] },
  attach: { stateMachine: [], executions: ['states:GetExecutionHistory'] },
  // The oldest history event: the start input that says the execution is a fleet's.
  control: { stateMachine: [], executions: ['states:GetExecutionHistory'] },
};

/**
 * Grants `grantee` the actions of `uses`; following a run (`start`, `attach`) also reads its jobs'
 * executions, steering it (`control`) also answers its jobs' pause questions.
 */
export function grantFleetOperator(
  r: { readonly stateMachine: sfn.StateMachine; readonly workflow: NomadRestartWorkflow },
  grantee: iam.IGrantable,
  uses: readonly FleetOperatorUse[],
): iam.Grant {
  const of = (key: 'stateMachine' | 'executions') => [
    ...new Set(uses.flatMap((u) => FLEET_OPERATOR_ACTIONS[u][key])),
  ];
  const grants: iam.Grant[] = [];
  const machine = of('stateMachine');
  if (machine.length > 0) grants.push(r.stateMachine.grant(grantee, ...machine));
  const executions = of('executions');
  if (executions.length > 0) grants.push(r.stateMachine.grantExecution(grantee, ...executions));
  if (uses.includes('start') || uses.includes('attach')) {
    grants.push(r.workflow.grantOperate(grantee, 'attach'), grantMapRunReads(r.stateMachine, grantee));
  }
  if (uses.includes('control')) grants.push(r.workflow.grantOperate(grantee, 'control'));
  return grants.reduce((all, grant) => all.combine(grant));
}

/**
 * Following a fleet finds each job through its Distributed Map: `ListExecutions` of the map run
 * (its resource is the map run, `mapRun:<state machine>/<label>:<id>`) and the history of each item
 * execution (`execution:<state machine>/<label>:<id>`), neither of which `grantExecution`'s
 * `execution:<state machine>:*` covers
 * (https://docs.aws.amazon.com/step-functions/latest/dg/iam-policies-eg-dist-map.html).
 */
function grantMapRunReads(stateMachine: sfn.StateMachine, grantee: iam.IGrantable): iam.Grant {
  const arn = (resource: string) =>
    Stack.of(stateMachine).formatArn({
      service: 'states',
      resource,
      resourceName: `${stateMachine.stateMachineName}/*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  return iam.Grant.addToPrincipal({
    grantee,
    actions: ['states:ListExecutions'],
    resourceArns: [arn('mapRun')],
  }).combine(
    iam.Grant.addToPrincipal({
      grantee,
      actions: ['states:GetExecutionHistory'],
      resourceArns: [arn('execution')],
    }),
  );
}
