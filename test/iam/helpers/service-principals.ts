/**
 * The calls AWS services make for the stack without a handler's SDK client, derived from the
 * synthesized template: what the state machine's role does for each Task state, what each
 * schedule's role does when it fires, and what a Lambda function's resource policy (its
 * `AWS::Lambda::Permission`s) must let EventBridge or an anonymous Function URL caller do.
 */
import type { IamRequest } from './sdk-iam-actions';
import { DEPLOYED, type PolicyDocument, type TemplateIam } from './template-iam';

type Json = Record<string, unknown>;

/** One call the state machine's role makes for a Task state. */
export interface TaskCall {
  /** The state's path in the definition (`Map state/Inner state` for nested ones). */
  readonly state: string;
  readonly request: IamRequest;
}

/** Every Task state of an ASL definition, with its path, nested Map and Parallel states included. */
function taskStates(states: Readonly<Record<string, Json>>, path = ''): [string, Json][] {
  return Object.entries(states).flatMap(([name, state]) => {
    const here = `${path}${name}`;
    const nested = [
      ...[state['Iterator'], state['ItemProcessor']].filter((p) => p !== undefined),
      ...((state['Branches'] ?? []) as unknown[]),
    ].flatMap((p) => taskStates((p as Json)['States'] as Record<string, Json>, `${here}/`));
    return state['Type'] === 'Task' ? [[here, state] as [string, Json], ...nested] : nested;
  });
}

/** A Lambda function's unqualified ARN and the `$LATEST` form Step Functions may call it by. */
function invocations(functionArn: string): IamRequest[] {
  return [functionArn, `${functionArn}:$LATEST`].map((resource) => ({
    action: 'lambda:InvokeFunction',
    resource,
    context: {},
  }));
}

const LAMBDA_FUNCTION = /^arn:[^:]+:lambda:[^:]+:\d{12}:function:[^:]+$/;
const INTEGRATION = /^arn:[^:]+:states:::(?<integration>.+)$/;

/**
 * The IAM requests the state machine's role makes for `state` (Resource and Parameters), as the
 * Step Functions service-integration policies list them
 * (https://docs.aws.amazon.com/step-functions/latest/dg/service-integration-iam-templates.html).
 * An integration not modelled here throws, naming the state: it must be added, not skipped.
 */
function requestsOf(name: string, state: Json, samples: Readonly<Record<string, string>>): IamRequest[] {
  const resource = String(state['Resource']);
  const parameters = (state['Parameters'] ?? {}) as Json;
  if (LAMBDA_FUNCTION.test(resource)) return invocations(resource);
  const integration = INTEGRATION.exec(resource)?.groups?.['integration'];
  if (integration === 'lambda:invoke' || integration === 'lambda:invoke.waitForTaskToken')
    return invocations(String(parameters['FunctionName']));
  const stateMachineArn = String(parameters['StateMachineArn']);
  if (integration === 'states:startExecution') {
    return [{ action: 'states:StartExecution', resource: stateMachineArn, context: {} }];
  }
  if (integration === 'states:startExecution.sync:2' || integration === 'states:startExecution.sync') {
    // `.sync` polls and, when stopped, stops the child, and learns of its end through the managed
    // rule (https://docs.aws.amazon.com/step-functions/latest/dg/stepfunctions-iam.html).
    const childName = String(valueAt(name, parameters, 'Name', samples));
    const execution = stateMachineArn.replace(':stateMachine:', ':execution:');
    return [
      { action: 'states:StartExecution', resource: stateMachineArn, context: {} },
      ...['states:DescribeExecution', 'states:StopExecution'].map((action) => ({
        action,
        resource: `${execution}:${childName}`,
        context: {},
      })),
      ...['events:PutTargets', 'events:PutRule', 'events:DescribeRule'].map((action) => ({
        action,
        resource: `arn:${DEPLOYED.partition}:events:${DEPLOYED.region}:${DEPLOYED.account}:rule/StepFunctionsGetEventsForStepFunctionsExecutionRule`,
        context: {},
      })),
    ];
  }
  if (integration === 'aws-sdk:sfn:describeExecution') {
    // An SDK integration makes the API call it names, as the role's own
    // (https://docs.aws.amazon.com/step-functions/latest/dg/supported-services-awssdk.html).
    const execution = String(valueAt(name, parameters, 'ExecutionArn', samples));
    return [{ action: 'states:DescribeExecution', resource: execution, context: {} }];
  }
  throw new Error(`Task state "${name}" uses ${resource}, an integration whose IAM calls are not modelled`);
}

/**
 * The value of a field given as a constant or as a path (`Key.$`): paths take their value from
 * `samples` (an example state), and a path without a sample throws, naming the state.
 */
function valueAt(
  state: string,
  fields: Json,
  field: string,
  samples: Readonly<Record<string, string>>,
): unknown {
  const path = fields[`${field}.$`];
  if (path === undefined) return fields[field];
  const sample = samples[String(path)];
  if (sample === undefined)
    throw new Error(`State "${state}": no sample value for ${field}.$ ${String(path)}`);
  return sample;
}

/**
 * What a Distributed Map state makes its state machine's role do
 * (https://docs.aws.amazon.com/step-functions/latest/dg/iam-policies-eg-dist-map.html): start
 * its item executions on the state machine itself and describe and stop them (named
 * `<state machine>/<map run label>:<id>`), read its `ItemReader` object (listing its key, so a
 * missing one is NoSuchKey), and write its `ResultWriter` files under the prefix (a manifest and
 * one file per status, multipart when large).
 */
function distributedMapRequests(
  name: string,
  state: Json,
  self: string,
  samples: Readonly<Record<string, string>>,
) {
  const execution = `${self.replace(':stateMachine:', ':execution:')}/${name}-label:00000000-0000-0000-0000-000000000000`;
  const requests: IamRequest[] = [
    { action: 'states:StartExecution', resource: self, context: {} },
    { action: 'states:DescribeExecution', resource: execution, context: {} },
    { action: 'states:StopExecution', resource: execution, context: {} },
  ];
  const object = (bucket: unknown, key: string) => `arn:${DEPLOYED.partition}:s3:::${String(bucket)}/${key}`;
  const reader = state['ItemReader'] as Json | undefined;
  if (reader !== undefined) {
    const parameters = (reader['Parameters'] ?? {}) as Json;
    const key = String(valueAt(name, parameters, 'Key', samples));
    requests.push(
      { action: 's3:GetObject', resource: object(parameters['Bucket'], key), context: {} },
      {
        action: 's3:ListBucket',
        resource: `arn:${DEPLOYED.partition}:s3:::${String(parameters['Bucket'])}`,
        context: { 's3:prefix': key },
      },
    );
  }
  const writer = state['ResultWriter'] as Json | undefined;
  if (writer !== undefined) {
    const parameters = (writer['Parameters'] ?? {}) as Json;
    const prefix = String(valueAt(name, parameters, 'Prefix', samples));
    for (const file of ['manifest.json', 'SUCCEEDED_0.json', 'FAILED_0.json']) {
      const resource = object(parameters['Bucket'], `${prefix}/00000000-0000-0000-0000-000000000000/${file}`);
      for (const action of ['s3:PutObject', 's3:ListMultipartUploadParts', 's3:AbortMultipartUpload'])
        requests.push({ action, resource, context: {} });
    }
  }
  return requests;
}

/**
 * The state machine's definition, resolved, and every call its role makes for each Task state
 * and each Distributed Map state. `samples` gives a value to each path a call's resource is
 * read from (an item list's key, an execution's name): an example state.
 */
export function taskCalls(
  t: TemplateIam,
  stateMachineId: string,
  samples: Readonly<Record<string, string>> = {},
): TaskCall[] {
  const definition = JSON.parse(String(t.resolve(t.properties(stateMachineId)['DefinitionString']))) as Json;
  const self = t.arnOf(stateMachineId);
  const maps = distributedMaps(definition['States'] as Record<string, Json>).flatMap(([state, json]) =>
    distributedMapRequests(state, json, self, samples).map((request) => ({ state, request })),
  );
  const tasks = taskStates(definition['States'] as Record<string, Json>).flatMap(([state, json]) =>
    requestsOf(state, json, samples).map((request) => ({ state, request })),
  );
  return [...tasks, ...maps];
}

/** Every Map state in Distributed mode of an ASL definition (at the top level: they do not nest here). */
function distributedMaps(states: Readonly<Record<string, Json>>): [string, Json][] {
  return Object.entries(states).filter(
    ([, s]) =>
      s['Type'] === 'Map' &&
      ((s['ItemProcessor'] as Json | undefined)?.['ProcessorConfig'] as Json | undefined)?.['Mode'] ===
        'DISTRIBUTED',
  );
}

/** The logical id a `Fn::GetAtt <id>.Arn` or `Ref <id>` names. */
export function logicalIdOf(value: unknown): string {
  const v = value as Json;
  const getAtt = v['Fn::GetAtt'] as [string, string] | undefined;
  if (getAtt !== undefined) return getAtt[0];
  if (typeof v['Ref'] === 'string') return v['Ref'];
  throw new Error(`Not a reference to a resource of the template: ${JSON.stringify(value)}`);
}

/**
 * The resource policy Lambda keeps for a function, one statement per `AWS::Lambda::Permission`,
 * as AddPermission writes it
 * (https://docs.aws.amazon.com/lambda/latest/api/API_AddPermission.html): `SourceArn` becomes
 * `ArnLike AWS:SourceArn`, `SourceAccount` `StringEquals AWS:SourceAccount`, `FunctionUrlAuthType`
 * `StringEquals lambda:FunctionUrlAuthType`, `InvokedViaFunctionUrl` `Bool lambda:InvokedViaFunctionUrl`.
 */
export function functionPolicy(t: TemplateIam, functionId: string): PolicyDocument {
  const statements = t
    .logicalIdsOf('AWS::Lambda::Permission')
    .map((id) => [id, t.properties(id)] as const)
    .filter(([, p]) => logicalIdOf(p['FunctionName']) === functionId)
    .map(([id, p]) => {
      const principal = String(t.resolve(p['Principal']));
      const conditions: Record<string, Record<string, string>> = {};
      const add = (operator: string, key: string, value: unknown) => {
        if (value !== undefined)
          conditions[operator] = { ...conditions[operator], [key]: String(t.resolve(value)) };
      };
      add('ArnLike', 'AWS:SourceArn', p['SourceArn']);
      add('StringEquals', 'AWS:SourceAccount', p['SourceAccount']);
      add('StringEquals', 'lambda:FunctionUrlAuthType', p['FunctionUrlAuthType']);
      add('Bool', 'lambda:InvokedViaFunctionUrl', p['InvokedViaFunctionUrl']);
      return {
        Sid: id,
        Effect: 'Allow',
        Principal:
          principal === '*'
            ? '*'
            : principal.endsWith('.amazonaws.com')
              ? { Service: principal }
              : { AWS: principal },
        Action: String(p['Action']),
        Resource: t.arnOf(functionId),
        ...(Object.keys(conditions).length === 0 ? {} : { Condition: conditions }),
      };
    });
  return { Version: '2012-10-17', Statement: statements };
}

/** The context EventBridge sends when rule `ruleId` invokes its target. */
export function ruleContext(t: TemplateIam, ruleId: string): Record<string, string> {
  return { 'aws:SourceArn': t.arnOf(ruleId), 'aws:SourceAccount': DEPLOYED.account };
}
