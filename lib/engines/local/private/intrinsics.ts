/**
 * Resolves the CloudFormation intrinsics the synthesized definition string uses (`Ref` of a
 * pseudo parameter or a resource, `Fn::GetAtt` of an ARN, `Fn::Join`) into placeholders, so the
 * local engine runs the same definition that AWS would. Any other intrinsic is refused: the
 * local engine supports what the template needs, not more.
 */
import { TemplateIntrinsicError } from '../errors';
import {
  LOCAL_ACCOUNT,
  LOCAL_PARTITION,
  LOCAL_REGION,
  placeholderArn,
  stateMachineArn,
} from './placeholders';

/** A CloudFormation resource as far as resolution needs it. */
export interface TemplateResource {
  readonly Type?: string;
  readonly Properties?: Record<string, unknown>;
}

/** What intrinsics are resolved against. */
export interface ResolveContext {
  readonly resources: Readonly<Record<string, TemplateResource>>;
}

const PSEUDO_PARAMETERS: Readonly<Record<string, string>> = {
  'AWS::Partition': LOCAL_PARTITION,
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
};

/** Resource types whose `Ref` is their ARN rather than their name. */
const REF_IS_ARN = new Set(['AWS::StepFunctions::StateMachine']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(path: string, message: string): never {
  throw new TemplateIntrinsicError(`${path}: ${message}`);
}

/** A named state machine's ARN uses its name, so a self-reference built from the name matches. */
function arnOf(logicalId: string, resource: TemplateResource): string {
  const name = resource.Properties?.['StateMachineName'];
  if (resource.Type === 'AWS::StepFunctions::StateMachine' && typeof name === 'string')
    return stateMachineArn(name);
  return placeholderArn(logicalId, resource.Type);
}

function resolveRef(name: unknown, ctx: ResolveContext, path: string): string {
  if (typeof name !== 'string') fail(path, `Ref expects a string, got ${JSON.stringify(name)}`);
  const pseudo = PSEUDO_PARAMETERS[name];
  if (pseudo !== undefined) return pseudo;
  const resource = ctx.resources[name];
  if (resource === undefined) fail(path, `Ref to unknown resource "${name}"`);
  return resource.Type !== undefined && REF_IS_ARN.has(resource.Type) ? arnOf(name, resource) : name;
}

function resolveGetAtt(args: unknown, ctx: ResolveContext, path: string): string {
  const parts = typeof args === 'string' ? args.split('.') : args;
  if (!Array.isArray(parts) || parts.length !== 2) {
    fail(path, `Fn::GetAtt expects [logicalId, attribute], got ${JSON.stringify(args)}`);
  }
  const [logicalId, attribute] = parts.map((part, i) => resolveString(part, ctx, `${path}[${i}]`));
  const resource = ctx.resources[logicalId ?? ''];
  if (resource === undefined || logicalId === undefined)
    fail(path, `Fn::GetAtt of unknown resource "${logicalId}"`);
  return attribute === 'Arn' ? arnOf(logicalId, resource) : `${logicalId}.${attribute}`;
}

function resolveIntrinsic(fn: string, args: unknown, ctx: ResolveContext, path: string): unknown {
  const here = `${path}.${fn}`;
  switch (fn) {
    case 'Ref':
      return resolveRef(args, ctx, here);
    case 'Fn::GetAtt':
      return resolveGetAtt(args, ctx, here);
    case 'Fn::Join': {
      if (!Array.isArray(args) || typeof args[0] !== 'string' || !Array.isArray(args[1])) {
        fail(here, `expects [separator, list], got ${JSON.stringify(args)}`);
      }
      const separator = args[0];
      return args[1].map((item, i) => resolveString(item, ctx, `${here}[${i}]`)).join(separator);
    }
    default:
      return fail(here, `intrinsic "${fn}" is not supported by the local engine`);
  }
}

/** Resolves every intrinsic inside `value` to a placeholder (see `placeholders.ts`). */
export function resolveValue(value: unknown, ctx: ResolveContext, path: string): unknown {
  if (Array.isArray(value)) return value.map((item, i) => resolveValue(item, ctx, `${path}[${i}]`));
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  const [only] = keys;
  if (keys.length === 1 && only !== undefined && (only === 'Ref' || only.startsWith('Fn::'))) {
    return resolveIntrinsic(only, value[only], ctx, path);
  }
  return Object.fromEntries(keys.map((key) => [key, resolveValue(value[key], ctx, `${path}.${key}`)]));
}

/** Like `resolveValue`, for places CloudFormation requires a string. */
export function resolveString(value: unknown, ctx: ResolveContext, path: string): string {
  const resolved = resolveValue(value, ctx, path);
  if (typeof resolved === 'string') return resolved;
  if (typeof resolved === 'number' || typeof resolved === 'boolean') return String(resolved);
  return fail(path, `expected a string, got ${JSON.stringify(resolved)}`);
}
