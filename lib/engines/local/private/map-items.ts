/**
 * A map run's inputs: its limits (static or from a `...Path`), its items (read from the plan
 * store by `ItemReader`, or the input's array), and each item's input (`ItemSelector`).
 */
import { StateMachine } from 'aws-local-stepfunctions';
import type { LocalObjectStore } from '../types';
import type { DistributedMapSpec, MapRunParameters } from './distributed-map-spec';
import { EngineRuntimeFailure, TaskFailure } from './task-failures';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A limit from the definition or from its `...Path`: a whole number ≥ 0 (percentage ≤ 100). */
export function limitOf(
  name: string,
  resolved: unknown,
  fixed: number | undefined,
  max?: number,
): number | undefined {
  const value = resolved ?? fixed;
  if (value === undefined) return undefined;
  const whole = name !== 'ToleratedFailurePercentage';
  if (
    typeof value !== 'number' ||
    value < 0 ||
    (whole && !Number.isInteger(value)) ||
    (max !== undefined && value > max)
  ) {
    throw new EngineRuntimeFailure(
      `${name} must be a ${whole ? 'whole ' : ''}number from 0${max === undefined ? '' : ` to ${max}`}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * The items: the JSON array `ItemReader` names in the plan store, or (without one) the input's.
 * @throws TaskFailure `States.ItemReaderFailed` when it cannot be read or is no array
 */
export async function readItems(
  spec: DistributedMapSpec,
  parameters: MapRunParameters,
  store: LocalObjectStore | undefined,
): Promise<unknown[]> {
  if (spec.itemReader === undefined) {
    if (!Array.isArray(parameters.items)) {
      throw new TaskFailure(
        'States.Runtime',
        `The Map state's items are not an array: ${JSON.stringify(parameters.items)?.slice(0, 200)}`,
      );
    }
    return parameters.items;
  }
  const reader = isRecord(parameters.reader) ? parameters.reader : {};
  const key = reader['Key'];
  if (store === undefined)
    throw new EngineRuntimeFailure(
      `Distributed Map "${spec.stateName}" reads items from S3 but the run was given no objectStore`,
    );
  if (typeof key !== 'string')
    throw new TaskFailure(
      'States.ItemReaderFailed',
      `ItemReader Parameters.Key is not a string: ${JSON.stringify(key)}`,
    );
  let items: unknown;
  try {
    items = await store.get(key);
  } catch (error) {
    throw new TaskFailure(
      'States.ItemReaderFailed',
      `Cannot read s3://${String(reader['Bucket'])}/${key}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!Array.isArray(items)) {
    throw new TaskFailure(
      'States.ItemReaderFailed',
      `s3://${String(reader['Bucket'])}/${key} is not a JSON array`,
    );
  }
  return items;
}

/** Builds each item's input from `ItemSelector` with `$$.Map.Item.Value`/`Index`, as a Pass state would. */
export function itemSelector(
  spec: DistributedMapSpec,
  input: unknown,
): (value: unknown, index: number) => Promise<unknown> {
  if (spec.itemSelector === undefined) return async (value) => value;
  const machine = new StateMachine(
    {
      StartAt: 'ItemSelector',
      States: { ItemSelector: { Type: 'Pass', Parameters: spec.itemSelector, End: true } },
    } as never,
    { validationOptions: { noValidate: true } },
  );
  // A fresh copy each time: the library's States.JsonMerge changes its first argument in place.
  const text = JSON.stringify(input ?? null);
  return (value, index) =>
    machine.run(JSON.parse(text) as never, { context: { Map: { Item: { Value: value, Index: index } } } })
      .result as Promise<unknown>;
}
