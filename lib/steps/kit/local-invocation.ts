/**
 * What a caller that runs the handlers in-process (the local engine at a terminal) hands each
 * invocation: a live view of the step's progress events, and the Nomad client configuration the
 * command resolved from its flags and `NOMAD_*` variables. On AWS neither is attached: events
 * reach the user through the execution history, and the configuration comes from the function's
 * environment and Secrets Manager.
 *
 * Both ride on the Lambda context, the one object the local engine hands each invocation through
 * the unchanged middy chain, so two runs in one process never see each other's events or agents,
 * and no setting (a secret least of all) travels through `process.env` or the execution input.
 */
import type { Context } from 'aws-lambda';
import type { ConsulClientConfig } from '../../consul/config';
import type { FleetEvent } from '../../fleet/events';
import type { RunEngine } from '../../history/record';
import type { NomadClientConfig } from '../../nomad/config';
import type { AlarmReader } from '../../restart/alarms';
import type { ProgressEvent } from '../../restart/events';
import type { Sleep } from './watch-timing';

export type LiveEventSink = (event: ProgressEvent) => void;

/** What the local caller attaches to one invocation. */
export interface LocalInvocation {
  readonly liveEvents: LiveEventSink;
  /** A fleet's own events (`fleet-planned`, ...), as its steps emit them. @default - not shown live */
  readonly fleetEvents?: (event: FleetEvent) => void;
  /** @default - the handler resolves it from its environment, as on Lambda */
  readonly nomad?: NomadClientConfig;
  /** Consul's, for `-wait-healthy`. @default - the handler resolves it from its environment, as on Lambda */
  readonly consul?: ConsulClientConfig;
  /**
   * Reads the `-stop-on-alarm` alarms with the terminal's AWS credentials and region.
   * @default - the handler makes a CloudWatch client from its environment, as on Lambda
   */
  readonly alarms?: AlarmReader;
  /**
   * The clock the steps read (Unix ms): tests run a maintenance window on simulated time.
   * @default Date.now
   */
  readonly now?: () => number;
  /** Waits on `now`'s clock (tests: the simulator's timers). @default real timers */
  readonly sleep?: Sleep;
  /**
   * The engine the run's record in the job's history names (lib/history): an AWS execution's
   * handlers run here (tests on AWS's stores, a scheduled run's input) are recorded as `aws`.
   * @default 'terminal'
   */
  readonly engine?: RunEngine;
}

const LOCAL_INVOCATION = Symbol('nomad-restart.localInvocation');
type WithLocalInvocation = Context & { [LOCAL_INVOCATION]?: LocalInvocation };

/** The context, carrying `invocation` for the handler run with it. */
export function withLocalInvocation(context: Context, invocation: LocalInvocation): Context {
  return Object.assign(context, { [LOCAL_INVOCATION]: invocation });
}

/** The live event sink attached to this invocation's context, if any. */
export function liveEventsOf(context: Context): LiveEventSink | undefined {
  return (context as WithLocalInvocation)[LOCAL_INVOCATION]?.liveEvents;
}

/** The fleet event sink attached to this invocation's context, if any. */
export function fleetEventsOf(context: Context): ((event: FleetEvent) => void) | undefined {
  return (context as WithLocalInvocation)[LOCAL_INVOCATION]?.fleetEvents;
}

/** The clock attached to this invocation's context, else the machine's. */
export function clockOf(context: Context): () => number {
  return (context as WithLocalInvocation)[LOCAL_INVOCATION]?.now ?? Date.now;
}

/** The timers attached to this invocation's context (on `now`'s clock), if any. */
export function sleepOf(context: Context): Sleep | undefined {
  return (context as WithLocalInvocation)[LOCAL_INVOCATION]?.sleep;
}

/**
 * Which engine runs this invocation's steps, for the run's record: `terminal` when this process's
 * local engine runs them (unless it says otherwise), `aws` on Lambda.
 */
export function engineOf(context: Context): RunEngine {
  const invocation = (context as WithLocalInvocation)[LOCAL_INVOCATION];
  if (invocation === undefined) return 'aws';
  return invocation.engine ?? 'terminal';
}

/** The Consul client configuration attached to this invocation's context, if any. */
export function consulConfigOf(context: Context): ConsulClientConfig | undefined {
  return (context as WithLocalInvocation)[LOCAL_INVOCATION]?.consul;
}

/** The Nomad client configuration attached to this invocation's context, if any. */
export function nomadConfigOf(context: Context): NomadClientConfig | undefined {
  return (context as WithLocalInvocation)[LOCAL_INVOCATION]?.nomad;
}

/** The `-stop-on-alarm` reader attached to this invocation's context, if any. */
export function alarmReaderOf(context: Context): AlarmReader | undefined {
  return (context as WithLocalInvocation)[LOCAL_INVOCATION]?.alarms;
}
