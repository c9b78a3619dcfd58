/**
 * The integrations the local engine carries out itself besides continue-as-new: the child of a
 * `states:startExecution.sync` Task, DescribeExecution of the children, and the map run of a Distributed Map, whose items run as
 * executions of their own through the same engine.
 */
import { TaskBindingError } from '../errors';
import type { LocalExecution, RunLocalExecutionOptions } from '../types';
import type { DistributedMapSpec, MapRunParameters } from './distributed-map-spec';
import { runMapRun } from './map-run';
import { prepareDefinition } from './prepare-definition';
import { type BoundTask, bindTasks, type ExecutionDeps } from './task-bindings';
import { EngineRuntimeFailure } from './task-failures';

type RunExecution = (definition: object, options: RunLocalExecutionOptions) => LocalExecution;

/**
 * Refuses, before anything runs, what the engine could not carry out: a `.sync` Task without
 * `childExecutions`, a Distributed Map reading or writing S3 without `objectStore`, and any
 * unbound Task inside an item processor.
 * @throws TaskBindingError naming each
 */
export function checkEngineIntegrations(
  tasks: ReadonlyMap<string, BoundTask>,
  maps: ReadonlyMap<string, DistributedMapSpec>,
  options: RunLocalExecutionOptions,
): void {
  const problems: string[] = [];
  for (const { info } of tasks.values()) {
    if (info.integration === 'start-execution-sync' && options.childExecutions === undefined)
      problems.push(
        `"${info.stateName}" (${info.resource}) starts child executions but no childExecutions was given`,
      );
    if (info.integration === 'describe-execution' && options.childExecutions === undefined)
      problems.push(
        `"${info.stateName}" (${info.resource}) describes child executions but no childExecutions was given`,
      );
  }
  for (const spec of maps.values()) {
    if ((spec.itemReader ?? spec.resultWriter) !== undefined && options.objectStore === undefined)
      problems.push(`Distributed Map "${spec.stateName}" reads or writes S3 but no objectStore was given`);
    const processor = prepareDefinition(spec.processor);
    try {
      const inner = bindTasks(
        processor.definition,
        processor.taskTimeoutsMs,
        options.taskHandlers,
        options.answerTaskToken,
      );
      checkEngineIntegrations(inner, processor.distributedMaps, options);
    } catch (error) {
      if (!(error instanceof TaskBindingError)) throw error;
      problems.push(`in the item processor of "${spec.stateName}": ${error.message}`);
    }
  }
  if (problems.length > 0)
    throw new TaskBindingError(`cannot run the state machine locally: ${problems.join('; ')}`);
}

/** `startExecutionSync` and `runDistributedMap` for the executions of one state machine. */
export function engineIntegrations(
  maps: ReadonlyMap<string, DistributedMapSpec>,
  options: RunLocalExecutionOptions,
  stateMachineArn: string,
  runExecution: RunExecution,
): Pick<ExecutionDeps, 'startExecutionSync' | 'describeExecution' | 'runDistributedMap'> {
  return {
    startExecutionSync: (parameters, version, signal) => {
      if (options.childExecutions === undefined)
        throw new EngineRuntimeFailure('no childExecutions to run a .sync child');
      return options.childExecutions.startSync(parameters, version, signal);
    },
    describeExecution: (parameters) => {
      if (options.childExecutions === undefined)
        throw new EngineRuntimeFailure('no childExecutions to describe an execution');
      return options.childExecutions.describe(parameters);
    },
    runDistributedMap: (stateName, parameters, signal) => {
      const spec = maps.get(stateName);
      if (spec === undefined) throw new EngineRuntimeFailure(`"${stateName}" is not a Distributed Map`);
      return runMapRun(spec, parameters as MapRunParameters, {
        stateMachineArn,
        signal,
        ...(options.objectStore === undefined ? {} : { store: options.objectStore }),
        runItem: async (item) => {
          const startDate = Date.now();
          const { childExecutions, objectStore, onItemExecutionEnded, answerTaskToken } = options;
          const { waitTimeOverrides, retryIntervalOverrides } = options;
          const run = runExecution(spec.processor, {
            input: item.input,
            executionName: item.name,
            stateMachineArn: item.arn.replace(/:execution:(.*):[^:]+$/, ':stateMachine:$1'),
            taskHandlers: options.taskHandlers,
            // Validated with the parent's definition: not once per item.
            validate: false,
            signal: item.signal,
            ...(answerTaskToken === undefined ? {} : { answerTaskToken }),
            ...(childExecutions === undefined ? {} : { childExecutions }),
            ...(objectStore === undefined ? {} : { objectStore }),
            ...(onItemExecutionEnded === undefined ? {} : { onItemExecutionEnded }),
            ...(waitTimeOverrides === undefined ? {} : { waitTimeOverrides }),
            ...(retryIntervalOverrides === undefined ? {} : { retryIntervalOverrides }),
          });
          const result = await run.result;
          const [first] = result.executions;
          if (first === undefined) throw new Error('unreachable: an item always runs one execution');
          const end = { ...first, startDate, stopDate: Date.now() };
          onItemExecutionEnded?.({
            ...first,
            mapRunArn: item.mapRunArn,
            index: item.index,
            input: item.input,
          });
          return end;
        },
      });
    },
  };
}
