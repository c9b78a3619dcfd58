/**
 * The IAM side of a synthesized template, resolved to concrete ARNs: each role's trust policy and
 * identity policies, each Lambda function's role, and the bucket policies. CloudFormation's
 * intrinsics (`Ref`, `Fn::GetAtt … Arn`, `Fn::Join`, the `AWS::*` pseudo parameters) are
 * resolved with a fixed account and region, and with the physical names a test gives (the
 * emulators' bucket and tables), so a call the handlers make on `plans-1234` meets the policy
 * statement CloudFormation would have written for that bucket.
 */

type Json = Record<string, unknown>;

/** An IAM policy document as the evaluator takes it. */
export interface PolicyDocument {
  readonly Version?: string;
  readonly Statement: readonly Json[];
}

/** A named identity policy of a role. */
export interface NamedPolicy {
  readonly name: string;
  readonly policy: PolicyDocument;
}

/** Where the template is "deployed": the account, region and partition its ARNs resolve in. */
export const DEPLOYED = { account: '123456789012', region: 'us-east-1', partition: 'aws' } as const;

/** ARN formats of `Fn::GetAtt <id>.Arn` and `Ref <id>`, per resource type (CloudFormation's return values). */
const ARN_OF: Readonly<Record<string, (name: string) => string>> = {
  'AWS::S3::Bucket': (n) => `arn:${DEPLOYED.partition}:s3:::${n}`,
  'AWS::DynamoDB::Table': (n) => regional('dynamodb', `table/${n}`),
  'AWS::IAM::Role': (n) => `arn:${DEPLOYED.partition}:iam::${DEPLOYED.account}:role/${n}`,
  'AWS::Lambda::Function': (n) => regional('lambda', `function:${n}`),
  'AWS::StepFunctions::StateMachine': (n) => regional('states', `stateMachine:${n}`),
  'AWS::Events::Rule': (n) => regional('events', `rule/${n}`),
  'AWS::SQS::Queue': (n) => regional('sqs', n),
  'AWS::SNS::Topic': (n) => regional('sns', n),
  'AWS::Logs::LogGroup': (n) => regional('logs', `log-group:${n}:*`),
  'AWS::Scheduler::ScheduleGroup': (n) => regional('scheduler', `schedule-group/${n}`),
  'AWS::KMS::Key': (n) => regional('kms', `key/${n}`),
  'AWS::SecretsManager::Secret': (n) => regional('secretsmanager', `secret:${n}`),
};

/** The property a resource's physical name is set with, when a construct sets it. */
const NAME_PROPERTY: Readonly<Record<string, string>> = {
  'AWS::S3::Bucket': 'BucketName',
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::StepFunctions::StateMachine': 'StateMachineName',
  'AWS::Events::Rule': 'Name',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::SNS::Topic': 'TopicName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::Scheduler::Schedule': 'Name',
  'AWS::Scheduler::ScheduleGroup': 'Name',
};

/** What `Ref` returns: the name for most, the ARN for these (CloudFormation's return values). */
const REF_IS_ARN = new Set([
  'AWS::StepFunctions::StateMachine',
  'AWS::SNS::Topic',
  'AWS::SecretsManager::Secret',
]);

function regional(service: string, resource: string): string {
  return `arn:${DEPLOYED.partition}:${service}:${DEPLOYED.region}:${DEPLOYED.account}:${resource}`;
}

/** The IAM view of one synthesized template. */
export class TemplateIam {
  private readonly resources: Record<string, Json>;

  /**
   * @param template the synthesized CloudFormation template
   * @param physicalNames the name each resource got, by logical id (the emulators' bucket and
   *   tables); any other resource is named after its logical id
   */
  public constructor(
    template: Json,
    private readonly physicalNames: Readonly<Record<string, string>> = {},
  ) {
    this.resources = template['Resources'] as Record<string, Json>;
  }

  /** Logical ids of every resource of `type`. */
  public logicalIdsOf(type: string): string[] {
    return Object.entries(this.resources)
      .filter(([, r]) => r['Type'] === type)
      .map(([id]) => id);
  }

  /** The resource's `Properties`. */
  public properties(logicalId: string): Json {
    const resource = this.resources[logicalId];
    if (resource === undefined) throw new Error(`The template has no resource ${logicalId}`);
    return (resource['Properties'] ?? {}) as Json;
  }

  /** The physical name a resource has once deployed: the test's, its own name property, else its logical id. */
  public nameOf(logicalId: string): string {
    const given = this.physicalNames[logicalId];
    if (given !== undefined) return given;
    const type = this.resources[logicalId]?.['Type'] as string | undefined;
    const property = type === undefined ? undefined : NAME_PROPERTY[type];
    const named = property === undefined ? undefined : this.properties(logicalId)[property];
    return named === undefined ? logicalId : String(this.resolve(named));
  }

  /** The resource's ARN, as `Fn::GetAtt <id>.Arn` resolves. */
  public arnOf(logicalId: string): string {
    const type = this.resources[logicalId]?.['Type'] as string | undefined;
    const format = type === undefined ? undefined : ARN_OF[type];
    if (format === undefined) throw new Error(`No ARN format for ${logicalId} (${String(type)})`);
    return format(this.nameOf(logicalId));
  }

  /** A CloudFormation value with every intrinsic resolved. */
  public resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.resolve(v));
    if (typeof value !== 'object' || value === null) return value;
    const v = value as Json;
    if ('Ref' in v) return this.ref(String(v['Ref']));
    if ('Fn::GetAtt' in v) {
      const [id, attribute] = v['Fn::GetAtt'] as [string, string];
      if (attribute === 'Arn') return this.arnOf(id);
      // A table's stream: its label is only known once deployed.
      if (attribute === 'StreamArn') return `${this.arnOf(id)}/stream/*`;
      if (attribute === 'Name') return this.nameOf(id);
      // A Function URL's address (AWS::Lambda::Url return values): only its shape matters here.
      if (attribute === 'FunctionUrl')
        return `https://${id.toLowerCase()}.lambda-url.${DEPLOYED.region}.on.aws/`;
      throw new Error(`Cannot resolve Fn::GetAtt ${id}.${attribute}`);
    }
    if ('Fn::Join' in v) {
      const [sep, parts] = v['Fn::Join'] as [string, unknown[]];
      return parts.map((p) => String(this.resolve(p))).join(sep);
    }
    // CDK names a state machine's executions by the name in its ARN (`.sync` and Distributed Map grants).
    if ('Fn::Split' in v) {
      const [sep, text] = v['Fn::Split'] as [string, unknown];
      return String(this.resolve(text)).split(sep);
    }
    if ('Fn::Select' in v) {
      const [index, list] = v['Fn::Select'] as [number, unknown];
      return (this.resolve(list) as unknown[])[index];
    }
    const intrinsic = Object.keys(v).find((k) => k.startsWith('Fn::'));
    if (intrinsic !== undefined) throw new Error(`Cannot resolve ${intrinsic}: ${JSON.stringify(v)}`);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.resolve(x)]));
  }

  private ref(id: string): string {
    if (id === 'AWS::AccountId') return DEPLOYED.account;
    if (id === 'AWS::Region') return DEPLOYED.region;
    if (id === 'AWS::Partition') return DEPLOYED.partition;
    if (id === 'AWS::URLSuffix') return 'amazonaws.com';
    const type = this.resources[id]?.['Type'] as string | undefined;
    if (type === undefined) throw new Error(`Cannot resolve Ref ${id}`);
    return REF_IS_ARN.has(type) ? this.arnOf(id) : this.nameOf(id);
  }

  /** The role's trust policy (`AssumeRolePolicyDocument`), resolved. */
  public trustPolicy(roleId: string): PolicyDocument {
    return this.resolve(this.properties(roleId)['AssumeRolePolicyDocument']) as PolicyDocument;
  }

  /**
   * Every identity policy of the role: its inline `Policies` and each `AWS::IAM::Policy` attached
   * to it. AWS managed policies (`ManagedPolicyArns`) are not in the template and are left out:
   * the workflow's roles use none for calls a handler makes.
   */
  public rolePolicies(roleId: string): NamedPolicy[] {
    const inline = ((this.properties(roleId)['Policies'] ?? []) as Json[]).map((p) => ({
      name: String(p['PolicyName']),
      policy: this.resolve(p['PolicyDocument']) as PolicyDocument,
    }));
    const attached = this.logicalIdsOf('AWS::IAM::Policy')
      .filter((id) =>
        ((this.properties(id)['Roles'] ?? []) as unknown[]).some(
          (r) => typeof r === 'object' && r !== null && (r as Json)['Ref'] === roleId,
        ),
      )
      .map((id) => ({
        name: id,
        policy: this.resolve(this.properties(id)['PolicyDocument']) as PolicyDocument,
      }));
    return [...inline, ...attached];
  }

  /** The logical id of a Lambda function's role. */
  public roleOfFunction(functionId: string): string {
    const role = this.properties(functionId)['Role'] as Json | undefined;
    const getAtt = role?.['Fn::GetAtt'] as [string, string] | undefined;
    if (getAtt === undefined) throw new Error(`Function ${functionId} has no role of this template`);
    return getAtt[0];
  }

  /**
   * The logical id of the function CDK made for construct id `<handler>-fn` (the workflow's) or
   * any construct whose logical id starts `…<Name>` then a CDK hash: exactly one must match.
   */
  public functionNamed(pattern: RegExp): string {
    const found = this.logicalIdsOf('AWS::Lambda::Function').filter((id) => pattern.test(id));
    if (found.length !== 1) {
      throw new Error(`Expected one function matching ${String(pattern)}, found [${found.join(', ')}]`);
    }
    return found[0] as string;
  }

  /** The bucket policy of a bucket (a resource policy S3 evaluates with the role's), if any. */
  public bucketPolicy(bucketName: string): PolicyDocument | undefined {
    for (const id of this.logicalIdsOf('AWS::S3::BucketPolicy')) {
      const p = this.properties(id);
      if (this.resolve(p['Bucket']) === bucketName)
        return this.resolve(p['PolicyDocument']) as PolicyDocument;
    }
    return undefined;
  }
}

/** The workflow function of handler `id` (`release-lock` → `…releaselockfnFunction<hash>`). */
export function workflowFunctionPattern(handlerId: string): RegExp {
  return new RegExp(`[A-Z][a-z0-9]*${handlerId.replaceAll('-', '')}fnFunction[0-9A-F]{8}$`);
}
