/**
 * Scenario: the calls no handler's SDK client makes, evaluated on the full stack's template
 * through the IAM evaluator: the state machine's role invoking each Task state's function and
 * starting its own continue-as-new execution; each schedule's role starting the state machine;
 * EventBridge invoking a rule's target function under the function's resource policy; an anonymous
 * caller invoking the approval endpoint's Function URL. (The dead-letter queues' senders are in
 * dead-letters-deliverable.test.ts, the roles' trust policies in roles-assumable.test.ts.)
 */
import { fullStackTemplate } from './helpers/full-stack-template';
import {
  evaluateAnonymousRequest,
  evaluateIdentityRequest,
  evaluateServiceRequest,
} from './helpers/iam-evaluator';
import {
  functionPolicy,
  logicalIdOf,
  ruleContext,
  type TaskCall,
  taskCalls,
} from './helpers/service-principals';
import { type NamedPolicy, TemplateIam } from './helpers/template-iam';

type Json = Record<string, unknown>;

const template = await fullStackTemplate();
const t = new TemplateIam(template);
const [stateMachine = ''] = t
  .logicalIdsOf('AWS::StepFunctions::StateMachine')
  .filter((id) => id.startsWith('RestartStateMachine'));
const machineRole = logicalIdOf(t.properties(stateMachine)['RoleArn']);

/** The Task calls the role's policies do not allow, each naming its state and the reason. */
async function deniedTaskCalls(
  calls: readonly TaskCall[],
  policies: readonly NamedPolicy[],
): Promise<string[]> {
  const denied: string[] = [];
  for (const { state, request } of calls) {
    const decision = await evaluateIdentityRequest(t.arnOf(machineRole), policies, request);
    if (!decision.allowed)
      denied.push(`state "${state}": ${request.action} on ${request.resource}: ${decision.explanation}`);
  }
  return denied;
}

describe("the state machine's role", () => {
  const calls = taskCalls(t, stateMachine);

  it('has a call for every Task state of the definition, continue-as-new included', () => {
    // Act
    const states = new Set(calls.map((c) => c.state));
    const starts = calls.filter((c) => c.request.action === 'states:StartExecution');

    // Assert
    expect(states.size).toBeGreaterThanOrEqual(15);
    expect(starts).toEqual([
      {
        state: 'Continue as new execution',
        request: { action: 'states:StartExecution', resource: t.arnOf(stateMachine), context: {} },
      },
    ]);
  });

  it("performs every Task state's integration", async () => {
    // Act
    const denied = await deniedTaskCalls(calls, t.rolePolicies(machineRole));

    // Assert
    expect(denied).toEqual([]);
  });

  it('fails naming the state when a grant is removed from the template', async () => {
    // Arrange: the role's policies without the statement that lets it start an execution.
    const policies = t.rolePolicies(machineRole).map(({ name, policy }) => ({
      name,
      policy: {
        ...policy,
        Statement: policy.Statement.filter((s) => s['Action'] !== 'states:StartExecution'),
      },
    }));

    // Act
    const denied = await deniedTaskCalls(calls, policies);

    // Assert
    expect(denied).toHaveLength(1);
    expect(denied[0]).toContain('state "Continue as new execution": states:StartExecution on');
  });
});

describe("each schedule's role", () => {
  const schedules = t.logicalIdsOf('AWS::Scheduler::Schedule');

  it.each(schedules)('%s may start the state machine it targets', async (schedule) => {
    // Arrange
    const target = t.properties(schedule)['Target'] as Json;
    const role = logicalIdOf(target['RoleArn']);

    // Act
    const decision = await evaluateIdentityRequest(t.arnOf(role), t.rolePolicies(role), {
      action: 'states:StartExecution',
      resource: String(t.resolve(target['Arn'])),
      context: {},
    });

    // Assert
    expect(decision.explanation).toBe('');
    expect(target['Arn']).toEqual({ Ref: stateMachine });
  });

  it('are two, one per schedule of the full stack', () => {
    // Assert
    expect(schedules).toHaveLength(2);
  });
});

/** Every rule target that is a Lambda function: `[rule, function]`. */
const ruleTargets = t.logicalIdsOf('AWS::Events::Rule').flatMap((rule) =>
  ((t.properties(rule)['Targets'] ?? []) as Json[])
    .map((target) => logicalIdOf(target['Arn']))
    .filter((id) => t.logicalIdsOf('AWS::Lambda::Function').includes(id))
    .map((fn) => [rule, fn] as const),
);

describe("a rule's target function's resource policy", () => {
  it("covers every rule of the full stack (stale lock, run end, the fleet's record end)", () => {
    // Assert
    expect(ruleTargets.map(([rule]) => rule).sort()).toEqual([
      expect.stringMatching(/^FleetEndFleetRecord/),
      expect.stringMatching(/^RestartReleaseStaleLock/),
      expect.stringMatching(/^RunNotificationsRunEnded/),
    ]);
  });

  it.each(ruleTargets)('lets EventBridge invoke for rule %s the function %s', async (rule, fn) => {
    // Act
    const decision = await evaluateServiceRequest(
      'events.amazonaws.com',
      { action: 'lambda:InvokeFunction', resource: t.arnOf(fn), context: ruleContext(t, rule) },
      functionPolicy(t, fn),
    );

    // Assert
    expect(decision.explanation).toBe('');
    expect(decision.allowed).toBe(true);
  });

  it('refuses EventBridge invoking for another rule, naming the condition that fails', async () => {
    // Arrange
    const [[rule, fn] = ['', '']] = ruleTargets;
    const other = { ...ruleContext(t, rule), 'aws:SourceArn': `${t.arnOf(rule)}-other` };

    // Act
    const decision = await evaluateServiceRequest(
      'events.amazonaws.com',
      { action: 'lambda:InvokeFunction', resource: t.arnOf(fn), context: other },
      functionPolicy(t, fn),
    );

    // Assert
    expect(decision.allowed).toBe(false);
    expect(decision.explanation).toContain('AWS:SourceArn');
  });

  it("is denied when the rule's permission is removed from the template", async () => {
    // Arrange
    const [[rule, fn] = ['', '']] = ruleTargets;
    const resources = { ...(template['Resources'] as Record<string, Json>) };
    for (const [id, r] of Object.entries(resources)) {
      const p = (r['Properties'] ?? {}) as Json;
      if (r['Type'] === 'AWS::Lambda::Permission' && logicalIdOf(p['FunctionName']) === fn)
        delete resources[id];
    }
    const without = new TemplateIam({ ...template, Resources: resources });

    // Act
    const decision = await evaluateServiceRequest(
      'events.amazonaws.com',
      { action: 'lambda:InvokeFunction', resource: t.arnOf(fn), context: ruleContext(t, rule) },
      functionPolicy(without, fn),
    );

    // Assert
    expect(decision.allowed).toBe(false);
    expect(decision.explanation).toBe("no statement of the resource's policy names events.amazonaws.com");
  });
});

describe("the approval endpoint's Function URL", () => {
  const [url = ''] = t.logicalIdsOf('AWS::Lambda::Url');
  const fn = logicalIdOf(t.properties(url)['TargetFunctionArn']);
  const invokeUrl = {
    action: 'lambda:InvokeFunctionUrl',
    resource: t.arnOf(fn),
    context: { 'lambda:FunctionUrlAuthType': 'NONE' },
  };

  it('lets an anonymous caller invoke it through the URL (auth type NONE)', async () => {
    // Act
    const viaUrl = await evaluateAnonymousRequest(invokeUrl, functionPolicy(t, fn));
    const invoke = await evaluateAnonymousRequest(
      {
        action: 'lambda:InvokeFunction',
        resource: t.arnOf(fn),
        context: { 'lambda:InvokedViaFunctionUrl': 'true' },
      },
      functionPolicy(t, fn),
    );

    // Assert
    expect(t.properties(url)['AuthType']).toBe('NONE');
    expect(viaUrl.explanation).toBe('');
    expect(invoke.explanation).toBe('');
  });

  it('refuses an anonymous direct Invoke that does not come through the URL', async () => {
    // Act
    const decision = await evaluateAnonymousRequest(
      {
        action: 'lambda:InvokeFunction',
        resource: t.arnOf(fn),
        context: { 'lambda:InvokedViaFunctionUrl': 'false' },
      },
      functionPolicy(t, fn),
    );

    // Assert
    expect(decision.allowed).toBe(false);
  });
});
