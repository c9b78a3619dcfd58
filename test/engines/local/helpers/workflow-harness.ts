/**
 * Runs a whole restart the one way users run it: the synthesized state machine, through the
 * local engine and the real Lambda handlers, against a simulator harness. Scenario tests read
 * the result as the command would (exit code, error list, progress events, states entered).
 */

import { exitCodeOf } from '../../../../lib/cli/terminal/exit-code';
import type { Terminal } from '../../../../lib/cli/terminal/terminal';
import type { ConsulClientConfig } from '../../../../lib/consul/config';
import {
  type InvocationInterceptor,
  type LocalRestart,
  runRestartLocally,
} from '../../../../lib/engines/local/engine';
import type { LocalStateMachine } from '../../../../lib/engines/local/local-definition';
import type { LocalTaskTokenCallbacks } from '../../../../lib/engines/local/task-token-callbacks';
import type { ExecutionResult, RedriveRequest } from '../../../../lib/engines/local/types';
import type { AlarmReader } from '../../../../lib/restart/alarms';
import type { ProgressEvent } from '../../../../lib/restart/events';
import { createFormatter } from '../../../../lib/restart/format';
import { type RestartInput, toRestartInput } from '../../../../lib/restart/input';
import type { RestartOptions } from '../../../../lib/restart/options';
import { localStores } from '../../../../lib/stores/from-env';
import type { LockKey } from '../../../../lib/stores/job-lock';
import { FlowStates, TASK_STATE_HANDLERS, TaskStates } from '../../../../lib/workflow/state-names';
import { asFunction } from '../../../iam/helpers/invoking-function';
import type { Harness } from '../../../steps/helpers/harness';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

export interface WorkflowRun {
  readonly result: ExecutionResult;
  /** What `nomad-restart` would exit with. */
  readonly exitCode: number;
  /** The final error list (the `finished` event's), or the failure's cause. */
  readonly errors: readonly string[];
  readonly events: readonly ProgressEvent[];
  /** Every state entered, in order. */
  readonly entered: readonly string[];
  /** Every question's prompt, in order. */
  readonly prompts: readonly string[];
  /** Every state exited, with its output, in order: what the execution's history would hold. */
  readonly exits: readonly StateExit[];
}

/** A state's exit, as the history's `*StateExited` event records it. */
export interface StateExit {
  readonly name: string;
  readonly output: unknown;
}

export interface WorkflowRunOptions {
  /** The ACL token the handlers use (`NOMAD_TOKEN`). @default none */
  readonly token?: string;
  /** Replies to the questions, in order; a question past the last reply gets a read error. */
  readonly replies?: readonly string[];
  /** How long one local invocation may run (short await slices). @default 15 minutes */
  readonly invocationBudgetMs?: number;
  /** Aborts the run (an execution stopped from the console: no Catch, no lock release). */
  readonly signal?: AbortSignal;
  /** Wraps every handler invocation (a Lambda that dies after it acted). */
  readonly interceptInvocation?: InvocationInterceptor;
  /** Another synthesis of the stack to run. @default - the app's */
  readonly stateMachine?: LocalStateMachine;
  /** The steps' clock (a maintenance window on simulated time). @default Date.now */
  readonly now?: () => number;
  /** The steps' waits, on `now`'s clock (the harness's `sleep` with its `now`). @default real timers */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Runs the ask handler, which parks each question in the approvals store, and waits for its
   * task token to be completed here, as on AWS. @default - questions are answered by `replies`
   */
  readonly taskTokenCallbacks?: LocalTaskTokenCallbacks;
  /**
   * Hands the handlers no Nomad settings, so each resolves them from its environment as on
   * Lambda (`NOMAD_ADDR`, the token from `NOMAD_TOKEN_SECRET_ARN` through Secrets Manager), which
   * the test sets. @default false: the simulator's address (and `token`) ride on each invocation
   */
  readonly nomadFromEnvironment?: boolean;
  /** Consul's settings for `-wait-healthy`'s Consul reads, as the command hands them. @default none */
  readonly consul?: ConsulClientConfig;
  /** Reads `-stop-on-alarm` alarms, as the command hands its reader. @default - the handlers' own (from the environment) */
  readonly alarms?: AlarmReader;
  /** Milliseconds the bake's Wait takes instead of its seconds (a real-time bake). @default - the definition's */
  readonly bakeWaitMs?: number;
  /** Runs the input as a console Redrive would: from this state, with the input as its input. @default - a new run */
  readonly redrive?: RedriveRequest;
  /** Told each progress event as it happens (a test acting while the run waits). */
  readonly onEvent?: (event: ProgressEvent) => void;
  /** Handed the run as it starts (a run-control request from this process). */
  readonly onStarted?: (run: LocalRestart) => void;
  /** How often a paused run looks for a resume or stop request. @default 2 s */
  readonly controlPollMs?: number;
  /** Takes the EMF lines the handlers would print on Lambda. @default - none: a local run prints none */
  readonly metricLines?: (line: string) => void;
  /** The engine the run's history record names (an AWS execution's run, here). @default 'terminal' */
  readonly engine?: 'terminal' | 'aws';
}

/**
 * Each invocation runs as its function (test/iam/helpers/iam-check.ts): where a test file enforces IAM
 * on the AWS stores, the calls a handler makes are checked against that function's role.
 */
function asInvokedFunction(
  intercept: InvocationInterceptor = (_state, invoke) => invoke(),
): InvocationInterceptor {
  return (stateName, invoke) =>
    intercept(stateName, () => asFunction(TASK_STATE_HANDLERS[stateName] ?? stateName, invoke));
}

/** The exit code's error line is not what these tests read; the error list is. */
export const discardingTerminal: Terminal = {
  interactive: false,
  reading: false,
  write: () => {},
  notice: () => {},
  read: async () => ({ kind: 'eof' }),
  interruptRead: () => {},
  close: () => {},
};

/**
 * Runs `options` through the synthesized workflow against `h`'s simulator. The wait between
 * batches takes no time (its length is asserted from the `waiting` events instead).
 */
export async function runWorkflow(
  h: Harness,
  options: RestartOptions,
  runOptions: WorkflowRunOptions = {},
): Promise<WorkflowRun> {
  return runWorkflowInput(h, toRestartInput(options), runOptions);
}

/** Runs a raw execution input (as a console user or a schedule gives it) like {@link runWorkflow}. */
export async function runWorkflowInput(
  h: Harness,
  input: RestartInput,
  runOptions: WorkflowRunOptions = {},
): Promise<WorkflowRun> {
  const events: ProgressEvent[] = [];
  const entered: string[] = [];
  const prompts: string[] = [];
  const exits: StateExit[] = [];
  const replies = [...(runOptions.replies ?? [])];
  const local = await runRestartLocally({
    input,
    ...(runOptions.nomadFromEnvironment === true
      ? {}
      : {
          nomad: {
            address: h.sim.address,
            ...(runOptions.token === undefined ? {} : { token: runOptions.token }),
          },
        }),
    ...(runOptions.consul === undefined ? {} : { consul: runOptions.consul }),
    ...(runOptions.alarms === undefined ? {} : { alarms: runOptions.alarms }),
    emit: (event) => {
      events.push(event);
      runOptions.onEvent?.(event);
    },
    prompt: async (prompt, _invalid, withdrawn) => {
      prompts.push(prompt);
      const text = replies.shift();
      if (text !== undefined) return { kind: 'answer', text };
      // A question a request may answer (the pause question) waits for it, as with no one at a terminal.
      if (withdrawn === undefined) return { kind: 'read-error', text: 'EOF' };
      if (!withdrawn.aborted)
        await new Promise((resolve) => withdrawn.addEventListener('abort', resolve, { once: true }));
      return { kind: 'withdrawn' };
    },
    onStateEntered: (name) => entered.push(name),
    onStateExited: (name, output) => exits.push({ name, output }),
    waitTimeOverrides: {
      [FlowStates.waitBeforeNextBatch]: 0,
      ...(runOptions.bakeWaitMs === undefined ? {} : { [FlowStates.waitWhileBaking]: runOptions.bakeWaitMs }),
    },
    ...(runOptions.stateMachine === undefined ? {} : { stateMachine: runOptions.stateMachine }),
    ...(runOptions.now === undefined ? {} : { now: runOptions.now }),
    ...(runOptions.sleep === undefined ? {} : { sleep: runOptions.sleep }),
    ...(runOptions.taskTokenCallbacks === undefined
      ? {}
      : { taskTokenCallbacks: runOptions.taskTokenCallbacks }),
    ...(runOptions.invocationBudgetMs === undefined
      ? {}
      : { invocationBudgetMs: runOptions.invocationBudgetMs }),
    ...(runOptions.signal === undefined ? {} : { signal: runOptions.signal }),
    ...(runOptions.redrive === undefined ? {} : { redrive: runOptions.redrive }),
    ...(runOptions.controlPollMs === undefined ? {} : { controlPollMs: runOptions.controlPollMs }),
    ...(runOptions.metricLines === undefined ? {} : { metricLines: runOptions.metricLines }),
    ...(runOptions.engine === undefined ? {} : { engine: runOptions.engine }),
    interceptInvocation: asInvokedFunction(runOptions.interceptInvocation),
    // Step Functions' retry backoff (2 s, 4 s, ...) in real time would only slow the tests down.
    retryIntervalOverrides: Object.fromEntries(Object.keys(TASK_STATE_HANDLERS).map((name) => [name, 0])),
  });
  runOptions.onStarted?.(local);
  const result = await local.result;
  const exitCode = exitCodeOf(result, createFormatter({ verbose: false, color: false }), discardingTerminal);
  const finished = events.find(
    (e): e is Extract<ProgressEvent, { type: 'finished' }> => e.type === 'finished',
  );
  const errors = finished?.errors ?? (result.cause === undefined ? [] : [result.cause]);
  return { result, exitCode, errors, events, entered, prompts, exits };
}

/** Another run, still running, holds the job: the lock a second run finds taken (this process's). */
export async function holdJob(key: LockKey, holder: string): Promise<void> {
  await localStores.lock.acquire(key, { owner: holder, ttlSeconds: 3600 });
  localStores.runs.started(holder);
}

/** Ends {@link holdJob}'s run and frees its lock, whatever the test did. */
export async function freeJob(key: LockKey, holder: string): Promise<void> {
  await localStores.lock.release(key, holder);
  localStores.runs.ended(holder);
}

/**
 * Run options that act on the run, as an operator at its terminal would, when the `nth` batch's
 * safe point comes (Check deployments' `nth` invocation, before that batch restarts anything):
 * `act` is handed the running restart (to cancel it, or to ask it to stop).
 */
export function atSafePoint(
  nth: number,
  act: (run: LocalRestart) => Promise<unknown>,
): Pick<WorkflowRunOptions, 'onStarted' | 'interceptInvocation'> {
  let handle: LocalRestart | undefined;
  let reached = 0;
  return {
    onStarted: (started) => {
      handle = started;
    },
    interceptInvocation: async (state, invoke) => {
      if (state === TaskStates.checkDeployments && ++reached === nth && handle !== undefined)
        await act(handle);
      return invoke();
    },
  };
}
