/**
 * The one map from an AWS SDK call to what IAM authorizes: the action, the resource ARN and the
 * condition keys the request carries, for every operation the handlers use, as AWS's Service
 * Authorization Reference lists them:
 * - Amazon S3: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3.html
 *   (ListObjectsV2 is authorized as `s3:ListBucket` on the bucket, with `s3:prefix`; tagging an
 *   object is `s3:PutObjectTagging` on the object)
 * - Amazon DynamoDB: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html
 *   (a Query or Scan with `IndexName` is authorized on `table/<t>/index/<i>`; item calls carry
 *   `dynamodb:LeadingKeys`, the partition key values)
 * - AWS Step Functions: https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsstepfunctions.html
 *   (`SendTaskSuccess`/`SendTaskFailure` list no resource type there: the one exception this map
 *   makes, see {@link TASK_TOKEN_ACTIONS})
 * - Amazon SNS: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsns.html
 * - AWS Secrets Manager: https://docs.aws.amazon.com/service-authorization/latest/reference/list_awssecretsmanager.html
 * - Amazon CloudWatch: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncloudwatch.html
 *   (`DescribeAlarms` by `AlarmNames` with composite alarms asked for is authorized only on "*":
 *   https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_DescribeAlarms.html)
 */
import { DEPLOYED } from './template-iam';

type Input = Readonly<Record<string, unknown>>;

/** What IAM is asked for one SDK call. */
export interface IamRequest {
  /** `service:Action` */
  readonly action: string;
  /** The resource ARN, or `*` for actions without a resource type. */
  readonly resource: string;
  /** Request-specific condition keys (`s3:prefix`, `dynamodb:LeadingKeys`, …). */
  readonly context: Readonly<Record<string, string | string[]>>;
}

/** How a DynamoDB table is keyed: the partition key's attribute name, by table name. */
export type PartitionKeys = Readonly<Record<string, string>>;

/** What a test knows about the deployment that a call's input alone does not say. */
export interface CallFacts {
  /** How each DynamoDB table is keyed. */
  readonly partitionKeys?: PartitionKeys;
  /** The ARN of the state machine whose execution issued a task token, by token. */
  readonly taskTokenIssuers?: ReadonlyMap<string, string>;
  /** The full ARNs of the secrets the deployment knows (a `SecretId` may be a name). */
  readonly secretArns?: readonly string[];
}

/** A secret's name from its full or partial ARN, or the name itself. */
const secretName = (id: string) =>
  id.startsWith('arn:') ? id.slice(id.indexOf(':secret:') + ':secret:'.length) : id;

/**
 * The secret a `SecretId` names, as IAM sees it: Secrets Manager takes "the ARN or name of the
 * secret" (https://docs.aws.amazon.com/secretsmanager/latest/apireference/API_GetSecretValue.html),
 * resolves it, and authorizes the call on the secret's full ARN (its name, `-`, six random
 * characters). A name or partial ARN of a known secret is answered with that secret's full ARN.
 */
function secretArnOf(input: Input, facts: CallFacts): string {
  const id = String(input['SecretId']);
  const known = facts.secretArns ?? [];
  if (known.includes(id)) return id;
  const name = secretName(id);
  return known.find((arn) => secretName(arn).replace(/-[A-Za-z0-9]{6}$/, '') === name) ?? id;
}

/**
 * The one documented exception to the Service Authorization Reference: it lists no resource type
 * for these actions (so an evaluator that follows it allows them only with `Resource: "*"`), yet
 * for a callback task (`.waitForTaskToken`) AWS authorizes them against the state machine whose
 * execution issued the task token:
 * - AWS's denial names that state machine: "User: arn:aws:sts::<account>:assumed-role/… is not
 *   authorized to perform: states:SendTaskFailure on resource:
 *   arn:aws:states:us-east-1:<account>:stateMachine:…" (quoted in NOAA-OWP/hydrovis issue 837);
 * - CDK's maintainers tested it while adding `StateMachine.grantTaskResponse` (aws/aws-cdk pull
 *   request 8486, "feat(stepfunctions): grant APIs for state machine construct", review of
 *   `state-machine.ts`): the IAM Policy Simulator wants "*", but a grant on the state machine
 *   worked for a Lambda callback task (for an activity task, the activity's ARN is the resource
 *   instead; this project runs none). `grantTaskResponse` grants them on the state machine since.
 * So the request's resource is that state machine's ARN, and the evaluator (iam-evaluator.ts)
 * matches it against the role's statements as for any resource.
 */
export const TASK_TOKEN_ACTIONS: ReadonlySet<string> = new Set([
  'states:SendTaskSuccess',
  'states:SendTaskFailure',
  'states:SendTaskHeartbeat',
]);

const s3Object = (input: Input) =>
  `arn:${DEPLOYED.partition}:s3:::${String(input['Bucket'])}/${String(input['Key'])}`;
const s3Bucket = (input: Input) => `arn:${DEPLOYED.partition}:s3:::${String(input['Bucket'])}`;
const tableArn = (input: Input) => {
  const table = `arn:${DEPLOYED.partition}:dynamodb:${DEPLOYED.region}:${DEPLOYED.account}:table/${String(input['TableName'])}`;
  return typeof input['IndexName'] === 'string' ? `${table}/index/${input['IndexName']}` : table;
};

/** The partition key's value of a marshalled key or item (`{ pk: { S: 'x' } }`), as IAM compares it. */
function leadingKeys(input: Input, field: 'Key' | 'Item', facts: CallFacts): Record<string, string[]> {
  const name = facts.partitionKeys?.[String(input['TableName'])];
  const attribute = (input[field] as Record<string, Record<string, unknown>> | undefined)?.[name ?? ''];
  const value = attribute?.['S'] ?? attribute?.['N'] ?? attribute?.['B'];
  return value === undefined ? {} : { 'dynamodb:LeadingKeys': [String(value)] };
}

/** The action one operation is authorized as, and the resource and condition keys of one call. */
interface Mapper {
  readonly action: string;
  readonly on: (input: Input, facts: CallFacts) => Omit<IamRequest, 'action'>;
}

/** The state machine whose execution issued the call's `taskToken` (see {@link TASK_TOKEN_ACTIONS}). */
function issuerOfToken(input: Input, facts: CallFacts): string {
  const issuer = facts.taskTokenIssuers?.get(String(input['taskToken']));
  if (issuer === undefined) {
    throw new Error(
      'The IAM check does not know which state machine issued this task token: register it with IamCheck.taskTokenIssuedBy',
    );
  }
  return issuer;
}

const MAP: Readonly<Record<string, Readonly<Record<string, Mapper>>>> = {
  S3: {
    GetObject: {
      action: 's3:GetObject',
      on: (i) => ({ resource: s3Object(i), context: {} }),
    },
    PutObject: {
      action: 's3:PutObject',
      on: (i) => ({ resource: s3Object(i), context: {} }),
    },
    PutObjectTagging: {
      action: 's3:PutObjectTagging',
      on: (i) => ({ resource: s3Object(i), context: {} }),
    },
    ListObjectsV2: {
      action: 's3:ListBucket',
      on: (i) => ({
        resource: s3Bucket(i),
        context: typeof i['Prefix'] === 'string' ? { 's3:prefix': i['Prefix'] } : {},
      }),
    },
  },
  DynamoDB: {
    GetItem: {
      action: 'dynamodb:GetItem',
      on: (i, f) => ({
        resource: tableArn(i),
        context: leadingKeys(i, 'Key', f),
      }),
    },
    PutItem: {
      action: 'dynamodb:PutItem',
      on: (i, f) => ({
        resource: tableArn(i),
        context: leadingKeys(i, 'Item', f),
      }),
    },
    UpdateItem: {
      action: 'dynamodb:UpdateItem',
      on: (i, f) => ({
        resource: tableArn(i),
        context: leadingKeys(i, 'Key', f),
      }),
    },
    DeleteItem: {
      action: 'dynamodb:DeleteItem',
      on: (i, f) => ({
        resource: tableArn(i),
        context: leadingKeys(i, 'Key', f),
      }),
    },
    Query: {
      action: 'dynamodb:Query',
      on: (i) => ({ resource: tableArn(i), context: {} }),
    },
    Scan: {
      action: 'dynamodb:Scan',
      on: (i) => ({ resource: tableArn(i), context: {} }),
    },
  },
  SFN: {
    DescribeExecution: {
      action: 'states:DescribeExecution',
      on: (i) => ({
        resource: String(i['executionArn']),
        context: {},
      }),
    },
    GetExecutionHistory: {
      action: 'states:GetExecutionHistory',
      on: (i) => ({
        resource: String(i['executionArn']),
        context: {},
      }),
    },
    SendTaskSuccess: {
      action: 'states:SendTaskSuccess',
      on: (i, f) => ({
        resource: issuerOfToken(i, f),
        context: {},
      }),
    },
    SendTaskFailure: {
      action: 'states:SendTaskFailure',
      on: (i, f) => ({
        resource: issuerOfToken(i, f),
        context: {},
      }),
    },
  },
  SNS: {
    Publish: {
      action: 'sns:Publish',
      on: (i) => ({ resource: String(i['TopicArn']), context: {} }),
    },
  },
  CloudWatch: {
    DescribeAlarms: {
      action: 'cloudwatch:DescribeAlarms',
      on: () => ({ resource: '*', context: {} }),
    },
  },
  'Secrets Manager': {
    GetSecretValue: {
      action: 'secretsmanager:GetSecretValue',
      on: (i, f) => ({
        resource: secretArnOf(i, f),
        context: {},
      }),
    },
  },
};

/** The SDK's service id (`S3`, `DynamoDB`, …) from a client's name (`S3Client`, `DynamoDBClient`). */
export function serviceOfClient(clientName: string): string {
  const service = clientName.replace(/Client$/, '');
  return service === 'SecretsManager' ? 'Secrets Manager' : service;
}

/**
 * What IAM authorizes for `operation` (`ListObjectsV2`, the command name less `Command`) of
 * `service`, with the command's (marshalled) input and what the test knows besides.
 * @throws Error when the operation is not mapped: a handler calling something new must add it here
 * @throws Error when a task token's state machine is not known
 */
export function iamRequestFor(
  service: string,
  operation: string,
  input: Input,
  facts: CallFacts = {},
): IamRequest {
  const mapper = mapperOf(service, operation);
  return { action: mapper.action, ...mapper.on(input, facts) };
}

/**
 * The IAM action `operation` of `service` is authorized as, whatever its input.
 * @throws Error when the operation is not mapped
 */
export function iamActionOf(service: string, operation: string): string {
  return mapperOf(service, operation).action;
}

function mapperOf(service: string, operation: string): Mapper {
  const mapper = MAP[service]?.[operation];
  if (mapper === undefined) {
    throw new Error(
      `No IAM mapping for ${service} ${operation}: add it to test/iam/helpers/sdk-iam-actions.ts from the Service Authorization Reference`,
    );
  }
  return mapper;
}

/** Every operation mapped, as `Service:Operation` (its test covers each). */
export const MAPPED_OPERATIONS: readonly string[] = Object.entries(MAP).flatMap(([service, ops]) =>
  Object.keys(ops).map((op) => `${service}:${op}`),
);
