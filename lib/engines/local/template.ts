/**
 * Extracts the state machine definition and its Lambda functions from a synthesized CloudFormation template.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  StateMachineNotFoundError,
  SynthesizedTemplateNotFoundError,
  TemplateIntrinsicError,
} from './errors';
import {
  type ResolveContext,
  resolveString,
  resolveValue,
  type TemplateResource,
} from './private/intrinsics';
import { placeholderArn, stateMachineArn } from './private/placeholders';

/** A Lambda function of the template, as the local engine sees it. */
export interface LambdaFunctionInfo {
  /** Logical id in the template; also the function name in its placeholder ARN. */
  readonly logicalId: string;
  /** `arn:aws:lambda:local:000000000000:function:<logicalId>`. */
  readonly arn: string;
  /** The construct path (`aws:cdk:path` metadata), e.g. `Stack/Workflow/Plan/Resource`. */
  readonly cdkPath?: string;
  /** The `Handler` property, e.g. `index.handler`. */
  readonly handler?: string;
  /**
   * Environment variables with intrinsics resolved to placeholders. Variables whose value cannot
   * be resolved locally (e.g. `Fn::ImportValue`) are left out.
   */
  readonly environment: Readonly<Record<string, string>>;
}

/** The state machine definition read from a synthesized template. */
export interface ExtractedStateMachine {
  /** The ASL definition, with deploy-time values replaced by placeholders. */
  readonly definition: Record<string, unknown>;
  /** Logical id of the `AWS::StepFunctions::StateMachine` resource. */
  readonly logicalId: string;
  /** The state machine's ARN (placeholder), as `$$.StateMachine.Id` and `Ref`/`GetAtt` give it. */
  readonly stateMachineArn: string;
  /** Every `AWS::Lambda::Function` in the template, by logical id. */
  readonly functionByLogicalId: Readonly<Record<string, LambdaFunctionInfo>>;
}

/** Options of `extractStateMachineDefinition`. */
export interface ExtractOptions {
  /**
   * Picks the state machine whose logical id starts with this prefix.
   * @default - the template must hold exactly one state machine
   */
  readonly logicalIdPrefix?: string;
  /**
   * Value of `Ref: AWS::StackName`.
   * @default 'local'
   */
  readonly stackName?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resourcesOf(template: unknown): Record<string, TemplateResource> {
  if (!isRecord(template) || !isRecord(template['Resources'])) {
    throw new StateMachineNotFoundError('template has no "Resources" object');
  }
  const resources: Record<string, TemplateResource> = {};
  for (const [id, resource] of Object.entries(template['Resources'])) {
    if (isRecord(resource)) resources[id] = resource;
  }
  return resources;
}

function pickStateMachine(resources: Record<string, TemplateResource>, prefix: string | undefined): string {
  const ids = Object.keys(resources).filter(
    (id) => resources[id]?.Type === 'AWS::StepFunctions::StateMachine' && id.startsWith(prefix ?? ''),
  );
  const [only] = ids;
  if (only !== undefined && ids.length === 1) return only;
  const which = prefix === undefined ? '' : ` with a logical id starting with "${prefix}"`;
  throw new StateMachineNotFoundError(
    ids.length === 0
      ? `template has no AWS::StepFunctions::StateMachine${which}`
      : `template has ${ids.length} state machines${which} (${ids.join(', ')}); pass logicalIdPrefix to pick one`,
  );
}

function definitionOf(logicalId: string, properties: Record<string, unknown>, ctx: ResolveContext) {
  const path = `Resources.${logicalId}.Properties`;
  if (isRecord(properties['Definition'])) {
    return resolveValue(properties['Definition'], ctx, `${path}.Definition`);
  }
  if (properties['DefinitionString'] === undefined) {
    throw new StateMachineNotFoundError(
      `state machine "${logicalId}" has neither Definition nor DefinitionString (S3 locations cannot be read locally)`,
    );
  }
  let text = resolveString(properties['DefinitionString'], ctx, `${path}.DefinitionString`);
  const substitutions = properties['DefinitionSubstitutions'];
  if (isRecord(substitutions)) {
    for (const [key, value] of Object.entries(substitutions)) {
      const resolved = resolveString(value, ctx, `${path}.DefinitionSubstitutions.${key}`);
      text = text.split(`\${${key}}`).join(resolved);
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new TemplateIntrinsicError(`${path}.DefinitionString does not resolve to JSON`, { cause: error });
  }
}

function environmentOf(properties: Record<string, unknown>, ctx: ResolveContext, path: string) {
  const environment = properties['Environment'];
  const variables = isRecord(environment) ? environment['Variables'] : undefined;
  const resolved: Record<string, string> = {};
  if (!isRecord(variables)) return resolved;
  for (const [name, value] of Object.entries(variables)) {
    try {
      resolved[name] = resolveString(value, ctx, `${path}.${name}`);
    } catch {
      // A variable that only has a meaning on AWS (an import, a condition) is simply absent locally.
    }
  }
  return resolved;
}

function functionsOf(resources: Record<string, TemplateResource>, ctx: ResolveContext) {
  const functions: Record<string, LambdaFunctionInfo> = {};
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const properties = resource.Properties ?? {};
    const metadata = (resource as { Metadata?: unknown }).Metadata;
    const cdkPath = isRecord(metadata) ? metadata['aws:cdk:path'] : undefined;
    const handler = properties['Handler'];
    functions[logicalId] = {
      logicalId,
      arn: placeholderArn(logicalId, resource.Type),
      ...(typeof cdkPath === 'string' ? { cdkPath } : {}),
      ...(typeof handler === 'string' ? { handler } : {}),
      environment: environmentOf(properties, ctx, `Resources.${logicalId}.Properties.Environment.Variables`),
    };
  }
  return functions;
}

/**
 * Reads the state machine out of a synthesized CloudFormation template and resolves the
 * `Fn::Join`/`Fn::GetAtt`/`Ref`/`Fn::Sub` pieces of its definition into placeholder ARNs that
 * name each resource's logical id (`arn:aws:lambda:local:000000000000:function:<LogicalId>`),
 * so that Task states can be bound to local handlers by logical id.
 *
 * @param template the parsed `<stack>.template.json` (decoded here, so `unknown` is fine)
 * @throws StateMachineNotFoundError when no (or more than one) state machine matches
 * @throws TemplateIntrinsicError when an intrinsic cannot be resolved locally
 */
export function extractStateMachineDefinition(
  template: unknown,
  opts: ExtractOptions = {},
): ExtractedStateMachine {
  const resources = resourcesOf(template);
  const parameters = isRecord(template) && isRecord(template['Parameters']) ? template['Parameters'] : {};
  const ctx: ResolveContext = { resources, parameters, stackName: opts.stackName ?? 'local' };
  const logicalId = pickStateMachine(resources, opts.logicalIdPrefix);
  const properties = resources[logicalId]?.Properties ?? {};
  const definition = definitionOf(logicalId, properties, ctx);
  if (!isRecord(definition)) {
    throw new StateMachineNotFoundError(
      `state machine "${logicalId}" has a definition that is not a JSON object`,
    );
  }
  const name = properties['StateMachineName'];
  return {
    definition,
    logicalId,
    stateMachineArn:
      name === undefined
        ? placeholderArn(logicalId, 'AWS::StepFunctions::StateMachine')
        : stateMachineArn(resolveString(name, ctx, `Resources.${logicalId}.Properties.StateMachineName`)),
    functionByLogicalId: functionsOf(resources, ctx),
  };
}

/**
 * Reads `<cdkOutDir>/<stackName>.template.json`.
 * @throws SynthesizedTemplateNotFoundError when the file is missing or not JSON
 */
export async function loadSynthesizedTemplate(cdkOutDir: string, stackName: string): Promise<unknown> {
  const path = join(cdkOutDir, `${stackName}.template.json`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SynthesizedTemplateNotFoundError(`cannot read synthesized template ${path}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SynthesizedTemplateNotFoundError(`synthesized template ${path} is not JSON`, { cause: error });
  }
}
