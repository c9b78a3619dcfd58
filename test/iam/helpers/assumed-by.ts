/**
 * Who assumes each role of a template, and the request context that service sends with
 * `sts:AssumeRole`, as each service documents it for confused-deputy prevention:
 * - EventBridge Scheduler sends the schedule group's ARN as `aws:SourceArn`
 *   (https://docs.aws.amazon.com/scheduler/latest/UserGuide/cross-service-confused-deputy-prevention.html);
 * - EventBridge rules send the rule's ARN
 *   (https://docs.aws.amazon.com/eventbridge/latest/userguide/cross-service-confused-deputy-prevention.html);
 * - Step Functions sends the state machine's ARN
 *   (https://docs.aws.amazon.com/step-functions/latest/dg/procedure-create-iam-role.html);
 * - Lambda assumes an execution role with no source context.
 */
import { DEPLOYED, type TemplateIam } from './template-iam';

type Json = Record<string, unknown>;

/** One service assuming one role for one of its resources. */
export interface Assumption {
  readonly service: string;
  /** What assumes it (a state machine, a schedule, a rule, a function), for messages. */
  readonly user: string;
  readonly context: Readonly<Record<string, string>>;
}

function servicesTrusted(t: TemplateIam, roleId: string): string[] {
  return t
    .trustPolicy(roleId)
    .Statement.flatMap((s) => [((s['Principal'] ?? {}) as Json)['Service'] ?? []].flat())
    .map(String);
}

const sourced = (arn: string) => ({ 'aws:SourceArn': arn, 'aws:SourceAccount': DEPLOYED.account });

/** Every use of `roleId` in the template by a service that assumes it, with its context. */
export function assumptionsOf(t: TemplateIam, roleId: string): Assumption[] {
  const roleArn = t.arnOf(roleId);
  const uses: Assumption[] = [];
  for (const service of servicesTrusted(t, roleId)) {
    if (service === 'lambda.amazonaws.com') {
      for (const fn of t
        .logicalIdsOf('AWS::Lambda::Function')
        .filter((f) => t.roleOfFunction(f) === roleId)) {
        uses.push({ service, user: `function ${fn}`, context: {} });
      }
    } else if (service === 'states.amazonaws.com') {
      for (const sm of t.logicalIdsOf('AWS::StepFunctions::StateMachine')) {
        if (t.resolve(t.properties(sm)['RoleArn']) !== roleArn) continue;
        uses.push({ service, user: `state machine ${sm}`, context: sourced(t.arnOf(sm)) });
      }
    } else if (service === 'scheduler.amazonaws.com') {
      for (const schedule of t.logicalIdsOf('AWS::Scheduler::Schedule')) {
        const p = t.properties(schedule);
        if (t.resolve((p['Target'] as Json)['RoleArn']) !== roleArn) continue;
        const group = p['GroupName'] === undefined ? 'default' : String(t.resolve(p['GroupName']));
        const groupArn = `arn:${DEPLOYED.partition}:scheduler:${DEPLOYED.region}:${DEPLOYED.account}:schedule-group/${group}`;
        uses.push({ service, user: `schedule ${schedule} (group ${group})`, context: sourced(groupArn) });
      }
    } else if (service === 'events.amazonaws.com') {
      for (const rule of t.logicalIdsOf('AWS::Events::Rule')) {
        const targets = (t.properties(rule)['Targets'] ?? []) as Json[];
        if (!targets.some((target) => t.resolve(target['RoleArn']) === roleArn)) continue;
        uses.push({ service, user: `rule ${rule}`, context: sourced(t.arnOf(rule)) });
      }
    } else {
      throw new Error(
        `Role ${roleId} trusts ${service}: add the context it sends to test/iam/helpers/assumed-by.ts`,
      );
    }
  }
  return uses;
}
