/**
 * Reads the Task states of a definition and how each is carried out (Lambda, callback, startExecution).
 */
import { UnsupportedStateError } from './errors';
import { functionNameOf } from './private/placeholders';

/** How a Task state's `Resource` is carried out. */
export type TaskIntegration =
  /** `arn:aws:states:::lambda:invoke`: the handler gets `Payload`, the state gets `{ Payload, StatusCode, ... }`. */
  | 'lambda-invoke'
  /** A Lambda ARN as the resource: the handler gets the state input, the state gets the handler's result. */
  | 'lambda-arn'
  /** `arn:aws:states:::states:startExecution`: continue-as-new, run by the engine itself. */
  | 'start-execution'
  /**
   * `arn:aws:states:::states:startExecution.sync` (`.sync:2`): a child execution run through
   * `childExecutions`, the state getting DescribeExecution's answer once it ends.
   */
  | 'start-execution-sync'
  /**
   * `arn:aws:states:::aws-sdk:sfn:describeExecution`: answered from `childExecutions` for the
   * executions the engine started (a child and the executions it continued in).
   */
  | 'describe-execution'
  /** A Distributed Map state, which the engine runs itself (see `prepare-definition.ts`). */
  | 'distributed-map'
  /** Any other service integration: the handler gets the resolved `Parameters`, the state gets its result. */
  | 'other';

/** One Task state, as handed to `taskHandlers` to pick a handler. */
export interface TaskStateInfo {
  /** The state's name (unique in the whole state machine, nested states included). */
  readonly stateName: string;
  /** The `Resource` field exactly as in the definition. */
  readonly resource: string;
  readonly integration: TaskIntegration;
  /** True for `.waitForTaskToken` resources: the result is the task token's answer. */
  readonly waitForTaskToken: boolean;
  /** Logical id of the Lambda function called, when the ASL names it statically. */
  readonly functionLogicalId?: string;
  /** For `start-execution-sync`: 2 for `.sync:2` (Input and Output as JSON), 1 for `.sync` (as strings). */
  readonly syncVersion?: 1 | 2;
}

/**
 * The `Resource` a Distributed Map state is rewritten to before aws-local-stepfunctions sees it
 * (which has no Distributed Map): a Task the engine binds to its own map run.
 */
export const LOCAL_DISTRIBUTED_MAP_RESOURCE = 'arn:aws:states:::local:distributedMap';

const WAIT_FOR_TASK_TOKEN = '.waitForTaskToken';
const LAMBDA_INVOKE = /^arn:[^:]+:states:::lambda:invoke$/;
const START_EXECUTION = /^arn:[^:]+:states:::states:startExecution$/;
const START_EXECUTION_SYNC = /^arn:[^:]+:states:::states:startExecution\.sync(:2)?$/;
const LAMBDA_FUNCTION = /^arn:[^:]+:lambda:/;
const DESCRIBE_EXECUTION = /^arn:[^:]+:states:::aws-sdk:sfn:describeExecution$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeTask(stateName: string, state: Record<string, unknown>): TaskStateInfo {
  const resource = state['Resource'];
  if (typeof resource !== 'string') {
    throw new UnsupportedStateError(`Task state "${stateName}" has no string Resource`);
  }
  const waitForTaskToken = resource.endsWith(WAIT_FOR_TASK_TOKEN);
  const base = waitForTaskToken ? resource.slice(0, -WAIT_FOR_TASK_TOKEN.length) : resource;
  if (resource === LOCAL_DISTRIBUTED_MAP_RESOURCE) {
    return { stateName, resource, integration: 'distributed-map', waitForTaskToken: false };
  }
  if (DESCRIBE_EXECUTION.test(resource)) {
    return { stateName, resource, integration: 'describe-execution', waitForTaskToken: false };
  }
  const sync = START_EXECUTION_SYNC.exec(base);
  if (sync !== null && !waitForTaskToken) {
    const syncVersion = sync[1] === undefined ? 1 : 2;
    return { stateName, resource, integration: 'start-execution-sync', waitForTaskToken, syncVersion };
  }
  if (/\.sync(:\d+)?$/.test(base)) {
    throw new UnsupportedStateError(
      `Task state "${stateName}" uses "${resource}"; the local engine runs only states:startExecution's .sync integrations`,
    );
  }
  const parameters = isRecord(state['Parameters']) ? state['Parameters'] : {};
  const functionName = parameters['FunctionName'];
  const lambdaTask = (
    integration: 'lambda-invoke' | 'lambda-arn',
    functionLogicalId: string | undefined,
  ) => ({
    stateName,
    resource,
    integration,
    waitForTaskToken,
    ...(functionLogicalId === undefined ? {} : { functionLogicalId }),
  });
  if (LAMBDA_INVOKE.test(base))
    return lambdaTask(
      'lambda-invoke',
      typeof functionName === 'string' ? functionNameOf(functionName) : undefined,
    );
  if (START_EXECUTION.test(base)) {
    return { stateName, resource, integration: 'start-execution', waitForTaskToken };
  }
  if (LAMBDA_FUNCTION.test(base)) return lambdaTask('lambda-arn', functionNameOf(base));
  return { stateName, resource, integration: 'other', waitForTaskToken };
}

function collect(states: unknown, into: TaskStateInfo[]): void {
  if (!isRecord(states)) return;
  for (const [name, state] of Object.entries(states)) {
    if (!isRecord(state)) continue;
    if (state['Type'] === 'Task') into.push(describeTask(name, state));
    for (const nested of [state['Iterator'], state['ItemProcessor']]) {
      if (isRecord(nested)) collect(nested['States'], into);
    }
    if (Array.isArray(state['Branches'])) {
      for (const branch of state['Branches']) if (isRecord(branch)) collect(branch['States'], into);
    }
  }
}

/**
 * Lists every Task state of a definition (inside Map and Parallel states too) with how the
 * local engine will run it.
 * @throws UnsupportedStateError for a Task the local engine cannot run (`.sync` of other services)
 */
export function describeTaskStates(definition: object): TaskStateInfo[] {
  const tasks: TaskStateInfo[] = [];
  collect((definition as Record<string, unknown>)['States'], tasks);
  return tasks;
}
