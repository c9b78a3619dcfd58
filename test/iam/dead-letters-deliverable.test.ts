/**
 * Scenario: every dead-letter queue of the full stack can be written by what writes to it, as AWS
 * decides it, through the IAM evaluator: a schedule's firing goes there with the schedule's role
 * (Scheduler uses the target's role); a rule's undelivered event with EventBridge's own principal
 * (the queue's policy, for that rule's ARN only); a function's failed asynchronous event and a
 * stream batch the notifier kept failing on with the function's role. A queue nobody may write to
 * would drop exactly what it is there to keep.
 */
import { fullStackTemplate } from './helpers/full-stack-template';
import { evaluateIdentityRequest, evaluateServiceRequest, type IamDecision } from './helpers/iam-evaluator';
import { DEPLOYED, type PolicyDocument, TemplateIam } from './helpers/template-iam';

type Json = Record<string, unknown>;

const t = new TemplateIam(await fullStackTemplate());

/** The queue's policy (SQS evaluates it with the sender's identity policies). */
function queuePolicy(queueId: string): PolicyDocument {
  const [id] = t
    .logicalIdsOf('AWS::SQS::QueuePolicy')
    .filter((p) => JSON.stringify(t.properties(p)['Queues']).includes(`"${queueId}"`));
  if (id === undefined) throw new Error(`Queue ${queueId} has no policy`);
  return t.resolve(t.properties(id)['PolicyDocument']) as PolicyDocument;
}

/** The logical id of the queue a `Fn::GetAtt <queue>.Arn` names. */
const queueOf = (arn: unknown) => ((arn as Json)['Fn::GetAtt'] as [string, string])[0];
const send = (queueId: string, context: Record<string, string> = {}) => ({
  action: 'sqs:SendMessage',
  resource: t.arnOf(queueId),
  context,
});

/** Sends by a role (Scheduler with the target's role; Lambda with the function's). */
async function byRole(roleId: string, queueId: string): Promise<IamDecision> {
  return evaluateIdentityRequest(
    t.arnOf(roleId),
    t.rolePolicies(roleId),
    send(queueId),
    queuePolicy(queueId),
  );
}

/** Every sender and queue of the template: `[who, queue, decide]`. */
function deliveries(): [string, string, () => Promise<IamDecision>][] {
  const out: [string, string, () => Promise<IamDecision>][] = [];
  for (const schedule of t.logicalIdsOf('AWS::Scheduler::Schedule')) {
    const target = t.properties(schedule)['Target'] as Json;
    const queue = queueOf((target['DeadLetterConfig'] as Json)['Arn']);
    const role = ((target['RoleArn'] as Json)['Fn::GetAtt'] as [string])[0];
    out.push([`schedule ${schedule} (its role)`, queue, () => byRole(role, queue)]);
  }
  for (const rule of t.logicalIdsOf('AWS::Events::Rule')) {
    for (const target of (t.properties(rule)['Targets'] ?? []) as Json[]) {
      const queue = queueOf((target['DeadLetterConfig'] as Json)['Arn']);
      const context = { 'aws:SourceArn': t.arnOf(rule), 'aws:SourceAccount': DEPLOYED.account };
      out.push([
        `rule ${rule} (events.amazonaws.com)`,
        queue,
        () => evaluateServiceRequest('events.amazonaws.com', send(queue, context), queuePolicy(queue)),
      ]);
    }
  }
  const functionRole = (ref: unknown) => t.roleOfFunction(String((ref as Json)['Ref']));
  for (const config of t.logicalIdsOf('AWS::Lambda::EventInvokeConfig')) {
    const p = t.properties(config);
    const queue = queueOf(((p['DestinationConfig'] as Json)['OnFailure'] as Json)['Destination']);
    out.push([
      `async ${String((p['FunctionName'] as Json)['Ref'])}`,
      queue,
      () => byRole(functionRole(p['FunctionName']), queue),
    ]);
  }
  for (const mapping of t.logicalIdsOf('AWS::Lambda::EventSourceMapping')) {
    const p = t.properties(mapping);
    const queue = queueOf(((p['DestinationConfig'] as Json)['OnFailure'] as Json)['Destination']);
    out.push([`stream mapping ${mapping}`, queue, () => byRole(functionRole(p['FunctionName']), queue)]);
  }
  return out;
}

describe('the dead-letter queues of the full stack', () => {
  const all = deliveries();

  it('are one per schedule, rule and stream mapping, each written to by everything that fails there', () => {
    // Act
    const queues = new Set(all.map(([, queue]) => queue));

    // Assert: 2 schedules, 3 rules (their functions' asynchronous failures share the rule's; the
    // third ends a dead fleet's record), 1 stream.
    expect(queues.size).toBe(6);
    expect(t.logicalIdsOf('AWS::SQS::Queue').sort()).toEqual([...queues].sort());
    expect(all).toHaveLength(9);
  });

  it.each(all.map(([who, queue, decide]) => ({ who, queue, decide })))(
    '$who may send to $queue',
    async ({ decide }) => {
      // Act
      const decision = await decide();

      // Assert
      expect(decision.explanation).toBe('');
      expect(decision.allowed).toBe(true);
    },
  );

  it("refuses EventBridge sending for another rule: the queue's policy names its own rule", async () => {
    // Arrange
    const [rule] = t.logicalIdsOf('AWS::Events::Rule');
    const target = ((t.properties(rule ?? '')['Targets'] ?? []) as Json[])[0] ?? {};
    const queue = queueOf((target['DeadLetterConfig'] as Json)['Arn']);
    const other = { 'aws:SourceArn': `${t.arnOf(rule ?? '')}-other`, 'aws:SourceAccount': DEPLOYED.account };

    // Act
    const decision = await evaluateServiceRequest(
      'events.amazonaws.com',
      send(queue, other),
      queuePolicy(queue),
    );

    // Assert
    expect(decision.allowed).toBe(false);
    expect(decision.explanation).toContain('aws:SourceArn');
  });
});
