/**
 * One Lambda function per handler, each with only the environment it reads and, for those that
 * call Nomad, read access to the Nomad secrets (and their KMS key) and the VPC placement.
 */
import { Duration, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ENV } from '../../stores/from-env';
import { VARIABLES_LOCK_ENV } from '../../stores/shared-lock-settings';
import { HANDLER_IDS, type HandlerId, STALE_LOCK_HANDLER_ID } from '../../workflow/state-names';
import { NOMAD_STEP_TIMEOUT_SECONDS, STEP_TIMEOUT_SECONDS } from '../../workflow/step-timeouts';
import { grantDecryptThroughSecretsManager, grantGetSecretValue } from './secrets-key-grant';
import { TaskFunction } from './task-function';

/** Every function the workflow deploys, by handler id. */
export type WorkflowFunctionId = HandlerId | typeof STALE_LOCK_HANDLER_ID;

/** How the workflow takes the job's lock shared with every `nomad-restart` process. */
export interface SharedLockProps {
  /**
   * The job's lock shared with every `nomad-restart` process (a Nomad variable,
   * `nomad-restart/locks/<job>`, Nomad 1.7 or later): `on` takes it when the token may (its
   * policy needs `read` and `write` variables capabilities on `nomad-restart/locks/*`), else the
   * run warns and goes on with the DynamoDB lock alone; `required` fails such a run; `off` never
   * takes it (the DynamoDB lock keeps executions apart, not a terminal's run). @default 'on'
   */
  readonly variablesLock?: 'on' | 'required' | 'off';
}

/** Where the functions that call Nomad find it: its address, its secrets, and the network. */
export interface NomadConnectionProps {
  /** Address of the Nomad agent the Lambdas call, `http(s)://host:port`. */
  readonly nomadAddress: string;
  /**
   * Secret holding the Nomad ACL token (plain string, or JSON `{"token": "..."}`). Only the
   * functions that call Nomad can read it; the token never enters execution input or logs.
   * @default - no token: anonymous requests (Nomad without ACLs)
   */
  readonly nomadTokenSecret?: secretsmanager.ISecret;
  /**
   * Secret holding TLS material as JSON `{ caCert?, clientCert?, clientKey?, serverName? }` (PEMs).
   * @default - system CA roots, no client certificate
   */
  readonly nomadTlsSecret?: secretsmanager.ISecret;
  /**
   * Customer-managed KMS key that encrypts those secrets (and `consulTokenSecret`: the functions
   * that read Consul call Nomad too, so they hold this grant): the functions that read them may
   * `kms:Decrypt` with this key only, and only through Secrets Manager.
   * @default - the secrets use the AWS managed key, which needs no grant
   */
  readonly nomadSecretsKey?: kms.IKey;
  /**
   * Address of the Consul agent `waitHealthy` reads the allocations' Consul checks from
   * (`CONSUL_HTTP_ADDR` of the functions that read it: plan and the health wait), `host:port` or
   * `http(s)://host:port`. Read only for jobs that declare Consul services.
   * @default - Consul's default, 127.0.0.1:8500, which a Lambda function never reaches: a gated run
   * of a job with Consul services stops before its first batch, naming the address
   */
  readonly consulAddress?: string;
  /**
   * Secret holding the Consul ACL token (plain string, or JSON `{"token": "..."}`), which needs
   * `service:read` on the jobs' services and `node:read` on their nodes. Only the functions that read Consul can read it; it
   * never enters execution input or logs, and never goes to Nomad.
   * @default - no token: Consul's anonymous token
   */
  readonly consulTokenSecret?: secretsmanager.ISecret;
  /**
   * VPC to place the functions that call Nomad in (Nomad is usually private); the others, which
   * call AWS APIs and chat only, stay outside it. The functions inside need a route to S3,
   * DynamoDB, Secrets Manager and Step Functions: VPC endpoints or NAT (docs/deploying.md,
   * "Running in a VPC").
   * @default - not in a VPC
   */
  readonly vpc?: ec2.IVpc;
  /** Subnets within `vpc` (at most 16); refused without `vpc`. @default - the VPC's private subnets with egress */
  readonly vpcSubnets?: ec2.SubnetSelection;
  /**
   * Security groups for the functions in `vpc` (at most 5); refused without `vpc`.
   * @default - one security group created for all of them, all egress (`NomadRestartWorkflow.securityGroups`)
   */
  readonly securityGroups?: ec2.ISecurityGroup[];
}

/** What the functions need to know: where Nomad is, its secrets, the stores, and the limits. */
export interface TaskFunctionsProps extends SharedLockProps, NomadConnectionProps {
  readonly planBucketName: string;
  readonly lockTableName: string;
  readonly approvalsTableName: string;
  /** Timeout of the functions that run one await slice. */
  readonly batchSliceTimeout: Duration;
  readonly logRetention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/** The handlers that call Nomad: they get its address, secrets, VPC and the plan bucket. */
const CALLS_NOMAD: ReadonlySet<WorkflowFunctionId> = new Set([
  'plan',
  'check-deployments',
  'restart-batch',
  'trigger-evaluations',
  'await-batch',
  'await-health',
  'decide',
  'apply-answer',
  'finish',
  // They take, renew and release the job's shared lock, a Nomad variable.
  'lock-job',
  'release-lock',
  STALE_LOCK_HANDLER_ID,
]);
/** The handlers that read Consul's checks (`waitHealthy`): once before the first batch, then the health wait. */
const READS_CONSUL: ReadonlySet<WorkflowFunctionId> = new Set(['plan', 'await-health']);
/** The handlers that may run for a whole await slice (`batchSliceTimeout`). */
const RUNS_A_SLICE: ReadonlySet<WorkflowFunctionId> = new Set([
  'restart-batch',
  'await-batch',
  'await-health',
]);
const READS_LOCK: ReadonlySet<WorkflowFunctionId> = new Set([
  'lock-job',
  'resume-run',
  'ask',
  'await-batch',
  'await-health',
  'check-deployments',
  'decide',
  'release-lock',
  STALE_LOCK_HANDLER_ID,
]);
/** The handlers that take, renew or release the job's shared lock in Nomad. */
const HOLDS_SHARED_LOCK: ReadonlySet<WorkflowFunctionId> = new Set([
  'lock-job',
  'check-deployments',
  'await-batch',
  'await-health',
  'decide',
  'release-lock',
  STALE_LOCK_HANDLER_ID,
]);
/**
 * Errors of a step function that make an alarm. The state machine retries a transient error
 * (up to 6 retries, within about two minutes) and routes a named one (`JobNotFound`, `JobLocked`)
 * to a Fail state, which the executions-failed alarm reports; each counts once in `Errors`. Three
 * in 5 minutes is a fault that retries are not absorbing, or several runs failing at once.
 */
const STEP_ERRORS_ALARM = {
  threshold: 3,
  meaning:
    'retried or routed by the state machine, so several at once: a fault its retries are not absorbing',
} as const;

const READS_APPROVALS: ReadonlySet<WorkflowFunctionId> = new Set([
  'ask',
  'apply-answer',
  STALE_LOCK_HANDLER_ID,
]);

/** Creates every handler's function under `scope` (construct ids `<handler>-fn`). */
export function createTaskFunctions(
  scope: Construct,
  props: TaskFunctionsProps,
): Record<WorkflowFunctionId, lambda.Function> {
  const out: Partial<Record<WorkflowFunctionId, lambda.Function>> = {};
  for (const handlerId of [...HANDLER_IDS, STALE_LOCK_HANDLER_ID] as const) {
    const nomad = CALLS_NOMAD.has(handlerId);
    const environment: Record<string, string> = nomad ? nomadEnvironment(props) : {};
    if (nomad) environment[ENV.planBucket] = props.planBucketName;
    if (READS_LOCK.has(handlerId)) environment[ENV.lockTable] = props.lockTableName;
    if (READS_CONSUL.has(handlerId)) {
      if (props.consulAddress !== undefined) environment['CONSUL_HTTP_ADDR'] = props.consulAddress;
      if (props.consulTokenSecret !== undefined)
        environment[ENV.consulTokenSecretArn] = props.consulTokenSecret.secretArn;
    }
    if (HOLDS_SHARED_LOCK.has(handlerId)) {
      const mode = props.variablesLock ?? 'on';
      // The handlers read Go's booleans, and `required`.
      environment[VARIABLES_LOCK_ENV] = mode === 'off' ? 'false' : mode === 'on' ? 'true' : mode;
    }
    if (READS_APPROVALS.has(handlerId)) environment[ENV.approvalsTable] = props.approvalsTableName;
    const fn = new TaskFunction(scope, `${handlerId}-fn`, {
      handlerId,
      timeout: RUNS_A_SLICE.has(handlerId)
        ? props.batchSliceTimeout
        : Duration.seconds(nomad ? NOMAD_STEP_TIMEOUT_SECONDS : STEP_TIMEOUT_SECONDS),
      environment,
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
      // The stale-lock release runs outside the graph: its first error is news.
      ...(handlerId === STALE_LOCK_HANDLER_ID ? {} : { errorsAlarm: STEP_ERRORS_ALARM }),
      ...(nomad && props.vpc !== undefined ? { vpc: props.vpc } : {}),
      ...(nomad && props.vpcSubnets !== undefined ? { vpcSubnets: props.vpcSubnets } : {}),
      ...(nomad && props.securityGroups !== undefined ? { securityGroups: props.securityGroups } : {}),
    });
    if (nomad) grantNomadSecrets(fn.role, props);
    if (READS_CONSUL.has(handlerId) && props.consulTokenSecret !== undefined)
      grantGetSecretValue(fn.role, props.consulTokenSecret);
    out[handlerId] = fn.function;
  }
  return out as Record<WorkflowFunctionId, lambda.Function>;
}

/** What a function that calls Nomad reads to find it: its address and its secrets' ARNs. */
export function nomadEnvironment(props: NomadConnectionProps): Record<string, string> {
  // Nomad's own variable: the handlers' client resolves it as Nomad's CLI does.
  const environment: Record<string, string> = { NOMAD_ADDR: props.nomadAddress };
  if (props.nomadTokenSecret !== undefined)
    environment[ENV.nomadTokenSecretArn] = props.nomadTokenSecret.secretArn;
  if (props.nomadTlsSecret !== undefined) environment[ENV.nomadTlsSecretArn] = props.nomadTlsSecret.secretArn;
  return environment;
}

/** Lets a function that calls Nomad read its secrets (and decrypt them with their key). */
export function grantNomadSecrets(role: iam.IRole, props: NomadConnectionProps): void {
  if (props.nomadTokenSecret !== undefined) grantGetSecretValue(role, props.nomadTokenSecret);
  if (props.nomadTlsSecret !== undefined) grantGetSecretValue(role, props.nomadTlsSecret);
  if (props.nomadSecretsKey !== undefined)
    grantDecryptThroughSecretsManager(role, props.nomadSecretsKey, Stack.of(role).region);
}
