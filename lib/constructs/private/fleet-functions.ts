/**
 * The fleet's two Lambda functions, built like the one-job handlers' (`task-functions.ts`): both
 * call Nomad (its address, secrets and VPC placement): "Plan fleet" reads the jobs, and each writes
 * the fleet's record in the run history (issue #40); "Summarize fleet" reads and writes the plan
 * bucket; both the fleet's run-control item in the lock table.
 */
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ENV } from '../../stores/from-env';
import {
  FLEET_END_HANDLER_ID,
  FLEET_HANDLER_IDS,
  type FleetHandlerId,
} from '../../workflow/fleet-state-names';
import { TaskFunction } from './task-function';
import { grantNomadSecrets, type NomadConnectionProps, nomadEnvironment } from './task-functions';

/** What the fleet's functions need: where Nomad is, the plan bucket, and the log settings. */
export interface FleetFunctionsProps extends NomadConnectionProps {
  readonly planBucketName: string;
  /** Where the fleet's run-control item is kept (lib/steps/fleet/fleet-control-item.ts). */
  readonly lockTableName: string;
  readonly logRetention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * Each function's time: the plan lists a whole cluster's jobs and, for a node scope, pages
 * through their allocations (a fleet is sized for thousands of jobs, far more Nomad calls than
 * any one-job step's 2 minutes are for); the summary reads every result file of the Map Run once.
 */
const TIMEOUTS: Readonly<Record<FleetHandlerId, Duration>> = {
  'plan-fleet': Duration.minutes(5),
  'summarize-fleet': Duration.minutes(2),
};

/** Errors of a fleet step that make an alarm: the state machine retries transient ones, as for a job's steps. */
const STEP_ERRORS_ALARM = {
  threshold: 3,
  meaning: 'retried by the fleet state machine, so several at once: a fault its retries are not absorbing',
} as const;

/** Creates the fleet's functions under `scope` (construct ids `<handler>-fn`). */
export function createFleetFunctions(
  scope: Construct,
  props: FleetFunctionsProps,
): Record<FleetHandlerId, lambda.Function> {
  const out: Partial<Record<FleetHandlerId, lambda.Function>> = {};
  for (const handlerId of FLEET_HANDLER_IDS) {
    const fn = new TaskFunction(scope, `${handlerId}-fn`, {
      handlerId,
      timeout: TIMEOUTS[handlerId],
      environment: {
        ...nomadEnvironment(props),
        [ENV.planBucket]: props.planBucketName,
        [ENV.lockTable]: props.lockTableName,
      },
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
      errorsAlarm: STEP_ERRORS_ALARM,
      ...(props.vpc === undefined ? {} : { vpc: props.vpc }),
      ...(props.vpcSubnets === undefined ? {} : { vpcSubnets: props.vpcSubnets }),
      ...(props.securityGroups === undefined ? {} : { securityGroups: props.securityGroups }),
    });
    grantNomadSecrets(fn.role, props);
    out[handlerId] = fn.function;
  }
  return out as Record<FleetHandlerId, lambda.Function>;
}

/** The props that say where Nomad is and how to reach it, without the workflow's own. */
export function connectionOf(props: NomadConnectionProps): NomadConnectionProps {
  const { nomadAddress, nomadTokenSecret, nomadTlsSecret, nomadSecretsKey, vpc, vpcSubnets } = props;
  return {
    nomadAddress,
    ...(nomadTokenSecret === undefined ? {} : { nomadTokenSecret }),
    ...(nomadTlsSecret === undefined ? {} : { nomadTlsSecret }),
    ...(nomadSecretsKey === undefined ? {} : { nomadSecretsKey }),
    ...(vpc === undefined ? {} : { vpc }),
    ...(vpcSubnets === undefined ? {} : { vpcSubnets }),
  };
}

/**
 * The function that ends the record of a fleet execution that died before its summary
 * (`lambdas/end-fleet-record.ts`, EventBridge's target): Nomad only, no bucket or table. No
 * errors alarm of its own: an event it kept failing on lands in its rule's dead-letter queue,
 * whose alarm says so.
 */
export function createFleetEndFunction(
  scope: Construct,
  props: Omit<FleetFunctionsProps, 'planBucketName' | 'lockTableName'>,
): lambda.Function {
  const fn = new TaskFunction(scope, `${FLEET_END_HANDLER_ID}-fn`, {
    handlerId: FLEET_END_HANDLER_ID,
    // One read and one write of a variable, each retried on a conflict.
    timeout: Duration.minutes(1),
    environment: nomadEnvironment(props),
    logRetention: props.logRetention,
    removalPolicy: props.removalPolicy,
    ...(props.vpc === undefined ? {} : { vpc: props.vpc }),
    ...(props.vpcSubnets === undefined ? {} : { vpcSubnets: props.vpcSubnets }),
    ...(props.securityGroups === undefined ? {} : { securityGroups: props.securityGroups }),
  });
  grantNomadSecrets(fn.role, props);
  return fn.function;
}
