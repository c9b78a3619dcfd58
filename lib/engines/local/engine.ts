/**
 * The local engine: the state machine synthesized from the CDK stack, run in-process by
 * aws-local-stepfunctions, with every Task bound to the same `lambdas/*.ts` handler (through
 * its middy chain) that the Lambda runs on AWS. The Nomad client configuration (address, token,
 * TLS, region) reaches the handlers on their Lambda context, never through the execution input
 * or `process.env`; plan store, lock and approvals are the handlers' in-memory twins.
 */
import type { ControlRequest } from '../../control/requests';
import type { NomadClientConfig } from '../../nomad/config';
import type { ProgressEvent } from '../../restart/events';
import type { RestartInput } from '../../restart/input';
import type { LocalInvocation } from '../../steps/kit/local-invocation';
import type { WorkflowState } from '../../workflow/payloads';
import { ASK_STATE_NAME, TASK_STATE_HANDLERS, TaskStates } from '../../workflow/state-names';
import { eventSink } from './event-sink';
import {
  createGate,
  type InvocationInterceptor,
  type LambdaTaskOptions,
  lambdaTaskHandler,
  localInvocation,
} from './lambda-tasks';
import { type LocalStateMachine, loadLocalDefinition } from './local-definition';
import { answeringMade, type MadeSteps, refuseMadeElsewhere } from './made-steps';
import { pauseRequests } from './pause-requests';
import { type Prompt, promptAnswerer } from './prompt-answerer';
import { runLocalExecution } from './runner';
import { localRunLease } from './shared-lock-keeper';
import type { LocalTaskTokenCallbacks } from './task-token-callbacks';
import type {
  ExecutionResult,
  ExecutionSummary,
  RedriveRequest,
  TaskHandler,
  TaskTokenAnswerer,
} from './types';

export { type InvocationInterceptor, localInvocation } from './lambda-tasks';
export type { Prompt, PromptReply } from './prompt-answerer';

/**
 * How long each local "invocation" may run. An await slice returns its cursor before this
 * (like a Lambda before its timeout) and the graph loops, exactly as on AWS.
 */
export const LOCAL_INVOCATION_BUDGET_MS = 15 * 60 * 1000;

export interface LocalRestartRequest {
  /** The execution input (options only; no secret ever travels here). */
  readonly input: RestartInput;
  /**
   * The Nomad client configuration every handler uses, as the command resolved it.
   * @default - each handler resolves it from this process's `NOMAD_*` variables, as on Lambda
   */
  readonly nomad?: NomadClientConfig;
  /**
   * Consul's client configuration for `-wait-healthy`'s Consul reads, as the command resolved it.
   * @default - each handler resolves it from this process's `CONSUL_*` variables, as on Lambda
   */
  readonly consul?: LocalInvocation['consul'];
  /**
   * Reads the `-stop-on-alarm` alarms (the command's CloudWatch client: its credentials, its region).
   * @default - each handler makes one from this process's AWS settings, as on Lambda
   */
  readonly alarms?: LocalInvocation['alarms'];
  /** Called with each progress event once, as it happens (a running step streams its events). */
  readonly emit: (event: ProgressEvent) => void;
  /** Asks a question worded by the workflow and returns the reply ({@link Prompt}). */
  readonly prompt: Prompt;
  /** How often a paused run looks for a `resume` or `stop` request (tests). @default 2 s */
  readonly controlPollMs?: number;
  readonly signal?: AbortSignal;
  /** Called as each state is entered (tests and benchmarks count them). */
  readonly onStateEntered?: (name: string, type: string) => void;
  /** Called as each state is left, with its output (benchmarks time the steps; tests read what a state carries). */
  readonly onStateExited?: (name: string, output: unknown) => void;
  /**
   * The state machine to run instead of the app's synthesized one (tests: the same stack
   * synthesized with other props, e.g. a low `batchesPerExecution`).
   * @default - the one `bin/app.ts` synthesizes
   */
  readonly stateMachine?: LocalStateMachine;
  /**
   * Told what is being prepared before a wait with nothing to show: in this repository, the
   * state machine synthesized again (the first run after a source change, a few seconds).
   */
  readonly onPreparing?: (what: string) => void;
  /** Milliseconds to wait in the named Wait states instead of the definition's (tests). */
  readonly waitTimeOverrides?: Readonly<Record<string, number>>;
  /**
   * Runs `input` as Step Functions' Redrive would: from `fromState`, with that state's input
   * (tests: what a console Redrive of a failed or aborted run does).
   * @default - a new execution
   */
  readonly redrive?: RedriveRequest;
  /**
   * How long one local "invocation" may run (tests: short await slices).
   * @default each function's own `Timeout` from the template, as on Lambda
   */
  readonly invocationBudgetMs?: number;
  /** How long one invocation of the named Task states may run, before `invocationBudgetMs` (benchmarks: short await slices only). */
  readonly invocationBudgetsMs?: Readonly<Record<string, number>>;
  /** Wraps every handler invocation (tests: a Lambda that dies after it acted, before it returned). */
  readonly interceptInvocation?: InvocationInterceptor;
  /** Milliseconds between the named states' `Retry` attempts instead of the definition's (tests). */
  readonly retryIntervalOverrides?: Readonly<Record<string, number>>;
  /**
   * Questions answered from outside instead of through `prompt` (tests: chat approvals): the
   * ask handler runs as on AWS, parking the question in the approvals store, and the state
   * waits until its task token is completed here (`SendTaskSuccess`), or times out.
   * @default - questions are asked through `prompt`
   */
  readonly taskTokenCallbacks?: LocalTaskTokenCallbacks;
  /** The clock the steps read, Unix ms (tests: a maintenance window on simulated time). @default Date.now */
  readonly now?: () => number;
  /** Waits on `now`'s clock (tests: the simulator's timers). @default real timers */
  readonly sleep?: LocalInvocation['sleep'];
  /** Tests: the EMF lines the handlers would print on Lambda. @default - a local run prints none */
  readonly metricLines?: LocalInvocation['metricLines'];
  /** The engine the run's history record names (tests: an AWS execution run here). @default 'terminal' */
  readonly engine?: LocalInvocation['engine'];
  /** `$$.Execution.Name` of the first execution (a fleet's child: the name its item chose). @default - a random UUID */
  readonly executionName?: string;
  /** Called as each execution of the run ends (a continued run has several). */
  readonly onExecutionEnded?: (execution: ExecutionSummary) => void;
  /**
   * Validate the definition with `asl-validator` first (a fleet validates the one-job
   * definition once, not once per job).
   * @default - when given as `stateMachine` (the app's own is checked by its tests: local-definition.ts)
   */
  readonly validate?: boolean;
  /**
   * Steps the terminal already ran before loading the engine (plan-first.ts): the first execution
   * takes their name, and each one's first invocation answers with what it made.
   * @default - every Task runs its handler
   */
  readonly made?: MadeSteps;
}

/** The one-job Task `stateName`'s handler, unless it has none (or is the question, answered from outside). */
function taskHandler(
  stateName: string,
  budgetMs: number,
  options: LambdaTaskOptions,
  runAskHandler: boolean,
): TaskHandler | undefined {
  const id = TASK_STATE_HANDLERS[stateName];
  if (id === undefined || (stateName === ASK_STATE_NAME && !runAskHandler)) return undefined;
  return lambdaTaskHandler(id, stateName, budgetMs, options);
}

/** Waits on the callbacks for a question's task token, when the run was given them. */
export function answerFromOutside(
  callbacks: LocalTaskTokenCallbacks | undefined,
): TaskTokenAnswerer | undefined {
  if (callbacks === undefined) return undefined;
  return (_question, taskToken, { signal }) => callbacks.wait(taskToken, signal);
}

/**
 * A local run: its result, and a cancel request honoured at the next safe point (Nomad's
 * `command/job_restart.go` `handleSignal`), and run-control requests (docs/run-control.md).
 */
export interface LocalRestart {
  readonly result: Promise<ExecutionResult>;
  /** Flags a cancel on the job's lock; the workflow checks it before and after each batch. */
  requestCancel(): Promise<void>;
  /**
   * Records a pause, resume or stop request for the run on its lock, acted on at its next safe
   * point (or answering its pause question); one made before the run holds the job is recorded as
   * it takes it. `false` once the run has ended.
   */
  requestControl(request: ControlRequest): Promise<boolean>;
  /** Starts no new Task (a Task already running finishes) until `resume`. */
  pause(): void;
  resume(): void;
}

/**
 * Runs one restart through the synthesized state machine. Questions (`.waitForTaskToken` in
 * the ASL) are answered through `request.prompt`; a read error ends the wait like a timeout,
 * so the question's default applies (Nomad's `command/job_restart.go` `askQuestion`).
 */
export async function runRestartLocally(request: LocalRestartRequest): Promise<LocalRestart> {
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'SILENT';
  const stateMachine =
    request.stateMachine ?? (await loadLocalDefinition(undefined, request.onPreparing)).stateMachine;
  if (request.made !== undefined) refuseMadeElsewhere(request.made, stateMachine.stateMachineArn);
  // The handlers' own in-memory lock: the same module instance the lambdas import.
  const { localStores } = await import('../../stores/from-env');
  const events = eventSink(request.emit);
  // The job and the run holding its lock, once the plan names them: a cancel names both.
  let lockKey: { namespace: string; jobId: string } | undefined;
  let runId: string | undefined;
  let runningRun: string | undefined;
  let cancelWanted = false;
  // A run-control request made before the run held the job, recorded once it does.
  let controlWanted: ControlRequest | undefined;
  let ended = false;
  const requests = pauseRequests(localStores.lock, request.nomad, request.controlPollMs);
  // Once the run holds the job, this process renews its shared lock in Nomad while it runs.
  const lease = localRunLease(request.nomad, localStores.lock);
  const gate = createGate();
  const prompts = promptAnswerer({
    prompt: request.prompt,
    gate,
    requests,
    heldBy: () => (lockKey === undefined || runId === undefined ? undefined : { key: lockKey, runId }),
  });
  const tasks: LambdaTaskOptions = {
    gate,
    invocation: localInvocation(request, events.live),
    intercept: request.interceptInvocation ?? ((_state, invoke) => invoke()),
    prepare: lease.beforeTask,
  };
  const execution = runLocalExecution(stateMachine.definition, {
    stateMachineArn: stateMachine.stateMachineArn,
    input: request.input,
    // The project's own definition is checked by its tests, not at each run (local-definition.ts).
    validate: request.validate ?? request.stateMachine !== undefined,
    ...(request.executionName === undefined ? {} : { executionName: request.executionName }),
    ...(request.made === undefined ? {} : { executionName: request.made.executionName }),
    ...(request.onExecutionEnded === undefined ? {} : { onExecutionEnded: request.onExecutionEnded }),
    taskHandlers: (state) =>
      answeringMade(
        taskHandler(
          state.stateName,
          request.invocationBudgetsMs?.[state.stateName] ??
            request.invocationBudgetMs ??
            stateMachine.functionTimeoutsMs[state.functionLogicalId ?? ''] ??
            LOCAL_INVOCATION_BUDGET_MS,
          tasks,
          request.taskTokenCallbacks !== undefined,
        ),
        request.made?.outcomes.get(state.stateName),
      ),
    answerTaskToken: answerFromOutside(request.taskTokenCallbacks) ?? prompts.answer,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(request.redrive === undefined ? {} : { redrive: request.redrive }),
    ...(request.waitTimeOverrides === undefined ? {} : { waitTimeOverrides: request.waitTimeOverrides }),
    ...(request.retryIntervalOverrides === undefined
      ? {}
      : { retryIntervalOverrides: request.retryIntervalOverrides }),
    onStateEntered: (name, type) => {
      if (type === 'Task' && name !== ASK_STATE_NAME && name !== TaskStates.applyAnswer)
        prompts.forgetReply();
      request.onStateEntered?.(name, type);
    },
    onStateExited: (name, output) => {
      const state = output as Partial<WorkflowState> | null;
      // This process's running runs keep their locks; one it does not know can be taken over.
      if (state?.run !== undefined && runningRun === undefined) {
        runningRun = state.run.runId;
        localStores.runs.started(runningRun);
      }
      if (state?.plan && state.run && lockKey === undefined) {
        lockKey = { namespace: state.plan.namespace, jobId: state.plan.jobId };
        runId = state.run.runId;
        // An interrupt confirmed before the job was known is honoured as soon as it is.
        if (cancelWanted) void localStores.lock.requestCancel(lockKey, runId);
      }
      if (name === TaskStates.lockJob && controlWanted !== undefined && lockKey && runId) {
        void localStores.lock.requestControl(lockKey, runId, controlWanted);
        controlWanted = undefined;
      }
      lease.stateExited(name, output, lockKey, runId);
      events.fromOutput(output);
      request.onStateExited?.(name, output);
    },
  });
  const result = execution.result.finally(async () => {
    ended = true;
    if (runningRun !== undefined) localStores.runs.ended(runningRun);
    await Promise.all([lease.stop(), requests.close()]);
  });
  return {
    result,
    requestCancel: async () => {
      cancelWanted = true;
      if (lockKey !== undefined && runId !== undefined) await localStores.lock.requestCancel(lockKey, runId);
    },
    requestControl: async (control) => {
      if (ended) return false;
      if (lockKey !== undefined && runId !== undefined && (await localStores.lock.held(lockKey, runId)))
        return localStores.lock.requestControl(lockKey, runId, control);
      controlWanted = control;
      return true;
    },
    pause: gate.close,
    resume: gate.open,
  };
}
