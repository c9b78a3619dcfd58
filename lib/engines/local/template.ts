/**
 * Extracts the state machine definition from a synthesized CloudFormation template, with the
 * intrinsics it uses resolved to placeholders that name each resource's logical id.
 */
import { readFileSync } from 'node:fs';
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

/** The state machine definition read from a synthesized template. */
export interface ExtractedStateMachine {
  /** The ASL definition, with deploy-time values replaced by placeholders. */
  readonly definition: Record<string, unknown>;
  /** Logical id of the `AWS::StepFunctions::StateMachine` resource. */
  readonly logicalId: string;
  /** The state machine's ARN (placeholder), as `$$.StateMachine.Id` and `Ref`/`GetAtt` give it. */
  readonly stateMachineArn: string;
  /** Each Lambda function's `Timeout` in ms (Lambda's default, 3 s, when unset), by logical id. */
  readonly functionTimeoutsMs: Readonly<Record<string, number>>;
}

/** Lambda's timeout for a function that sets none. */
const LAMBDA_DEFAULT_TIMEOUT_MS = 3_000;

function functionTimeoutsOf(resources: Record<string, TemplateResource>): Record<string, number> {
  const timeouts: Record<string, number> = {};
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const seconds = resource.Properties?.['Timeout'];
    timeouts[logicalId] = typeof seconds === 'number' ? seconds * 1000 : LAMBDA_DEFAULT_TIMEOUT_MS;
  }
  return timeouts;
}

/** Options of `extractStateMachineDefinition`. */
export interface ExtractOptions {
  /**
   * Picks the state machine whose logical id starts with this prefix.
   * @default - the template must hold exactly one state machine
   */
  readonly logicalIdPrefix?: string;
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
  if (properties['DefinitionSubstitutions'] !== undefined) {
    // The synthesized definition never uses them; refusing beats running a definition half-resolved.
    throw new TemplateIntrinsicError(`${path}.DefinitionSubstitutions are not supported by the local engine`);
  }
  const text = resolveString(properties['DefinitionString'], ctx, `${path}.DefinitionString`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new TemplateIntrinsicError(`${path}.DefinitionString does not resolve to JSON`, { cause: error });
  }
}

/**
 * Reads the state machine out of a synthesized CloudFormation template and resolves the
 * `Fn::Join`/`Fn::GetAtt`/`Ref` pieces of its definition into placeholder ARNs that
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
  const ctx: ResolveContext = { resources };
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
    functionTimeoutsMs: functionTimeoutsOf(resources),
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
    // Synchronous: the first asynchronous read of a run waits for the thread pool to start
    // (~5 ms), and nothing else runs while the command waits for its definition anyway.
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SynthesizedTemplateNotFoundError(`cannot read synthesized template ${path}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SynthesizedTemplateNotFoundError(`synthesized template ${path} is not JSON`, { cause: error });
  }
}
