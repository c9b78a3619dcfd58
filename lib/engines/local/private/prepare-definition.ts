/**
 * Readies a synthesized definition for aws-local-stepfunctions: task timeouts the engine can hold
 * and the states it cannot run refused up front.
 */
import { UnsupportedStateError } from '../errors';
import { type DistributedMapSpec, isDistributedMap, rewriteDistributedMap } from './distributed-map-spec';

/**
 * Node timers hold at most 2^31-1 ms (about 24.8 days); a longer `TimeoutSeconds` would make the
 * engine's timer fire at once.
 */
export const MAX_TASK_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** A definition ready for aws-local-stepfunctions, plus what the bindings need to know about it. */
export interface PreparedDefinition {
  readonly definition: Record<string, unknown>;
  /** Static `TimeoutSeconds` of Task states that declare one, by state name, in milliseconds. */
  readonly taskTimeoutsMs: ReadonlyMap<string, number>;
  /** The Distributed Map states, rewritten to Tasks the engine runs, by state name. */
  readonly distributedMaps: ReadonlyMap<string, DistributedMapSpec>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuseJsonata(where: string, node: Record<string, unknown>): void {
  if (node['QueryLanguage'] === 'JSONata' || 'Assign' in node) {
    throw new UnsupportedStateError(
      `${where} uses JSONata or variables (Assign); the local engine runs JSONPath definitions only`,
    );
  }
}

/**
 * Rewrites two spellings aws-local-stepfunctions 3.0 gets wrong into equivalent ones it runs
 * as Step Functions does:
 * - `ResultPath: "$"` (the default) would add a `"$"` key instead of replacing the input;
 * - a Pass state's falsy `Result` (`0`, `false`, `""`, `null`) would be ignored and the input
 *   passed through; a constant `Parameters` gives the same value.
 */
function normalize(state: Record<string, unknown>): void {
  if (state['ResultPath'] === '$') delete state['ResultPath'];
  if (Array.isArray(state['Catch'])) {
    for (const catcher of state['Catch'])
      if (isRecord(catcher) && catcher['ResultPath'] === '$') delete catcher['ResultPath'];
  }
  if (state['Type'] === 'Pass' && 'Result' in state && !state['Result']) {
    state['Parameters'] = state['Result'];
    delete state['Result'];
  }
}

function prepareStates(
  states: unknown,
  timeouts: Map<string, number>,
  maps: Map<string, DistributedMapSpec>,
): void {
  if (!isRecord(states)) return;
  for (const [name, found] of Object.entries(states)) {
    if (!isRecord(found)) continue;
    refuseJsonata(`state "${name}"`, found);
    let state = found;
    if (isDistributedMap(found)) {
      // Its item processor is a definition of its own, prepared when each item runs.
      const { task, spec } = rewriteDistributedMap(name, found);
      states[name] = state = task;
      maps.set(name, spec);
    }
    normalize(state);
    if (state['Type'] === 'Task') {
      const seconds = state['TimeoutSeconds'];
      if (typeof seconds === 'number') {
        timeouts.set(name, seconds * 1000);
      } else if (state['TimeoutSecondsPath'] === undefined) {
        // aws-local-stepfunctions times a Task out after 60 s by default; Step Functions never
        // does (99999999 s). A human answering a question or a long await must not be cut short.
        state['TimeoutSeconds'] = MAX_TASK_TIMEOUT_SECONDS;
      }
    }
    for (const nested of [state['Iterator'], state['ItemProcessor']]) {
      if (isRecord(nested)) prepareStates(nested['States'], timeouts, maps);
    }
    if (Array.isArray(state['Branches'])) {
      for (const branch of state['Branches'])
        if (isRecord(branch)) prepareStates(branch['States'], timeouts, maps);
    }
  }
}

/**
 * Copies a definition and adapts it to the local engine: Task states without a timeout get the
 * longest one a Node timer allows, two engine quirks are spelled around (see `normalize`),
 * Distributed Maps become Tasks the engine runs (`distributed-map-spec.ts`), and
 * JSONata/variables are refused up front.
 * @throws UnsupportedStateError for JSONata, `Assign`, or a Distributed Map feature the engine does not run
 */
export function prepareDefinition(definition: object): PreparedDefinition {
  // A JSON copy, not structuredClone: aws-local-stepfunctions only resolves nested Parameters
  // templates in objects whose prototype is its own realm's Object.prototype, and
  // structuredClone builds them in Node's main realm (which differs under jest's VM contexts).
  const copy = JSON.parse(JSON.stringify(definition)) as Record<string, unknown>;
  refuseJsonata('the state machine', copy);
  const taskTimeoutsMs = new Map<string, number>();
  const distributedMaps = new Map<string, DistributedMapSpec>();
  prepareStates(copy['States'], taskTimeoutsMs, distributedMaps);
  return { definition: copy, taskTimeoutsMs, distributedMaps };
}
