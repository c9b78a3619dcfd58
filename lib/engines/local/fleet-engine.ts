/**
 * The local engine for a fleet: the fleet state machine synthesized beside the one-job one, run
 * in-process. Its "Plan fleet" and "Summarize fleet" Tasks are bound to `lambdas/plan-fleet.ts`
 * and `lambdas/summarize-fleet.ts` (fleet-task-handlers.ts); its Distributed Map is run by the engine
 * (`private/map-run.ts`), reading the item list from and writing results to the plan store the
 * handlers use; each item's `.sync:2` child is one run of the one-job state machine through
 * `runRestartLocally`, exactly as a one-job run at a terminal.
 */
import type { ControlRequest } from '../../control/requests';
import type { FleetProgressEvent } from '../../fleet/events';
import { jobFinishedEvent } from '../../fleet/job-end';
import { summaryEventsOf } from '../../fleet/summary-events';
import type { RestartInput } from '../../restart/input';
import type { PlanStore } from '../../stores/plan-store';
import { FleetTaskStates } from '../../workflow/fleet-state-names';
import { type ChildExecutionRequest, LocalChildExecutions } from './child-executions';
import { type LocalRestart, type LocalRestartRequest, runRestartLocally } from './engine';
import { StateMachineNotFoundError } from './errors';
import type { FleetControlChange } from './fleet-control';
import { fleetStateOf, jobEndOfItem, jobOf } from './fleet-events';
import { FleetRecordWatch, localFleetHistory } from './fleet-record-end';
import { type FleetPauseAsker, FleetSteering, untilAborted } from './fleet-steering';
import { fleetTaskHandlers } from './fleet-task-handlers';
import { type LocalDefinitions, loadLocalDefinition } from './local-definition';
import { oneAtATime } from './one-at-a-time';
import { runLocalExecution } from './runner';
import { sumStats } from './stats';
import type { ExecutionResult, ExecutionSummary, ItemExecutionSummary } from './types';

/** One local fleet run: the one-job request's shared settings, and the fleet's own. */
export interface LocalFleetRequest
  extends Pick<
    LocalRestartRequest,
    | 'nomad'
    | 'consul'
    | 'prompt'
    | 'signal'
    | 'onPreparing'
    | 'waitTimeOverrides'
    | 'retryIntervalOverrides'
    | 'invocationBudgetMs'
    | 'invocationBudgetsMs'
    | 'interceptInvocation'
    | 'taskTokenCallbacks'
    | 'now'
    | 'sleep'
    | 'controlPollMs'
    | 'metricLines'
  > {
  /** The fleet's input, as the console or a schedule gives it ("Plan fleet" validates it). */
  readonly input: unknown;
  /** Called with each fleet event and each job's event (tagged with its job), once, as it happens. */
  readonly emit: (event: FleetProgressEvent) => void;
  /** The fleet run's ID (`$$.Execution.Name`). @default - a random UUID */
  readonly executionName?: string;
  /** Called as each of the fleet execution's own states is entered (not its items' or jobs'). */
  readonly onStateEntered?: (name: string, type: string) => void;
  readonly onStateExited?: (name: string, output: unknown) => void;
  /** Both state machines to run instead of the app's (tests). @default - the ones `bin/app.ts` synthesizes */
  readonly stateMachines?: LocalDefinitions;
  /**
   * The S3 the Distributed Map reads the item list from and writes results to: the plan store
   * the handlers write (AWS-path tests: the S3 emulator's, as the handlers see it).
   * @default - the handlers' in-memory plan store
   */
  readonly objectStore?: PlanStore;
  /**
   * The fleet's one pause question, asked once per fleet-level pause (docs/run-control.md).
   * @default - none: only a `resume` or `stop` request decides a paused fleet
   */
  readonly askPause?: FleetPauseAsker;
}

/** A fleet run's end: the fleet execution's own, plus each item and job execution with its stats. */
export interface FleetRunResult extends ExecutionResult {
  /** Each item execution of the Distributed Map (its history is its own, not the fleet's). */
  readonly items: readonly ItemExecutionSummary[];
  /**
   * How each job's one-job run ended (a continued run: its whole chain), without its output
   * (that is in its item's): 5,000 jobs' summaries would only weigh on the run's memory.
   */
  readonly jobs: readonly JobRunEnd[];
}

/** How one job's run ended, and its counters (its history is its own). */
export type JobRunEnd = Pick<ExecutionResult, 'status' | 'error' | 'cause' | 'stats'>;

/** A local fleet run, and a cancel honoured as the one-job command honours it. */
export interface LocalFleet {
  readonly result: Promise<FleetRunResult>;
  /**
   * Cancels every running job at its next safe point (its lock flagged, as `runRestartLocally`'s
   * `requestCancel`), starts no further job, then stops the fleet execution (ABORTED), as a
   * StopExecution of the fleet does on AWS.
   */
  requestCancel(): Promise<void>;
  /**
   * A fleet-level pause, resume or stop (docs/run-control.md, "A fleet"; fleet-steering.ts).
   * Answers what changed (`ignored`, with why: a resume of a fleet that is not paused).
   */
  requestControl(request: ControlRequest): Promise<FleetControlChange>;
}

/**
 * Runs a fleet through the synthesized fleet state machine. Questions of the jobs go through
 * `request.prompt` one at a time, each naming its job (or, with `taskTokenCallbacks`, wait in the
 * approvals store as on AWS).
 * @throws StateMachineNotFoundError when the synthesized stack has no fleet state machine
 */
export async function runFleetLocally(request: LocalFleetRequest): Promise<LocalFleet> {
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'SILENT';
  const stateMachine =
    request.stateMachines ?? (await loadLocalDefinition(undefined, request.onPreparing)).stateMachine;
  // The project's own definitions are checked by its tests, not at each run (local-definition.ts).
  const given = request.stateMachines !== undefined;
  const fleet = stateMachine.fleet;
  if (fleet === undefined) {
    throw new StateMachineNotFoundError(
      'the synthesized stack has no fleet state machine (FleetStateMachine)',
    );
  }
  // What every job's run shares with the fleet's (the rest is the fleet's own).
  const {
    input: _input,
    emit: _emit,
    executionName: _executionName,
    onStateEntered: _entered,
    onStateExited: _exited,
    stateMachines: _stateMachines,
    objectStore: _objectStore,
    signal: _signal,
    askPause: _askPause,
    ...jobSettings
  } = request;
  const { localStores } = await import('../../stores/from-env');
  const store = request.objectStore ?? localStores.planStore;
  const now = request.now ?? Date.now;
  const ask = oneAtATime();
  const stop = new AbortController();
  const running = new Set<LocalRestart>();
  const jobs: JobRunEnd[] = [];
  const chains: Promise<unknown>[] = [];
  const items: ItemExecutionSummary[] = [];
  // A confirmed interrupt (SIGINT): each running job is canceled as the one-job command cancels.
  let canceling = false;
  let jobsStarted = 0;
  // Resolved as each item execution ends: a cancel waits for the items of the jobs it stopped.
  let itemEnded = () => {};
  let validateJob = given;
  let budget = { maxFailedJobs: 0 };
  // Stops the fleet (ABORTED) once the jobs it started ended, and their items with them.
  const stopOnceJobsEnded = () =>
    void (async () => {
      await Promise.all(chains);
      while (items.length < jobsStarted) await new Promise<void>((resolve) => (itemEnded = resolve));
      stop.abort();
    })();
  const { askPause } = request;
  const steering = new FleetSteering({ running: () => running, stopFleet: stopOnceJobsEnded, now, askPause });
  const noFurtherJob = () => canceling || steering.control.stoppedBy !== undefined;
  // A fleet that ends without its summary has its record ended by the engine.
  const record = new FleetRecordWatch(localFleetHistory(request.nomad), () => ({
    stoppedBy: steering.control.stoppedBy,
    interrupted: canceling,
  }));

  /** One job's one-job run: settles when its first execution ends, as `.sync` waits for that one only. */
  const runJob = (child: ChildExecutionRequest) =>
    new Promise<ExecutionSummary>((resolve, reject) => {
      const { name, input, signal } = child;
      const job = jobOf(input);
      const label = `[${job.namespace}/${job.job}] `;
      request.emit({ type: 'job-started', time: now(), ...job });
      jobsStarted += 1;
      let first = true;
      const started = runRestartLocally({
        ...jobSettings,
        input: input as RestartInput,
        stateMachine,
        executionName: name,
        validate: validateJob,
        signal,
        ...steering.jobQuestions({
          emit: (event) => request.emit({ ...event, namespace: job.namespace, job: job.job }),
          prompt: (prompt, invalid, withdrawn) =>
            ask(() => request.prompt(`${label}${prompt}`, invalid, withdrawn)),
        }),
        onExecutionEnded: (execution) => {
          if (first) resolve(execution);
          else child.onContinuedExecutionEnded(execution);
          first = false;
        },
      });
      validateJob = false;
      // Registered at once, so a cancel that comes before the run is set up still waits for it.
      const chain = started.then((restart) => {
        running.add(restart);
        if (canceling) void restart.requestCancel();
        else void steering.jobStarted(restart);
        return restart.result.then((result) => {
          const { status, error, cause, stats } = result;
          jobs.push({
            status,
            stats,
            ...(error === undefined ? {} : { error }),
            ...(cause === undefined ? {} : { cause }),
          });
          running.delete(restart);
        });
      });
      chains.push(chain);
      chain.catch(reject);
    });

  const children = new LocalChildExecutions(async (child) => {
    if (child.stateMachineArn !== stateMachine.stateMachineArn) {
      throw new Error(
        `a fleet item started "${child.stateMachineArn}"; locally only "${stateMachine.stateMachineArn}" runs`,
      );
    }
    // A paused fleet starts no job until its decision (the Map's `-max-jobs` slots stay taken).
    if (noFurtherJob() || !(await steering.mayStartJob(child.signal))) {
      // The fleet is being stopped: no job starts; the item waits for the stop, as StopExecution
      // would find it, and ends with no stats (it never ran).
      await untilAborted(child.signal);
      const { executionArn, name } = child;
      record.jobNeverStarted(jobOf(child.input));
      return { executionArn, name, status: 'ABORTED', stats: sumStats([], 0) };
    }
    return runJob(child);
  });

  const taskHandlers = fleetTaskHandlers(request, fleet);

  const execution = runLocalExecution(fleet.definition, {
    stateMachineArn: fleet.stateMachineArn,
    input: request.input,
    validate: given,
    ...(request.executionName === undefined ? {} : { executionName: request.executionName }),
    taskHandlers,
    childExecutions: children,
    objectStore: store,
    signal: request.signal === undefined ? stop.signal : AbortSignal.any([request.signal, stop.signal]),
    ...(request.waitTimeOverrides === undefined ? {} : { waitTimeOverrides: request.waitTimeOverrides }),
    ...(request.retryIntervalOverrides === undefined
      ? {}
      : { retryIntervalOverrides: request.retryIntervalOverrides }),
    ...(request.onStateEntered === undefined ? {} : { onStateEntered: request.onStateEntered }),
    onStateExited: (name, output) => {
      const state = name === FleetTaskStates.planFleet ? fleetStateOf(output) : undefined;
      if (state !== undefined) budget = { maxFailedJobs: state.budget.maxFailedJobs };
      record.stateExited(name, state);
      if (name === FleetTaskStates.summarizeFleet)
        for (const event of summaryEventsOf(output)) request.emit(event);
      request.onStateExited?.(name, output);
    },
    onItemExecutionEnded: (item) => {
      items.push(item);
      itemEnded();
      request.emit(jobFinishedEvent(jobEndOfItem(item), now(), budget));
    },
  });

  const result = execution.result.then(async (ended) => {
    // A job continued as new runs on after its item ended (as on AWS): the run ends with it.
    await Promise.all(chains);
    await record.ended(ended, items, now());
    return { ...ended, items, jobs };
  });
  return {
    result,
    requestCancel: async () => {
      canceling = true;
      await Promise.all([...running].map((restart) => restart.requestCancel()));
      // Once the running jobs stopped at their safe points (and their items ended), the fleet is
      // stopped too.
      stopOnceJobsEnded();
    },
    requestControl: (control) => steering.request(control),
  };
}
