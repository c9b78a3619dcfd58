/**
 * A handler's environment as the synthesized template gives its Lambda function, so a test can
 * run the handler with exactly what the construct sets (literal values only: a `Ref` to a table
 * or bucket is left out, and the handler falls back to the in-memory store it uses locally).
 */
import type { Template } from 'aws-cdk-lib/assertions';

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
