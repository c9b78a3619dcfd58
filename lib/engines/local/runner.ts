/**
 * Runs any state machine definition in-process (aws-local-stepfunctions), following continue-as-new;
 * the restart-specific wiring is in engine.ts.
 */
import { randomUUID } from 'node:crypto';
import { StateMachine } from 'aws-local-stepfunctions';
import { InvalidDefinitionError } from './errors';
import { checkEngineIntegrations, engineIntegrations } from './private/engine-integrations';
import { executionArn, stateMachineArn as localStateMachineArn } from './private/placeholders';
import { prepareDefinition } from './private/prepare-definition';
import { runSingleExecution } from './private/single-run';
import { startRequestOf } from './private/start-request';
import { bindTasks } from './private/task-bindings';
import { EngineRuntimeFailure } from './private/task-failures';
import { sumStats } from './stats';
import type {
  ExecutionResult,
  ExecutionSummary,
  LocalExecution,
  NextExecutionRequest,
  RunLocalExecutionOptions,
} from './types';

/** Default `maxExecutions`: enough for a 50,000-allocation restart at any batches-per-execution. */
const DEFAULT_MAX_EXECUTIONS = 1000;

type Definition = ConstructorParameters<typeof StateMachine>[0];

function createMachine(definition: Record<string, unknown>, validate: boolean): StateMachine {
  try {
    return new StateMachine(definition as unknown as Definition, {
      validationOptions: { noValidate: !validate },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new InvalidDefinitionError(message, { cause: error });
  }
}

/**
 * Checks a definition as written (a Distributed Map included) with asl-validator, through
 * aws-local-stepfunctions, which would otherwise run some invalid definitions wrongly.
 * @throws InvalidDefinitionError naming what asl-validator refused
 */
export function validateDefinition(definition: object): void {
  // A copy: asl-validator writes its defaults (QueryLanguage) into the definition it checks.
  createMachine(JSON.parse(JSON.stringify(definition)) as Record<string, unknown>, true);
}

/**
 * Runs a state machine definition in-process with aws-local-stepfunctions, binding each Task
 * state to a local handler, answering `.waitForTaskToken` states through `answerTaskToken`,
 * and following continue-as-new (`states:startExecution` of itself) by running the next
 * execution once the current one ends, as the console follows a chain.
 *
 * `states:startExecution.sync` Tasks run their child through `options.childExecutions`, and
 * Distributed Maps are run by the engine (items from `options.objectStore`, each item an
 * execution of its own: see `private/map-run.ts`).
 *
 * Bindings are checked before anything runs: an unbound Task throws `TaskBindingError`, an
 * invalid definition `InvalidDefinitionError`, a `.sync` of another service or a JSONata state
 * `UnsupportedStateError`.
 * Workflow failures do not throw: they come back as `status: 'FAILED'` with their ASL error.
 */
export function runLocalExecution(definition: object, options: RunLocalExecutionOptions): LocalExecution {
  // Validated as written, then run as rewritten for the library.
  if (options.validate ?? true) validateDefinition(definition);
  const prepared = prepareDefinition(definition);
  const tasks = bindTasks(
    prepared.definition,
    prepared.taskTimeoutsMs,
    options.taskHandlers,
    options.answerTaskToken,
  );
  checkEngineIntegrations(tasks, prepared.distributedMaps, options);
  const machine = createMachine(prepared.definition, false);
  // A redrive goes on at the state that did not succeed; continued executions start as usual.
  const firstMachine =
    options.redrive === undefined
      ? machine
      : createMachine({ ...prepared.definition, StartAt: options.redrive.fromState }, false);
  const ownArn = options.stateMachineArn ?? localStateMachineArn('local');
  const integrations = engineIntegrations(prepared.distributedMaps, options, ownArn, runLocalExecution);
  const maxExecutions = options.maxExecutions ?? DEFAULT_MAX_EXECUTIONS;

  const controller = new AbortController();
  const abort = () => controller.abort();
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener('abort', abort, { once: true });

  const runChain = async (): Promise<ExecutionResult> => {
    const startedAt = Date.now();
    const executions: ExecutionSummary[] = [];
    let current: { name: string; input: unknown } | undefined = {
      name: options.executionName ?? randomUUID(),
      input: options.input,
    };
    while (current !== undefined) {
      const arn = executionArn(ownArn, current.name);
      let request: NextExecutionRequest | undefined;
      const executionNumber = executions.length + 2;
      const first = executions.length === 0;
      const ended = await runSingleExecution({
        machine: first ? firstMachine : machine,
        redriveCount: first && options.redrive !== undefined ? 1 : 0,
        tasks,
        input: current.input,
        executionArn: arn,
        executionName: current.name,
        stateMachineArn: ownArn,
        signal: controller.signal,
        ...(options.answerTaskToken === undefined ? {} : { answerTaskToken: options.answerTaskToken }),
        callbacks: options,
        overrides: options,
        ...integrations,
        startExecution: (parameters) => {
          const asked = startRequestOf(parameters);
          if (asked.arn !== ownArn) {
            throw new EngineRuntimeFailure(
              `states:startExecution of "${asked.arn}": the local engine only continues "${ownArn}" as new`,
            );
          }
          if (request !== undefined) {
            throw new EngineRuntimeFailure(
              'states:startExecution ran twice in one execution; only one continuation can be followed',
            );
          }
          if (executionNumber > maxExecutions) {
            throw new EngineRuntimeFailure(`continue-as-new past maxExecutions (${maxExecutions})`);
          }
          const name = asked.name ?? randomUUID();
          request = {
            stateMachineArn: ownArn,
            name,
            input: asked.input,
            previousExecutionArn: arn,
            executionNumber,
          };
          return { ExecutionArn: executionArn(ownArn, name), StartDate: Date.now() };
        },
      });
      const summary: ExecutionSummary = { executionArn: arn, name: current.name, ...ended };
      executions.push(summary);
      options.onExecutionEnded?.(summary);
      current = undefined;
      // As on AWS, the started execution runs whatever its parent did afterwards, unless the user aborted.
      const follow: NextExecutionRequest | undefined = ended.status === 'ABORTED' ? undefined : request;
      if (
        follow !== undefined &&
        ((await options.startNextExecution?.(follow)) ?? true) &&
        !controller.signal.aborted
      ) {
        current = { name: follow.name, input: follow.input };
      }
    }
    const last = executions.at(-1);
    if (last === undefined) throw new Error('unreachable: the chain always runs one execution');
    const { executionArn: _arn, name: _name, stats: _stats, ...ending } = last;
    return {
      ...ending,
      stats: sumStats(
        executions.map((e) => e.stats),
        Date.now() - startedAt,
      ),
      executions,
    };
  };

  const result = runChain().finally(() => options.signal?.removeEventListener('abort', abort));
  return { abort, result };
}
