/**
 * The `NomadRestartFleet` construct: the fleet state machine beside a workflow's one-job one,
 * restarting many jobs in one run (plan, a Distributed Map of one-job child executions, summary),
 * with its two functions, its log group, its alarms and the grants between them.
 */
import { ArnFormat, type CfnElement, Stack, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct, type IConstruct } from 'constructs';
import { fleetDefinition } from '../workflow/fleet-definition';
import { FLEET_HANDLER_IDS, type FleetHandlerId } from '../workflow/fleet-state-names';
import type { NomadRestartWorkflow } from './nomad-restart-workflow';
import { notifyAlarmsTo } from './private/alarm-actions';
import type { DeadLetterQueue } from './private/dead-letter-queue';
import { executionEndRule } from './private/execution-end-rule';
import { createFleetEndFunction, createFleetFunctions } from './private/fleet-functions';
import { grantFleetHandlerAccess } from './private/fleet-grants';
import {
  FLEET_OPERATOR_USES,
  type FleetOperatorUse,
  grantFleetOperator,
} from './private/fleet-operator-grants';
import { stateMachineLogGroup } from './private/state-machine-log-group';
import { type ExecutionAlarms, executionAlarms } from './private/workflow-alarms';

export type { FleetOperatorUse } from './private/fleet-operator-grants';

/** Props of {@link NomadRestartFleet}. */
export interface NomadRestartFleetProps {
  /**
   * The workflow whose one-job state machine restarts each job: the fleet shares its Nomad
   * connection (address, secrets, VPC placement), its plan bucket, its log settings and its alarm
   * topic.
   */
  readonly workflow: NomadRestartWorkflow;
}

/**
 * Fleet restarts: many jobs in one durable run. "Plan fleet" selects the jobs with Nomad's own
 * selectors and writes their list to the plan bucket (`fleets/<run>/`); a Distributed Map starts
 * the workflow's one-job state machine for each (`states:startExecution.sync:2`), at most
 * `maxJobs` at once, stopping after `maxFailedJobs` failed; "Summarize fleet" writes the report
 * and ends the run. Start it with the fleet input (docs/console.md, "Fleets").
 */
export class NomadRestartFleet extends Construct {
  /** The fleet's Standard state machine. */
  public readonly stateMachine: sfn.StateMachine;
  /** "Plan fleet" and "Summarize fleet". */
  public readonly functions: Readonly<Record<FleetHandlerId, lambda.IFunction>>;
  /** In ALARM for 5 minutes after a fleet execution failed, timed out or was aborted. */
  public readonly executionAlarms: ExecutionAlarms;
  /**
   * The ends of fleet executions that failed, timed out or were aborted whose record in the run
   * history could not be ended (`end-fleet-record` kept failing), with an alarm.
   */
  public readonly recordEndDeadLetters: DeadLetterQueue;
  private readonly workflow: NomadRestartWorkflow;

  public constructor(scope: Construct, id: string, props: NomadRestartFleetProps) {
    super(scope, id);
    const { workflow } = props;
    this.workflow = workflow;
    const settings = workflow.fleetSettings;
    const fns = createFleetFunctions(this, {
      ...settings,
      planBucketName: workflow.planBucket.bucketName,
      lockTableName: workflow.lockTable.tableName,
    });
    this.functions = fns;
    grantFleetHandlerAccess(this, {
      functions: fns,
      planBucket: workflow.planBucket,
      lockTable: workflow.lockTable,
    });

    const stateMachineName = `${Stack.of(this).stackName}-${id}`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 80);
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      stateMachineName,
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromChainable(
        fleetDefinition(this, {
          functions: fns,
          restartStateMachine: workflow.stateMachine,
          planBucket: workflow.planBucket,
        }),
      ),
      tracingEnabled: true,
      // Execution data stays out of the logs, as for the one-job state machine.
      logs: {
        destination: stateMachineLogGroup(this, 'StateMachineLogs', stateMachineName, settings),
        level: sfn.LogLevel.ALL,
        includeExecutionData: false,
      },
      comment: 'nomad-restart fleet: many jobs in one run, each by the one-job state machine',
    });
    this.grantMapRunItems(stateMachineName);
    // A fleet that dies before "Summarize fleet" leaves its provisional record: this ends it.
    this.recordEndDeadLetters = executionEndRule(this, 'EndFleetRecord', {
      description:
        'Ends the run-history record of a nomad-restart fleet execution that failed, timed out or was aborted',
      stateMachines: [this.stateMachine],
      statuses: ['FAILED', 'TIMED_OUT', 'ABORTED'],
      target: createFleetEndFunction(this, settings),
      undelivered: 'Ends of fleet executions whose record in the run history still says running',
    }).deadLetterQueue;
    this.acknowledgeWildcards(fns, stateMachineName, workflow);
    this.executionAlarms = executionAlarms(this, this.stateMachine, 'fleet');
    if (settings.alarmTopic !== undefined) notifyAlarmsTo(this, settings.alarmTopic);
  }

  /**
   * Lets `grantee` start, follow, stop, attach to and steer fleet runs (`nomad-restart fleet
   * -engine=aws`, `attach`, `pause|resume|stop`): exactly the actions of the given uses
   * (docs/operating-on-aws.md), all four by default, on the fleet state machine, its executions and Map Runs, and the
   * reading of its jobs' executions the workflow's `attach` use grants.
   */
  public grantOperate(grantee: iam.IGrantable, ...uses: FleetOperatorUse[]): iam.Grant {
    return grantFleetOperator(
      { stateMachine: this.stateMachine, workflow: this.workflow },
      grantee,
      uses.length > 0 ? uses : FLEET_OPERATOR_USES,
    );
  }

  /**
   * The Map Run's item executions, named `<fleet state machine>/<map run label>:<id>`, which
   * CDK's Distributed Map grant (`<name>:*`) does not name: Step Functions describes and stops
   * them for the Map Run (a tolerance exceeded, the fleet stopped)
   * (https://docs.aws.amazon.com/step-functions/latest/dg/iam-policies-eg-dist-map.html).
   */
  private grantMapRunItems(name: string): void {
    // The name as given, not the state machine's attribute: the role's policy may not depend on
    // the state machine that depends on it.
    const stack = Stack.of(this);
    this.stateMachine.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['states:DescribeExecution', 'states:StopExecution'],
        resources: [
          stack.formatArn({
            service: 'states',
            resource: 'execution',
            resourceName: `${name}/*`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
  }

  /** The wildcards the grants make and AWS's resource model cannot avoid, each with its reason. */
  private acknowledgeWildcards(
    fns: Readonly<Record<FleetHandlerId, lambda.Function>>,
    stateMachineName: string,
    workflow: NomadRestartWorkflow,
  ): void {
    const stack = Stack.of(this);
    const idOf = (c: IConstruct) => stack.getLogicalId(c.node.defaultChild as CfnElement);
    // cdk-nag names an unresolved region or account by its pseudo parameter, and a state machine's
    // name taken from its ARN by the intrinsic that takes it.
    const named = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    const executions = `arn:<AWS::Partition>:states:${named(stack.region, 'AWS::Region')}:${named(stack.account, 'AWS::AccountId')}:execution:`;
    const nameOf = (machine: sfn.StateMachine) =>
      JSON.stringify({ 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: idOf(machine) }] }] });
    const findings: Record<string, string> = {
      'AwsSolutions-IAM5[Resource::*]':
        'CloudWatch Logs delivery (logs:CreateLogDelivery etc.) and X-Ray accept only Resource "*" for a state machine.',
      [`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::<${idOf(workflow.planBucket)}>/fleets/*]`]:
        "The item list and the Map Run's results are per-run objects under fleets/<run>/; the keys are not known when deploying.",
      [`AwsSolutions-IAM5[Resource::${executions}${nameOf(workflow.stateMachine)}*]`]:
        "A job's execution is named when the fleet plans it; `.sync` describes and stops it (CDK's grant for states:startExecution.sync).",
      [`AwsSolutions-IAM5[Resource::${executions}${nameOf(workflow.stateMachine)}:*]`]:
        'A job that continued as new goes on in an execution its own run names; the item reads its status (DescribeExecution) until the chain ends.',
      [`AwsSolutions-IAM5[Resource::${executions}${nameOf(this.stateMachine)}:*]`]:
        "The Distributed Map describes and stops this state machine's executions (CDK's grant for a Distributed Map).",
      [`AwsSolutions-IAM5[Resource::${executions}${nameOf(this.stateMachine)}/*:*]`]:
        "A Map Run's item executions may be redriven; their Map Run labels are made at run time (CDK's grant for a Distributed Map).",
      [`AwsSolutions-IAM5[Resource::${executions}${stateMachineName}/*]`]:
        "A Map Run's item executions are named at run time (<state machine>/<map run label>:<id>).",
    };
    for (const h of FLEET_HANDLER_IDS) {
      findings[`AwsSolutions-IAM5[Resource::<${idOf(fns[h])}.Arn>:*]`] =
        'Invoking a Lambda task may target any version or alias of that one function (the ":*" suffix CDK grants).';
    }
    for (const [id, reason] of Object.entries(findings))
      Validations.of(this.stateMachine).acknowledge({ id, reason });
  }
}
