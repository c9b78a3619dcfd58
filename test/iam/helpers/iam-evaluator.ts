/**
 * Evaluates one request against a role's policies from the synthesized template with
 * `@cloud-copilot/iam-simulate` (a maintained implementation of AWS's policy evaluation logic:
 * identity and resource policies, every condition operator), and explains a denial the way a
 * reviewer needs it: which statement came closest and why it did not apply, and the statement
 * that would allow the call.
 */
import {
  anonymousPrincipal,
  runSimulation,
  runUnsafeSimulation,
  type Simulation,
  type SimulationRequestPrincipal,
} from '@cloud-copilot/iam-simulate';
import { type IamRequest, TASK_TOKEN_ACTIONS } from './sdk-iam-actions';
import { DEPLOYED, type NamedPolicy, type PolicyDocument } from './template-iam';

/** The outcome of one evaluation. */
export interface IamDecision {
  readonly allowed: boolean;
  /** `Allowed`, `ImplicitlyDenied` or `ExplicitlyDenied`, as the evaluator says. */
  readonly result: string;
  /** Why it was denied (empty when allowed). */
  readonly explanation: string;
}

/** Context every call from a Lambda function carries: it reaches AWS over TLS. */
const CALLER_CONTEXT = { 'aws:SecureTransport': 'true' } as const;

type Explain = {
  effect?: string;
  matches?: boolean;
  actionMatch?: boolean;
  resourceMatch?: boolean;
  conditionMatch?: boolean;
  conditions?: {
    operator: string;
    conditionKeyValue: string;
    values: unknown;
    resolvedConditionKeyValue?: unknown;
  }[];
};
type StatementAnalysis = { policyId?: string; statement: Record<string, unknown>; explain: Explain };

function describeRequest(request: IamRequest): string {
  const keys = Object.entries(request.context)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(', ');
  return `${request.action} on ${request.resource}${keys === '' ? '' : ` with ${keys}`}`;
}

/** Why a statement that names the action did not allow the request. */
function whyNot(s: StatementAnalysis): string {
  const where = `statement ${JSON.stringify(s.statement)} of ${s.policyId ?? "the resource's policy"}`;
  if (s.explain.resourceMatch === false) return `${where} names the action but not this resource`;
  const failed = (s.explain.conditions ?? [])
    .filter((c) => (c as { matches?: boolean }).matches === false)
    .map(
      (c) =>
        `${c.operator} ${c.conditionKeyValue} ${JSON.stringify([c.values].flat().map((v) => (v as { value?: unknown }).value ?? v))} is not met by ${JSON.stringify(c.resolvedConditionKeyValue ?? '(absent)')}`,
    );
  return `${where} names the action and resource but its condition fails: ${failed.join('; ')}`;
}

/** A statement that would allow exactly this request. */
export function allowingStatement(request: IamRequest): Record<string, unknown> {
  const prefix = request.context['s3:prefix'];
  return {
    Effect: 'Allow',
    Action: request.action,
    Resource: request.resource,
    ...(typeof prefix === 'string' ? { Condition: { StringLike: { 's3:prefix': `${prefix}*` } } } : {}),
  };
}

/** The evaluator's input: `request` by `principal` holding `identityPolicies`, against `resourcePolicy`. */
function simulationOf(
  principal: SimulationRequestPrincipal,
  request: IamRequest,
  identityPolicies: readonly NamedPolicy[],
  resourcePolicy: PolicyDocument | undefined,
): Simulation {
  return {
    identityPolicies: identityPolicies.map((p) => ({ name: p.name, policy: p.policy })),
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    ...(resourcePolicy === undefined ? {} : { resourcePolicy }),
    request: {
      action: request.action,
      principal,
      resource: { accountId: DEPLOYED.account, resource: request.resource },
      contextVariables: { ...CALLER_CONTEXT, ...request.context },
    },
  } as unknown as Simulation;
}

/** The evaluator's verdict on `request` by `principal`, and its analysis (read when denied). */
async function simulate(
  principal: SimulationRequestPrincipal,
  request: IamRequest,
  identityPolicies: readonly NamedPolicy[],
  resourcePolicy: PolicyDocument | undefined,
): Promise<{ overall: string; analysis: Record<string, unknown> | undefined }> {
  const response = await runSimulation(
    simulationOf(principal, request, identityPolicies, resourcePolicy),
    {},
  );
  if (response.resultType === 'error') {
    throw new Error(
      `The IAM evaluator refused ${describeRequest(request)}: ${JSON.stringify(response.errors)}`,
    );
  }
  // A request on Resource "*" for an action with a resource type (cloudwatch:DescribeAlarms, which
  // answers composite alarms only on "*") is a `wildcard` simulation: its verdicts come as a list.
  const answer = response as unknown as {
    result?: { analysis?: Record<string, unknown> };
    results?: { analysis?: Record<string, unknown> }[];
  };
  const analysis = answer.result?.analysis ?? answer.results?.[0]?.analysis;
  return { overall: String(response.overallResult), analysis };
}

/**
 * Evaluates `request` by `principalArn` holding `policies`, with `resourcePolicy` (a bucket
 * policy) when the resource has one.
 */
export async function evaluateIdentityRequest(
  principalArn: string,
  policies: readonly NamedPolicy[],
  request: IamRequest,
  resourcePolicy?: PolicyDocument,
): Promise<IamDecision> {
  if (TASK_TOKEN_ACTIONS.has(request.action))
    return evaluateOnIssuingStateMachine(principalArn, policies, request);
  const { overall, analysis } = await simulate(principalArn, request, policies, resourcePolicy);
  if (overall === 'Allowed') return { allowed: true, result: overall, explanation: '' };
  const identity = analysis?.['identityAnalysis'] as
    | { denyStatements: StatementAnalysis[]; unmatchedStatements: StatementAnalysis[] }
    | undefined;
  const denies = (identity?.denyStatements ?? []).map((s) => `denied by ${JSON.stringify(s.statement)}`);
  const near = (identity?.unmatchedStatements ?? [])
    .filter((s) => s.explain.actionMatch === true)
    .map(whyNot);
  const reasons =
    denies.length + near.length === 0 ? ['no statement of the role names the action'] : [...denies, ...near];
  return {
    allowed: false,
    result: overall,
    explanation: `${reasons.join('; ')}. It would be allowed by ${JSON.stringify(allowingStatement(request))}`,
  };
}

/**
 * A task token answer (sdk-iam-actions.ts, `TASK_TOKEN_ACTIONS`) as AWS authorizes it: on the
 * state machine that issued the token. The evaluator's validated entry point refuses any resource
 * but "*" for these actions (it follows the Service Authorization Reference), so its engine runs
 * without that validation (`runUnsafeSimulation`: the same policy evaluation, on the ARN given).
 * When denied, the statements that allow the action on some other resource are named.
 */
function evaluateOnIssuingStateMachine(
  principal: string,
  policies: readonly NamedPolicy[],
  request: IamRequest,
): IamDecision {
  const verdict = (held: readonly NamedPolicy[], on: IamRequest) =>
    String(runUnsafeSimulation(simulationOf(principal, on, held, undefined), {}));
  const overall = verdict(policies, request);
  if (overall === 'Allowed') return { allowed: true, result: overall, explanation: '' };
  // Each statement on its own: the Deny statements that deny this request, the Allow statements
  // that would allow the action on any resource (so name another one).
  const alone = (statement: Record<string, unknown>, on: IamRequest) =>
    verdict([{ name: 'one statement', policy: { Version: '2012-10-17', Statement: [statement] } }], on);
  const anywhere = ({ NotResource: _, ...statement }: Record<string, unknown>) =>
    alone({ ...statement, Resource: '*' }, { ...request, resource: '*' }) === 'Allowed';
  const reasons = policies.flatMap(({ name, policy }) =>
    policy.Statement.flatMap((statement) => {
      const text = `statement ${JSON.stringify(statement)} of ${name}`;
      if (overall === 'ExplicitlyDenied')
        return alone(statement, request) === 'ExplicitlyDenied' ? [`denied by ${text}`] : [];
      return statement['Effect'] === 'Allow' && anywhere(statement)
        ? [`${text} names the action but not the state machine that issued the task token`]
        : [];
    }),
  );
  return {
    allowed: false,
    result: overall,
    explanation: `${reasons.length === 0 ? 'no statement of the role allows the action' : reasons.join('; ')}. It would be allowed by ${JSON.stringify(allowingStatement(request))}`,
  };
}

/**
 * Evaluates `request` by `servicePrincipal` (a service acting for one of its resources, not with a
 * role) against the resource's policy, with the context the service sends (`aws:SourceArn`,
 * `aws:SourceAccount`): a role's trust policy, a queue's policy.
 */
export async function evaluateServiceRequest(
  servicePrincipal: SimulationRequestPrincipal,
  request: IamRequest,
  resourcePolicy: PolicyDocument,
): Promise<IamDecision> {
  const { overall, analysis } = await simulate(servicePrincipal, request, [], resourcePolicy);
  if (overall === 'Allowed') return { allowed: true, result: overall, explanation: '' };
  const policy = analysis?.['resourceAnalysis'] as { unmatchedStatements?: StatementAnalysis[] } | undefined;
  const near = (policy?.unmatchedStatements ?? []).map(whyNot);
  return {
    allowed: false,
    result: overall,
    explanation:
      near.length === 0
        ? `no statement of the resource's policy names ${typeof servicePrincipal === 'string' ? servicePrincipal : 'an anonymous caller'}`
        : near.join('; '),
  };
}

/**
 * Evaluates an unsigned request (a Function URL with auth type NONE: AWS authorizes it on the
 * function's resource policy alone) against `resourcePolicy`.
 */
export function evaluateAnonymousRequest(
  request: IamRequest,
  resourcePolicy: PolicyDocument,
): Promise<IamDecision> {
  return evaluateServiceRequest(anonymousPrincipal, request, resourcePolicy);
}

/**
 * Evaluates `sts:AssumeRole` by `servicePrincipal` against a role's trust policy, with the
 * context the service sends (`aws:SourceArn`, `aws:SourceAccount`).
 */
export function evaluateAssumeRole(
  roleArn: string,
  trustPolicy: PolicyDocument,
  servicePrincipal: string,
  context: Readonly<Record<string, string>>,
): Promise<IamDecision> {
  return evaluateServiceRequest(
    servicePrincipal,
    { action: 'sts:AssumeRole', resource: roleArn, context },
    trustPolicy,
  );
}
