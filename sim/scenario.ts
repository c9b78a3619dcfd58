/** Loading scenarios: decoding with field-naming errors, files, and the bundled demo. */
import type { Job } from '../lib/nomad/types';
import { readPackagedFile } from '../lib/sea/packaged-file';
import type { AclSpec } from './acl';
import { parseGoDuration } from './duration';
import { SimHttpError, SimScenarioError } from './errors';
import { decodeJob } from './model/job-spec';
import type { NodePoolSpec, NodeSpec } from './model/nodes';
import { variablePathError } from './model/variable-path';
import type { Scenario, ScenarioVariable } from './types';

function fail(field: string, value: unknown, allowed: string): never {
  throw new SimScenarioError(`Invalid scenario field "${field}": ${JSON.stringify(value)} (${allowed})`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optional(
  record: Record<string, unknown>,
  key: string,
  type: 'string' | 'number' | 'boolean',
  field: string,
): void {
  const value = record[key];
  if (value !== undefined && typeof value !== type) fail(`${field}.${key}`, value, `expected a ${type}`);
}

function decodeNode(value: unknown, i: number): NodeSpec {
  const field = `nodes[${i}]`;
  if (!isRecord(value)) fail(field, value, 'expected an object');
  if (typeof value['name'] !== 'string' || value['name'] === '')
    fail(`${field}.name`, value['name'], 'expected a non-empty string');
  for (const key of ['id', 'datacenter', 'class', 'pool']) optional(value, key, 'string', field);
  optional(value, 'eligible', 'boolean', field);
  optional(value, 'capacity', 'number', field);
  const status = value['status'];
  if (status !== undefined && status !== 'ready' && status !== 'down' && status !== 'disconnected') {
    fail(`${field}.status`, status, 'expected "ready", "down" or "disconnected"');
  }
  const meta = value['meta'];
  if (meta !== undefined && !isStringMap(meta)) fail(`${field}.meta`, meta, 'expected an object of strings');
  const drivers = value['drivers'];
  if (drivers !== undefined && !(Array.isArray(drivers) && drivers.every((d) => typeof d === 'string'))) {
    fail(`${field}.drivers`, drivers, 'expected a list of strings');
  }
  return value as unknown as NodeSpec;
}

function isStringMap(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}

function decodeNodePool(value: unknown, i: number): NodePoolSpec {
  const field = `nodePools[${i}]`;
  if (!isRecord(value)) fail(field, value, 'expected an object');
  if (typeof value['name'] !== 'string' || !/^[a-zA-Z0-9-_]{1,128}$/.test(value['name']))
    fail(`${field}.name`, value['name'], 'expected a node pool name: letters, digits, - and _');
  optional(value, 'description', 'string', field);
  if (value['meta'] !== undefined && !isStringMap(value['meta']))
    fail(`${field}.meta`, value['meta'], 'expected an object of strings');
  return value as unknown as NodePoolSpec;
}

function decodeScenarioJob(value: unknown, i: number): Job {
  const inner = isRecord(value) && 'Job' in value ? value['Job'] : value;
  try {
    return decodeJob(inner, `jobs[${i}]`);
  } catch (error) {
    if (error instanceof SimHttpError)
      throw new SimScenarioError(`Invalid scenario field "jobs[${i}]": ${error.message}`, { cause: error });
    throw error;
  }
}

function decodeAcl(value: unknown): AclSpec | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) fail('acl', value, 'expected an object');
  if (typeof value['enabled'] !== 'boolean') fail('acl.enabled', value['enabled'], 'expected a boolean');
  const tokens = value['tokens'] ?? [];
  if (!Array.isArray(tokens)) fail('acl.tokens', tokens, 'expected a list');
  tokens.forEach((t, i) => {
    if (!isRecord(t) || typeof t['secret'] !== 'string' || t['secret'] === '') {
      fail(`acl.tokens[${i}].secret`, isRecord(t) ? '<invalid>' : t, 'expected a non-empty string');
    }
  });
  return value as unknown as AclSpec;
}

function decodeVariable(value: unknown, i: number, namespaces: string[]): ScenarioVariable {
  const field = `variables[${i}]`;
  if (!isRecord(value)) fail(field, value, 'expected an object');
  const namespace = value['namespace'] ?? 'default';
  if (typeof namespace !== 'string' || !['default', ...namespaces].includes(namespace))
    fail(`${field}.namespace`, namespace, 'expected "default" or one of the scenario\'s namespaces');
  const path = value['path'];
  const invalid = typeof path === 'string' ? variablePathError(path) : 'expected a string';
  if (invalid !== undefined) fail(`${field}.path`, path, invalid);
  const items = value['items'];
  if (!isStringMap(items) || Object.keys(items).length === 0)
    fail(`${field}.items`, items, 'expected a non-empty object of strings');
  const age = value['age'];
  if (age !== undefined && !(typeof age === 'string' && (parseGoDuration(age) ?? -1) >= 0))
    fail(`${field}.age`, age, 'expected a Go duration that is not negative, e.g. "1h"');
  return { namespace, path: path as string, items, ...(age === undefined ? {} : { age }) };
}

/**
 * Checks an untrusted scenario (a parsed file or a control-API body).
 * @throws SimScenarioError naming the field and the value.
 */
export function decodeScenario(value: unknown): Scenario {
  if (!isRecord(value)) fail('(root)', value, 'expected an object');
  const namespaces = value['namespaces'] ?? [];
  if (!Array.isArray(namespaces) || !namespaces.every((n) => typeof n === 'string')) {
    fail('namespaces', namespaces, 'expected a list of strings');
  }
  const nodePools = value['nodePools'] ?? [];
  if (!Array.isArray(nodePools)) fail('nodePools', nodePools, 'expected a list');
  const nodes = value['nodes'] ?? [];
  if (!Array.isArray(nodes)) fail('nodes', nodes, 'expected a list');
  const jobs = value['jobs'] ?? [];
  if (!Array.isArray(jobs)) fail('jobs', jobs, 'expected a list');
  const acl = decodeAcl(value['acl']);
  const variables = value['variables'] ?? [];
  if (!Array.isArray(variables)) fail('variables', variables, 'expected a list');
  return {
    namespaces: namespaces as string[],
    nodePools: nodePools.map(decodeNodePool),
    nodes: nodes.map(decodeNode),
    jobs: jobs.map(decodeScenarioJob),
    ...(acl ? { acl } : {}),
    variables: variables.map((v, i) => decodeVariable(v, i, namespaces as string[])),
  };
}

/** Reads and decodes a JSON scenario file. @throws SimScenarioError */
export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readPackagedFile(path);
  } catch (error) {
    throw new SimScenarioError(`Cannot read scenario file "${path}": ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    return decodeScenario(JSON.parse(text));
  } catch (error) {
    if (error instanceof SimScenarioError) throw error;
    throw new SimScenarioError(`Scenario file "${path}" is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The docs example used by the demo: `example` (web ×2, proxy ×3) and `node-monitor` on two nodes. */
export function demoScenario(): Scenario {
  return loadScenarioFile(new URL('./scenarios/demo.json', import.meta.url).pathname);
}
