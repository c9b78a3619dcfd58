/**
 * Resolves the CloudFormation intrinsics found in the synthesized definition string (Ref, GetAtt,
 * Sub, Join and the like), so the local engine runs the same definition that AWS would.
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
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly stackName: string;
}

const PSEUDO_PARAMETERS: Readonly<Record<string, string>> = {
  'AWS::Partition': LOCAL_PARTITION,
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::NoValue': '',
};

/** Resource types whose `Ref` is their ARN rather than their name. */
const REF_IS_ARN = new Set(['AWS::StepFunctions::StateMachine', 'AWS::SNS::Topic']);

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
  if (name === 'AWS::StackName') return ctx.stackName;
  const pseudo = PSEUDO_PARAMETERS[name];
  if (pseudo !== undefined) return pseudo;
  const parameter = ctx.parameters[name];
  if (isRecord(parameter)) return typeof parameter['Default'] === 'string' ? parameter['Default'] : name;
  const resource = ctx.resources[name];
  if (resource === undefined) fail(path, `Ref to unknown resource or parameter "${name}"`);
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

function resolveSub(args: unknown, ctx: ResolveContext, path: string): string {
  const [template, variables] = typeof args === 'string' ? [args, {}] : Array.isArray(args) ? args : [];
  if (typeof template !== 'string' || !isRecord(variables)) {
    fail(path, `Fn::Sub expects a string or [string, variables], got ${JSON.stringify(args)}`);
  }
  return template.replace(/\$\{(!?)([^}]+)\}/g, (_match, literal: string, name: string) => {
    if (literal === '!') return `\${${name}}`;
    if (name in variables) return resolveString(variables[name], ctx, `${path}.${name}`);
    return name.includes('.') ? resolveGetAtt(name, ctx, path) : resolveRef(name, ctx, path);
  });
}

function resolveIntrinsic(fn: string, args: unknown, ctx: ResolveContext, path: string): unknown {
  const here = `${path}.${fn}`;
  switch (fn) {
    case 'Ref':
      return resolveRef(args, ctx, here);
    case 'Fn::GetAtt':
      return resolveGetAtt(args, ctx, here);
    case 'Fn::Sub':
      return resolveSub(args, ctx, here);
    case 'Fn::Join': {
      if (!Array.isArray(args) || typeof args[0] !== 'string' || !Array.isArray(args[1])) {
        fail(here, `expects [separator, list], got ${JSON.stringify(args)}`);
      }
      const separator = args[0];
      return args[1].map((item, i) => resolveString(item, ctx, `${here}[${i}]`)).join(separator);
    }
    case 'Fn::Select': {
      const [index, list] = Array.isArray(args) ? args : [];
      const items = resolveValue(list, ctx, `${here}[1]`);
      const at = Number(resolveValue(index, ctx, `${here}[0]`));
      if (!Array.isArray(items) || !Number.isInteger(at) || at < 0 || at >= items.length) {
        fail(here, `cannot select ${JSON.stringify(index)} from ${JSON.stringify(items)}`);
      }
      return items[at];
    }
    case 'Fn::Split': {
      const [separator, source] = Array.isArray(args) ? args : [];
      if (typeof separator !== 'string')
        fail(here, `expects [separator, string], got ${JSON.stringify(args)}`);
      return resolveString(source, ctx, `${here}[1]`).split(separator);
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
