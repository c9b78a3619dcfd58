/**
 * The Lambda function behind a Task state: bundled handler, runtime, memory and timeout in one place.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { HANDLER_BUNDLE, HANDLER_BUNDLE_FILE, HANDLER_BUNDLE_HANDLER } from './handler-bundle';
import { metricsEnvironment } from './run-metrics';

/** The repository root, or the installed package's, found from this file. */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Options of one handler's Lambda function. */
export interface TaskFunctionProps {
  /** Handler module under `lambdas/`, without `.ts`. */
  readonly handlerId: string;
  readonly timeout: Duration;
  readonly environment: Readonly<Record<string, string>>;
  readonly logRetention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
  readonly vpc?: ec2.IVpc;
  readonly vpcSubnets?: ec2.SubnetSelection;
  readonly securityGroups?: ec2.ISecurityGroup[];
  /** Concurrent executions reserved for (and capping) the function. @default - none: the account's unreserved pool */
  readonly reservedConcurrentExecutions?: number;
  /**
   * Errors within 5 minutes that put {@link TaskFunction.errorsAlarm} in ALARM, and what they
   * mean to whoever reads it. @default - 1: any error
   */
  readonly errorsAlarm?: { readonly threshold: number; readonly meaning: string };
}

/** Where `npm run build` puts a handler's bundle (`<dir>/index.mjs`) for the package. */
export function prebuiltHandlerDir(projectRoot: string, handlerId: string): string {
  return join(projectRoot, 'dist', 'lambdas', handlerId);
}

/**
 * One handler as a Lambda function: Node.js 22 on ARM64, X-Ray active, its own log group with
 * retention, and its own role that starts with nothing but writing to that log group; callers
 * grant the rest. In this repository the handler is bundled from `lambdas/<id>.ts` by the local
 * esbuild (never Docker), so a deploy always carries the sources as they are; the installed
 * package ships no sources, only the bundles `npm run build` made with the same options.
 */
export class TaskFunction extends Construct {
  public readonly function: lambda.Function;
  public readonly role: iam.Role;
  /** In ALARM when the function reports errors (its `Errors` metric) past the threshold. */
  public readonly errorsAlarm: cloudwatch.Alarm;

  public constructor(scope: Construct, id: string, props: TaskFunctionProps) {
    super(scope, id);
    const entry = join(PROJECT_ROOT, 'lambdas', `${props.handlerId}.ts`);
    const prebuilt = prebuiltHandlerDir(PROJECT_ROOT, props.handlerId);
    const fromSource = existsSync(entry);
    if (!fromSource && !existsSync(join(prebuilt, HANDLER_BUNDLE_FILE))) {
      throw new Error(
        `Handler module not found: neither ${entry} nor ${join(prebuilt, HANDLER_BUNDLE_FILE)}`,
      );
    }
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `nomad-restart ${props.handlerId} handler`,
    });
    // Only its own log group: no AWSLambdaBasicExecutionRole (logs:* on every group).
    logGroup.grantWrite(this.role);
    const functionProps = {
      ...(props.reservedConcurrentExecutions === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 256,
      timeout: props.timeout,
      tracing: lambda.Tracing.ACTIVE,
      logGroup,
      // JSON lines, the runtime's own (START, REPORT, an uncaught error) included, so Logs Insights
      // filters them by field (https://docs.aws.amazon.com/lambda/latest/dg/nodejs-logging.html).
      // Powertools' Logger writes its JSON through a Console of its own on process.stdout
      // (Logger.setConsole in @aws-lambda-powertools/logger), not the console the runtime wraps,
      // so its lines are not wrapped a second time. INFO for both: the handlers log at INFO and
      // above, and the platform's REPORT line (duration, memory) is INFO.
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
      systemLogLevelV2: lambda.SystemLogLevel.INFO,
      role: this.role,
      environment: {
        ...props.environment,
        // Every function, so whichever emits the run's metrics names this deployment (docs/metrics.md).
        ...metricsEnvironment(this),
        NODE_OPTIONS: '--enable-source-maps',
      },
      ...(props.vpc === undefined ? {} : { vpc: props.vpc }),
      ...(props.vpcSubnets === undefined ? {} : { vpcSubnets: props.vpcSubnets }),
      ...(props.securityGroups === undefined ? {} : { securityGroups: props.securityGroups }),
    } satisfies Partial<lambda.FunctionProps>;
    this.function = fromSource
      ? new nodejs.NodejsFunction(this, 'Function', {
          ...functionProps,
          entry,
          handler: 'handler',
          projectRoot: PROJECT_ROOT,
          depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
          bundling: {
            ...HANDLER_BUNDLE,
            externalModules: [...HANDLER_BUNDLE.externalModules],
            mainFields: [...HANDLER_BUNDLE.mainFields],
            format: nodejs.OutputFormat.ESM,
            forceDockerBundling: false,
          },
        })
      : new lambda.Function(this, 'Function', {
          ...functionProps,
          code: lambda.Code.fromAsset(prebuilt),
          handler: HANDLER_BUNDLE_HANDLER,
        });
    const errors = props.errorsAlarm ?? { threshold: 1, meaning: 'it threw, timed out or crashed' };
    this.errorsAlarm = new cloudwatch.Alarm(this, 'Errors', {
      alarmDescription: `nomad-restart ${props.handlerId}: ${errors.threshold} or more errors in 5 minutes (${errors.meaning}). Its log group has each error with its stack trace.`,
      metric: this.function.metricErrors({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
      threshold: errors.threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    // X-Ray's PutTraceSegments/PutTelemetryRecords have no resource-level permissions, and the
    // alarm readers' DescribeAlarms (handler-grants.ts) answers composite alarms only on "*".
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::*]`,
      reason:
        'X-Ray tracing (xray:PutTraceSegments, xray:PutTelemetryRecords) supports only Resource "*"; so does cloudwatch:DescribeAlarms for composite alarms (the -stop-on-alarm readers), whose names come with each run.',
    });
    if (props.vpc !== undefined) {
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole]`,
        reason: 'The AWS managed VPC access policy is what Lambda needs to attach ENIs in the given subnets.',
      });
    }
  }
}
