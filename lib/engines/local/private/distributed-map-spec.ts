/**
 * Rewrites a Distributed Map state (which aws-local-stepfunctions cannot run) into a Task state
 * the engine binds to its own map run: the Map's input processing (`InputPath`), result handling
 * (`ResultSelector`, `ResultPath`, `OutputPath`), `Retry` and `Catch` stay where the library
 * applies them to any Task, and the dynamic fields (`ItemReader`'s and `ResultWriter`'s
 * `Parameters`, the `...Path` limits) become the Task's `Parameters`, resolved by the library
 * on the state input exactly as Step Functions resolves them.
 * (https://docs.aws.amazon.com/step-functions/latest/dg/state-map-distributed.html)
 */
import { UnsupportedStateError } from '../errors';
import { LOCAL_DISTRIBUTED_MAP_RESOURCE } from '../task-states';

/** What a map run needs that the rewritten Task does not carry: the static part of the Map state. */
export interface DistributedMapSpec {
  /** The Map state's name. */
  readonly stateName: string;
  /** `Label`, or the state name: the map run's and item executions' ARNs name it. */
  readonly label: string;
  /** The item processor, as a definition of its own (`StartAt`, `States`). */
  readonly processor: Record<string, unknown>;
  /** `ItemSelector` (or the older `Parameters`): each item's input, or the item itself when absent. */
  readonly itemSelector?: unknown;
  /** `ItemReader.Resource` and `ReaderConfig`, when items come from S3. */
  readonly itemReader?: { readonly resource: string; readonly readerConfig: Record<string, unknown> };
  /** `ResultWriter.Resource`, when results go to S3. */
  readonly resultWriter?: { readonly resource: string };
  /** Static `MaxConcurrency` (0 = no limit, as Step Functions). */
  readonly maxConcurrency?: number;
  readonly toleratedFailureCount?: number;
  readonly toleratedFailurePercentage?: number;
}

/** The resolved `Parameters` of a rewritten Map state, as the map run receives them. */
export interface MapRunParameters {
  /** The Map state's effective input (`$` of `ItemSelector`). */
  readonly input: unknown;
  /** The items, when no `ItemReader` is given (`ItemsPath`). */
  readonly items?: unknown;
  readonly reader?: unknown;
  readonly writer?: unknown;
  readonly maxConcurrency?: unknown;
  readonly toleratedFailureCount?: unknown;
  readonly toleratedFailurePercentage?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a Map state whose item processor runs in `DISTRIBUTED` mode. */
export function isDistributedMap(state: Record<string, unknown>): boolean {
  const processor = state['ItemProcessor'];
  return (
    state['Type'] === 'Map' &&
    isRecord(processor) &&
    isRecord(processor['ProcessorConfig']) &&
    processor['ProcessorConfig']['Mode'] === 'DISTRIBUTED'
  );
}

/** A static number field, or the `...Path` twin as a resolved parameter. */
function staticOrPath(
  state: Record<string, unknown>,
  field: string,
  parameters: Record<string, unknown>,
  key: string,
): number | undefined {
  const path = state[`${field}Path`];
  if (typeof path === 'string') parameters[`${key}.$`] = path;
  const value = state[field];
  return typeof value === 'number' ? value : undefined;
}

const KEPT_FIELDS = [
  'InputPath',
  'ResultPath',
  'ResultSelector',
  'OutputPath',
  'Retry',
  'Catch',
  'Next',
  'End',
];

/**
 * The Task state that stands in for Distributed Map `name`, and the spec its map run reads.
 * @throws UnsupportedStateError for what the local engine does not run (`ItemBatcher`, an
 *   `ItemReader` other than a JSON file from `s3:getObject`, a `ResultWriter` with `WriterConfig`)
 */
export function rewriteDistributedMap(
  name: string,
  state: Record<string, unknown>,
): { task: Record<string, unknown>; spec: DistributedMapSpec } {
  const where = `Distributed Map "${name}"`;
  if ('ItemBatcher' in state)
    throw new UnsupportedStateError(`${where} uses ItemBatcher, which the local engine does not run`);
  const processor = state['ItemProcessor'] as Record<string, unknown>;
  const parameters: Record<string, unknown> = { 'input.$': '$' };
  const reader = state['ItemReader'];
  let itemReader: DistributedMapSpec['itemReader'];
  if (isRecord(reader)) {
    const readerConfig = isRecord(reader['ReaderConfig']) ? reader['ReaderConfig'] : {};
    if (
      !/^arn:[^:]+:states:::s3:getObject$/.test(String(reader['Resource'])) ||
      readerConfig['InputType'] !== 'JSON'
    ) {
      throw new UnsupportedStateError(
        `${where} reads items with ${JSON.stringify(reader['Resource'])} (${JSON.stringify(readerConfig['InputType'])}); the local engine reads only JSON files (s3:getObject, InputType JSON)`,
      );
    }
    itemReader = { resource: String(reader['Resource']), readerConfig };
    parameters['reader'] = reader['Parameters'] ?? {};
  } else {
    parameters['items.$'] = typeof state['ItemsPath'] === 'string' ? state['ItemsPath'] : '$';
  }
  const writer = state['ResultWriter'];
  let resultWriter: DistributedMapSpec['resultWriter'];
  if (isRecord(writer)) {
    if ('WriterConfig' in writer || !/^arn:[^:]+:states:::s3:putObject$/.test(String(writer['Resource']))) {
      throw new UnsupportedStateError(
        `${where} writes results with ${JSON.stringify(writer)}; the local engine writes only s3:putObject results without WriterConfig`,
      );
    }
    resultWriter = { resource: String(writer['Resource']) };
    parameters['writer'] = writer['Parameters'] ?? {};
  }
  const maxConcurrency = staticOrPath(state, 'MaxConcurrency', parameters, 'maxConcurrency');
  const toleratedFailureCount = staticOrPath(
    state,
    'ToleratedFailureCount',
    parameters,
    'toleratedFailureCount',
  );
  const toleratedFailurePercentage = staticOrPath(
    state,
    'ToleratedFailurePercentage',
    parameters,
    'toleratedFailurePercentage',
  );
  const itemSelector = state['ItemSelector'] ?? state['Parameters'];
  const { ProcessorConfig: _config, ...definition } = processor;
  const task: Record<string, unknown> = {
    Type: 'Task',
    Resource: LOCAL_DISTRIBUTED_MAP_RESOURCE,
    Parameters: parameters,
  };
  for (const field of KEPT_FIELDS) if (field in state) task[field] = state[field];
  return {
    task,
    spec: {
      stateName: name,
      label: typeof state['Label'] === 'string' ? state['Label'] : name,
      processor: definition,
      ...(itemSelector === undefined ? {} : { itemSelector }),
      ...(itemReader === undefined ? {} : { itemReader }),
      ...(resultWriter === undefined ? {} : { resultWriter }),
      ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
      ...(toleratedFailureCount === undefined ? {} : { toleratedFailureCount }),
      ...(toleratedFailurePercentage === undefined ? {} : { toleratedFailurePercentage }),
    },
  };
}
