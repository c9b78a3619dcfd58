/**
 * The Lambda function behind a Task state: bundled handler, runtime, memory and timeout in one place.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** The repository root (where package-lock.json is), found from this file. */
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
}

/**
 * One handler as a Lambda function: bundled by the local esbuild (never Docker), Node.js 22 on
 * ARM64, X-Ray active, its own log group with retention, and its own role that starts with
 * nothing but writing to that log group; callers grant the rest.
 */
export class TaskFunction extends Construct {
  public readonly function: nodejs.NodejsFunction;
  public readonly role: iam.Role;

  public constructor(scope: Construct, id: string, props: TaskFunctionProps) {
    super(scope, id);
    const entry = join(PROJECT_ROOT, 'lambdas', `${props.handlerId}.ts`);
    if (!existsSync(entry)) {
      throw new Error(`Handler module not found: ${entry}`);
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
    this.function = new nodejs.NodejsFunction(this, 'Function', {
      entry,
      handler: 'handler',
      ...(props.reservedConcurrentExecutions === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 256,
      timeout: props.timeout,
      tracing: lambda.Tracing.ACTIVE,
      logGroup,
      role: this.role,
      environment: {
        ...props.environment,
        POWERTOOLS_SERVICE_NAME: 'nomad-restart',
        NODE_OPTIONS: '--enable-source-maps',
      },
      ...(props.vpc === undefined ? {} : { vpc: props.vpc }),
      ...(props.vpcSubnets === undefined ? {} : { vpcSubnets: props.vpcSubnets }),
      ...(props.securityGroups === undefined ? {} : { securityGroups: props.securityGroups }),
      bundling: {
        forceDockerBundling: false,
        format: nodejs.OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // The Node.js 22 runtime ships AWS SDK v3; bundling it again only grows the package.
        externalModules: ['@aws-sdk/*'],
        // Bundled CommonJS dependencies call require(); give the ESM bundle one.
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        mainFields: ['module', 'main'],
      },
    });
    // X-Ray's PutTraceSegments/PutTelemetryRecords have no resource-level permissions.
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::*]`,
      reason: 'X-Ray tracing (xray:PutTraceSegments, xray:PutTelemetryRecords) supports only Resource "*".',
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to nodejs22.x, the runtime the bundles are built for (esbuild target node22) and that @middy/core 7 requires; moving to nodejs24.x is a one-line change once tested there.',
    });
    if (props.vpc !== undefined) {
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole]`,
        reason: 'The AWS managed VPC access policy is what Lambda needs to attach ENIs in the given subnets.',
      });
    }
  }
}
