/**
 * IAM enforced on the handlers' real AWS SDK calls in tests. Every SDK client gets one more
 * middleware the first time it sends (the clients are made deep inside the stores and handlers,
 * so the check is installed on the SDK's client base class rather than on each): inside a
 * function's invocation (`asFunction`), each call is mapped to its IAM request
 * (sdk-iam-actions.ts), evaluated against THAT function's role policies from the synthesized
 * template (iam-evaluator.ts), recorded, and, when AWS would deny it, failed as AWS fails it: the
 * service's own exception class, `AccessDenied` / `AccessDeniedException`, a 4xx, AWS's sentence,
 * then the evaluator's explanation. Calls outside any function (a test creating its tables) pass.
 * S3's answer to a read of a missing key follows the caller's `s3:ListBucket` (`s3AnswerToMissingKey`).
 */
import { S3Client } from '@aws-sdk/client-s3';
import { evaluateIdentityRequest, type IamDecision } from './iam-evaluator';
import { invokingFunction } from './invoking-function';
import { type IamRequest, iamRequestFor, type PartitionKeys, serviceOfClient } from './sdk-iam-actions';
import { DEPLOYED, type TemplateIam, workflowFunctionPattern } from './template-iam';

/** One checked call. */
export interface CheckedCall {
  readonly functionName: string;
  readonly request: IamRequest;
  readonly decision: IamDecision;
}

export { asFunction } from './invoking-function';

/** The error each service answers a denied call with (its API reference, "Common Errors"). */
const DENIAL: Readonly<Record<string, { name: string; status: number; module: string; exception: string }>> =
  {
    S3: { name: 'AccessDenied', status: 403, module: '@aws-sdk/client-s3', exception: 'S3ServiceException' },
    DynamoDB: {
      name: 'AccessDeniedException',
      status: 400,
      module: '@aws-sdk/client-dynamodb',
      exception: 'DynamoDBServiceException',
    },
    SFN: {
      name: 'AccessDeniedException',
      status: 400,
      module: '@aws-sdk/client-sfn',
      exception: 'SFNServiceException',
    },
    SNS: {
      name: 'AuthorizationError',
      status: 403,
      module: '@aws-sdk/client-sns',
      exception: 'SNSServiceException',
    },
    CloudWatch: {
      name: 'AccessDeniedException',
      status: 400,
      module: '@aws-sdk/client-cloudwatch',
      exception: 'CloudWatchServiceException',
    },
    'Secrets Manager': {
      name: 'AccessDeniedException',
      status: 400,
      module: '@aws-sdk/client-secrets-manager',
      exception: 'SecretsManagerServiceException',
    },
  };

type ServiceExceptionClass = new (options: {
  name: string;
  $fault: 'client';
  $metadata: { httpStatusCode: number; requestId: string; attempts: number; totalRetryDelay: number };
  message: string;
}) => Error;

/** The exception the SDK would throw for AWS's denial of `call`. */
export async function accessDeniedError(
  service: string,
  call: CheckedCall,
  roleName: string,
): Promise<Error> {
  const denial = DENIAL[service];
  if (denial === undefined) throw new Error(`No denial shape for ${service}`);
  const exceptions = (await import(denial.module)) as Record<string, ServiceExceptionClass>;
  const Exception = exceptions[denial.exception];
  if (Exception === undefined) throw new Error(`${denial.module} has no ${denial.exception}`);
  const { request } = call;
  return new Exception({
    name: denial.name,
    $fault: 'client',
    $metadata: { httpStatusCode: denial.status, requestId: 'iam-check', attempts: 1, totalRetryDelay: 0 },
    message:
      `User: arn:${DEPLOYED.partition}:sts::${DEPLOYED.account}:assumed-role/${roleName}/${call.functionName} ` +
      `is not authorized to perform: ${request.action} on resource: "${request.resource}" because no ` +
      `identity-based policy allows the ${request.action} action [IAM check: function ${call.functionName}: ` +
      `${call.decision.explanation}]`,
  });
}

/** Every call checked while the check was installed, and the denials among them. */
export class IamLedger {
  public readonly calls: CheckedCall[] = [];

  /** The calls AWS would have denied. */
  public denied(): CheckedCall[] {
    return this.calls.filter((c) => !c.decision.allowed);
  }

  /** Removes the denials from the ledger and returns them (a test that provokes one on purpose). */
  public takeDenied(): CheckedCall[] {
    const denied = this.denied();
    for (const call of denied) this.calls.splice(this.calls.indexOf(call), 1);
    return denied;
  }

  /** Calls checked per function, then per IAM action. */
  public countsByFunction(): Record<string, Record<string, number>> {
    const counts: Record<string, Record<string, number>> = {};
    for (const { functionName, request } of this.calls) {
      const fn = counts[functionName] ?? {};
      fn[request.action] = (fn[request.action] ?? 0) + 1;
      counts[functionName] = fn;
    }
    return counts;
  }

  /** Each denial from the `from`-th call on as one line: function, action, resource, and the evaluator's explanation. */
  public denialReport(from = 0): string[] {
    return this.calls
      .slice(from)
      .filter((c) => !c.decision.allowed)
      .map(
        (c) =>
          `${c.functionName}: ${c.request.action} on ${c.request.resource} denied: ${c.decision.explanation}`,
      );
  }
}

/** Evaluates calls against the roles of one synthesized template. */
export class IamCheck {
  private readonly partitionKeys: PartitionKeys;
  private readonly taskTokenIssuers = new Map<string, string>();
  /** The secrets the roles name: a call may name one by its name (sdk-iam-actions.ts). */
  private readonly secretArns: string[];

  public constructor(
    private readonly template: TemplateIam,
    public readonly ledger: IamLedger = new IamLedger(),
  ) {
    const keys: Record<string, string> = {};
    for (const id of template.logicalIdsOf('AWS::DynamoDB::Table')) {
      const schema = template.properties(id)['KeySchema'] as { AttributeName: string; KeyType: string }[];
      const hash = schema.find((k) => k.KeyType === 'HASH');
      if (hash !== undefined) keys[template.nameOf(id)] = hash.AttributeName;
    }
    this.partitionKeys = keys;
    this.secretArns = template
      .logicalIdsOf('AWS::IAM::Role')
      .flatMap((role) => template.rolePolicies(role))
      .flatMap(({ policy }) => policy.Statement.flatMap((st) => [st['Resource'] ?? []].flat()))
      .map(String)
      .filter((arn) => arn.startsWith(`arn:${DEPLOYED.partition}:secretsmanager:`));
  }

  /**
   * Records that an execution of `stateMachineArn` issued `taskToken`: Step Functions authorizes
   * an answer to it on that state machine (sdk-iam-actions.ts, `TASK_TOKEN_ACTIONS`).
   */
  public taskTokenIssuedBy(taskToken: string, stateMachineArn: string): void {
    this.taskTokenIssuers.set(taskToken, stateMachineArn);
  }

  /** The ARN of the template's one-job state machine (`RestartStateMachine…`; the fleet's is beside it). */
  public stateMachineArn(): string {
    const [id, ...others] = this.template
      .logicalIdsOf('AWS::StepFunctions::StateMachine')
      .filter((sm) => sm.startsWith('RestartStateMachine'));
    if (id === undefined || others.length > 0)
      throw new Error('Expected one one-job state machine in the template');
    return this.template.arnOf(id);
  }

  /** The environment the template gives the function of handler `functionName`, resolved. */
  public functionEnvironment(functionName: string): Record<string, string> {
    const id = this.template.functionNamed(workflowFunctionPattern(functionName));
    const environment = this.template.properties(id)['Environment'] as { Variables?: unknown } | undefined;
    return this.template.resolve(environment?.Variables ?? {}) as Record<string, string>;
  }

  /** The role name of the function of handler `functionName`. */
  public roleNameOf(functionName: string): string {
    return this.template.nameOf(this.roleIdOf(functionName));
  }

  private roleIdOf(functionName: string): string {
    return this.template.roleOfFunction(this.template.functionNamed(workflowFunctionPattern(functionName)));
  }

  /** Evaluates one SDK call made by `functionName` and records it. */
  public async check(
    functionName: string,
    service: string,
    operation: string,
    input: Readonly<Record<string, unknown>>,
  ): Promise<CheckedCall> {
    const request = iamRequestFor(service, operation, input, {
      partitionKeys: this.partitionKeys,
      taskTokenIssuers: this.taskTokenIssuers,
      secretArns: this.secretArns,
    });
    const roleId = this.roleIdOf(functionName);
    const bucket = service === 'S3' ? this.template.bucketPolicy(String(input['Bucket'])) : undefined;
    const decision = await evaluateIdentityRequest(
      this.template.arnOf(roleId),
      this.template.rolePolicies(roleId),
      request,
      bucket,
    );
    const call = { functionName, request, decision };
    this.ledger.calls.push(call);
    return call;
  }

  /**
   * Whether `functionName` may list the bucket at the key it read (`s3:ListBucket` with
   * `s3:prefix` = the key), which decides S3's answer when the key is missing. Not recorded in
   * the ledger: S3 evaluates it, the code never calls it.
   */
  public async listingOfKey(
    functionName: string,
    input: Readonly<Record<string, unknown>>,
  ): Promise<CheckedCall> {
    // ListObjectsV2 is the call S3 authorizes as s3:ListBucket with s3:prefix (sdk-iam-actions.ts).
    const request = iamRequestFor('S3', 'ListObjectsV2', { Bucket: input['Bucket'], Prefix: input['Key'] });
    const roleId = this.roleIdOf(functionName);
    const decision = await evaluateIdentityRequest(
      this.template.arnOf(roleId),
      this.template.rolePolicies(roleId),
      request,
      this.template.bucketPolicy(String(input['Bucket'])),
    );
    return { functionName, request, decision };
  }
}

/** The S3 reads whose answer for a missing key depends on `s3:ListBucket`. */
const KEY_READS = new Set(['GetObject', 'HeadObject']);

/**
 * What S3 answers `functionName`'s `operation` that the emulator answered `error`: a missing key
 * (`NoSuchKey`, or `NotFound` for HeadObject) is a 403 `AccessDenied` unless the caller may
 * `s3:ListBucket` the bucket at that key ("If you don't have the s3:ListBucket permission, Amazon
 * S3 returns an HTTP status code 403 Access Denied error",
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html). Any other error is
 * returned as it is.
 */
export async function s3AnswerToMissingKey(
  check: IamCheck,
  functionName: string,
  operation: string,
  input: Readonly<Record<string, unknown>>,
  error: unknown,
): Promise<unknown> {
  const name = error instanceof Error ? error.name : undefined;
  if (!KEY_READS.has(operation) || (name !== 'NoSuchKey' && name !== 'NotFound')) return error;
  const listing = await check.listingOfKey(functionName, input);
  if (listing.decision.allowed) return error;
  const explanation = `the key "${String(input['Key'])}" does not exist and the role may not list it, so S3 answers 403 AccessDenied, not 404 ${name}: ${listing.decision.explanation}`;
  return accessDeniedError(
    'S3',
    { ...listing, decision: { ...listing.decision, explanation } },
    check.roleNameOf(functionName),
  );
}

type Middleware = (
  next: (args: { input: Record<string, unknown> }) => Promise<unknown>,
  context: { clientName?: string; commandName?: string },
) => (args: { input: Record<string, unknown> }) => Promise<unknown>;
type Stack = {
  add(mw: Middleware, options: { step: string; name: string; priority: string }): void;
  remove(name: string): boolean;
};
type SendingClient = { middlewareStack: Stack };
type ClientBase = { send: (this: SendingClient, ...args: unknown[]) => unknown };

const MIDDLEWARE_NAME = 'iamCheckMiddleware';

function iamCheckMiddleware(checkNow: () => IamCheck): Middleware {
  return (next, context) => async (args) => {
    const functionName = invokingFunction();
    if (functionName === undefined) return next(args);
    const check = checkNow();
    const service = serviceOfClient(context.clientName ?? '');
    const operation = (context.commandName ?? '').replace(/Command$/, '');
    const call = await check.check(functionName, service, operation, args.input);
    if (!call.decision.allowed) throw await accessDeniedError(service, call, check.roleNameOf(functionName));
    if (service !== 'S3') return next(args);
    try {
      return await next(args);
    } catch (error) {
      throw await s3AnswerToMissingKey(check, functionName, operation, args.input, error);
    }
  };
}

/**
 * Installs the IAM check on every AWS SDK client of this module registry (one jest test file):
 * the middleware runs at the build step, after the document client has marshalled its input and
 * before the request is signed and sent, so a denied call never reaches the emulator.
 * @param checkNow the check in force (each test has its own stores, so its own names)
 * @returns uninstall
 */
export function installIamCheck(checkNow: () => IamCheck): () => void {
  const base = Object.getPrototypeOf(S3Client.prototype) as ClientBase;
  const send = base.send;
  const checked = new Set<Stack>();
  const middleware = iamCheckMiddleware(checkNow);
  base.send = function sendChecked(this: SendingClient, ...args: unknown[]) {
    // The document client shares its DynamoDB client's stack: one middleware per stack.
    if (!checked.has(this.middlewareStack)) {
      checked.add(this.middlewareStack);
      this.middlewareStack.add(middleware, { step: 'build', name: MIDDLEWARE_NAME, priority: 'high' });
    }
    return send.apply(this, args);
  };
  return () => {
    base.send = send;
    for (const stack of checked) stack.remove(MIDDLEWARE_NAME);
  };
}
