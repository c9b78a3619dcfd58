/**
 * A state machine's ASL read from a synthesized template's JSON, with fake ARNs in place of
 * tokens. Free of the CDK, so that a test reading a cached template (./cached-test-stack.ts) loads none.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A state machine definition as JSON. */
export type Asl = Record<string, unknown> & { States: Record<string, Record<string, unknown>> };

/** Renders a CloudFormation string expression (Fn::Join of literals, Ref and Fn::GetAtt) with fake values. */
export function renderCfnString(value: Json): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const join = value['Fn::Join'];
    if (Array.isArray(join)) {
      const [sep, parts] = join;
      return (Array.isArray(parts) ? parts : [])
        .map(renderCfnString)
        .join(typeof sep === 'string' ? sep : '');
    }
    const ref = value['Ref'];
    if (typeof ref === 'string') {
      return (
        { 'AWS::Partition': 'aws', 'AWS::Region': 'us-east-1', 'AWS::AccountId': '123456789012' }[ref] ??
        `ref-${ref}`
      );
    }
    const getAtt = value['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') {
      return `arn:aws:lambda:us-east-1:123456789012:function:${getAtt[0]}`;
    }
  }
  throw new Error(`Cannot render ${JSON.stringify(value)}`);
}

/**
 * The ASL of the state machine in `template` (a template's JSON) whose logical id starts with
 * `logicalIdPrefix` (the one-job one by default; the fleet's is `FleetStateMachine`).
 */
export function aslOf(template: Record<string, unknown>, logicalIdPrefix = 'RestartStateMachine'): Asl {
  const resources = (template['Resources'] ?? {}) as Record<string, { Type?: string; Properties?: unknown }>;
  const [machine] = Object.entries(resources)
    .filter(([id, r]) => r.Type === 'AWS::StepFunctions::StateMachine' && id.startsWith(logicalIdPrefix))
    .map(([, m]) => m);
  const definition = (machine as { Properties: { DefinitionString: Json } }).Properties.DefinitionString;
  return JSON.parse(renderCfnString(definition));
}
