/**
 * The child executions `arn:aws:states:::states:startExecution.sync` (and `.sync:2`) Tasks start,
 * answered as Step Functions answers them: the state waits for the started execution to end and
 * gets DescribeExecution's response; a child that did not succeed fails the state with
 * `States.TaskFailed` and that response as the cause.
 * (https://docs.aws.amazon.com/step-functions/latest/dg/connect-stepfunctions.html)
 */
import { randomUUID } from 'node:crypto';
import {
  ContinuedExecutions,
  describedStatus,
  executionDoesNotExist,
  type KnownExecution,
  sdkDescription,
} from './private/execution-descriptions';
import { executionArn } from './private/placeholders';
import { startRequestOf } from './private/start-request';
import { EngineRuntimeFailure, TaskFailure } from './private/task-failures';
import type { ChildExecutionStarter, ExecutionSummary } from './types';

/** A child execution to run. */
export interface ChildExecutionRequest {
  readonly stateMachineArn: string;
  /** `$$.Execution.Name` of the child. */
  readonly name: string;
  readonly executionArn: string;
  readonly input: unknown;
  /** Aborted when Step Functions would call StopExecution on the child (its parent stopped). */
  readonly signal: AbortSignal;
  /**
   * To call as each execution the child continued in ends (not the child's own end, which
   * settles the runner's promise), so DescribeExecution follows the chain.
   */
  readonly onContinuedExecutionEnded: (summary: ExecutionSummary) => void;
}

/**
 * Runs a child execution and settles when *that* execution ends, as `.sync` waits for it: a
 * child that continues as new ends there (its continuation runs on, unawaited), as on AWS.
 */
export type ChildExecutionRunner = (request: ChildExecutionRequest) => Promise<ExecutionSummary>;

interface Started extends KnownExecution {
  readonly input: string;
  readonly stop: AbortController;
  /** Set when the child's run threw (a bug in the engine or a callback, not a workflow failure). */
  engineError?: unknown;
  readonly done: Promise<void>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every child execution started by `.sync` Tasks during one local run (a fleet and all its
 * items share one instance), so a retried start with the same `Name` behaves as on AWS: while
 * the first execution runs, the same name and input attach to it (it runs once); once it ended,
 * or with another input, the start fails with `StepFunctions.ExecutionAlreadyExistsException`.
 * (https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html)
 */
export class LocalChildExecutions implements ChildExecutionStarter {
  private readonly started = new Map<string, Started>();
  private readonly continued = new ContinuedExecutions();

  constructor(private readonly run: ChildExecutionRunner) {}

  /** How many distinct child executions were started. */
  get count(): number {
    return this.started.size;
  }

  /**
   * Starts (or attaches to) the child named by a `.sync` Task's resolved `Parameters` and waits
   * for it; aborting `signal` stops the child (Step Functions calls StopExecution).
   * @returns DescribeExecution's response: `Input`/`Output` as JSON for `.sync:2`, strings for `.sync`
   * @throws TaskFailure `States.TaskFailed` when the child did not succeed
   */
  async startSync(
    parameters: unknown,
    version: 1 | 2,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const asked = startRequestOf(parameters);
    const request = { ...asked, name: asked.name ?? randomUUID() };
    const arn = executionArn(request.arn, request.name);
    const input = JSON.stringify(request.input);
    let started = this.started.get(arn);
    const closed = started?.ended !== undefined || started?.engineError !== undefined;
    if (started !== undefined && (closed || started.input !== input)) {
      throw new TaskFailure(
        'StepFunctions.ExecutionAlreadyExistsException',
        `Execution Already Exists: '${arn}'`,
      );
    }
    if (started === undefined) started = this.start(arn, request, input);
    const stop = () => started.stop.abort();
    signal.addEventListener('abort', stop, { once: true });
    try {
      await started.done;
    } finally {
      signal.removeEventListener('abort', stop);
    }
    const ended = started.ended;
    if (ended === undefined) {
      const message =
        started.engineError instanceof Error ? started.engineError.message : String(started.engineError);
      throw new EngineRuntimeFailure(`the child execution ${arn} could not run: ${message}`);
    }
    const response = describeExecution(request, arn, started, ended, version);
    if (ended.summary.status !== 'SUCCEEDED')
      throw new TaskFailure('States.TaskFailed', JSON.stringify(response));
    return response;
  }

  /**
   * `aws-sdk:sfn:describeExecution` of a child or of an execution it continued in, as the SDK
   * integration answers it (a running one is `RUNNING`).
   * @throws TaskFailure `Sfn.ExecutionDoesNotExistException` for an ARN the engine never started
   */
  describe(parameters: unknown): Record<string, unknown> {
    const arn = isRecord(parameters) ? parameters['ExecutionArn'] : undefined;
    if (typeof arn !== 'string')
      throw new TaskFailure('Sfn.ValidationException', 'ExecutionArn must be a string');
    const known = this.started.get(arn) ?? this.continued.get(arn);
    if (known === undefined) throw executionDoesNotExist(arn);
    return sdkDescription(arn, known);
  }

  private start(arn: string, request: { arn: string; name: string; input: unknown }, input: string): Started {
    const stop = new AbortController();
    const started: Started = {
      stateMachineArn: request.arn,
      name: request.name,
      input,
      startDate: Date.now(),
      stop,
      done: this.run({
        stateMachineArn: request.arn,
        name: request.name,
        executionArn: arn,
        input: request.input,
        signal: stop.signal,
        onContinuedExecutionEnded: (summary) => this.continued.ended(summary, request.arn),
      }).then(
        (summary) => {
          started.ended = { summary, stopDate: Date.now() };
          this.continued.ended(summary, request.arn);
        },
        (error: unknown) => {
          started.engineError = error;
        },
      ),
    };
    this.started.set(arn, started);
    return started;
  }
}

function describeExecution(
  request: { arn: string; name: string; input: unknown },
  arn: string,
  started: Started,
  ended: NonNullable<Started['ended']>,
  version: 1 | 2,
): Record<string, unknown> {
  const { summary } = ended;
  const status = describedStatus(summary);
  const asJson = version === 2;
  const output = summary.status === 'SUCCEEDED' ? (summary.output ?? null) : undefined;
  return {
    ExecutionArn: arn,
    Input: asJson ? request.input : started.input,
    InputDetails: { Included: true },
    Name: request.name,
    ...(output === undefined
      ? {}
      : { Output: asJson ? output : JSON.stringify(output), OutputDetails: { Included: true } }),
    ...(summary.error === undefined ? {} : { Error: summary.error }),
    ...(summary.cause === undefined ? {} : { Cause: summary.cause }),
    RedriveCount: 0,
    StartDate: started.startDate,
    StateMachineArn: request.arn,
    Status: status,
    StopDate: ended.stopDate,
  };
}
