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
function requestsOf(name: string, state: Json): IamRequest[] {
  const resource = String(state['Resource']);
  const parameters = (state['Parameters'] ?? {}) as Json;
  if (LAMBDA_FUNCTION.test(resource)) return invocations(resource);
  const integration = INTEGRATION.exec(resource)?.groups?.['integration'];
  if (integration === 'lambda:invoke' || integration === 'lambda:invoke.waitForTaskToken')
    return invocations(String(parameters['FunctionName']));
  if (integration === 'states:startExecution') {
    return [
      { action: 'states:StartExecution', resource: String(parameters['StateMachineArn']), context: {} },
    ];
  }
  throw new Error(`Task state "${name}" uses ${resource}, an integration whose IAM calls are not modelled`);
}

/** The state machine's definition, resolved, and every call its role makes for each Task state. */
export function taskCalls(t: TemplateIam, stateMachineId: string): TaskCall[] {
  const definition = JSON.parse(String(t.resolve(t.properties(stateMachineId)['DefinitionString']))) as Json;
  return taskStates(definition['States'] as Record<string, Json>).flatMap(([state, json]) =>
    requestsOf(state, json).map((request) => ({ state, request })),
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
