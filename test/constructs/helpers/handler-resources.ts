/**
 * A handler's function and role as the synthesized template has them, found by the role's
 * description (`nomad-restart <handlerId> handler`): its IAM statements, and its environment as
 * the construct sets it, so a test can also run the handler with exactly that (literal values
 * only: a `Ref` to a table or bucket is left out, and the handler falls back to the in-memory
 * store it uses locally).
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { CHAT_SECRETS_KEY } from './synth';

/** The statements of the role described as `description`. */
export function roleStatements(template: Template, description: string): Record<string, unknown>[] {
  const roles = template.findResources('AWS::IAM::Role', { Properties: { Description: description } });
  const roleIds = Object.keys(roles);
  expect(roleIds).toHaveLength(1);
  const policies = template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: [{ Ref: roleIds[0] }] },
  });
  return Object.values(policies).flatMap(
    (p) =>
      (p['Properties'] as { PolicyDocument: { Statement: Record<string, unknown>[] } }).PolicyDocument
        .Statement,
  );
}

/** What a handler reading the chat secrets may do with their key: decrypt, through Secrets Manager only. */
export const DECRYPT_CHAT_SECRETS = {
  Action: 'kms:Decrypt',
  Effect: 'Allow',
  Resource: CHAT_SECRETS_KEY,
  Condition: { StringEquals: { 'kms:ViaService': 'secretsmanager.us-east-1.amazonaws.com' } },
};

/** What a handler that asks how the restart state machine's executions stand may do: describe them. */
export const DESCRIBE_RESTART_EXECUTIONS = {
  Action: 'states:DescribeExecution',
  Effect: 'Allow',
  Resource: {
    'Fn::Join': [
      '',
      [
        'arn:',
        { Ref: 'AWS::Partition' },
        ':states:us-east-1:123456789012:execution:',
        { 'Fn::GetAtt': [expect.stringMatching(/^RestartStateMachine/), 'Name'] },
        ':*',
      ],
    ],
  },
};

/** A statement's actions, as a list. */
export const actionsOf = (s: Record<string, unknown>) => [s['Action']].flat() as string[];

/** The literal environment variables of the function whose role is `nomad-restart <handlerId> handler`. */
export function functionEnvironment(template: Template, handlerId: string): Record<string, string> {
  const roles = Object.keys(
    template.findResources('AWS::IAM::Role', {
      Properties: { Description: `nomad-restart ${handlerId} handler` },
    }),
  );
  if (roles.length !== 1) throw new Error(`Expected one role for ${handlerId}, found ${roles.length}`);
  const functions = Object.values(
    template.findResources('AWS::Lambda::Function', {
      Properties: { Role: { 'Fn::GetAtt': [roles[0], 'Arn'] } },
    }),
  );
  if (functions.length !== 1)
    throw new Error(`Expected one function for ${handlerId}, found ${functions.length}`);
  const variables =
    (functions[0] as { Properties: { Environment?: { Variables?: Record<string, unknown> } } }).Properties
      .Environment?.Variables ?? {};
  return Object.fromEntries(
    Object.entries(variables).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
