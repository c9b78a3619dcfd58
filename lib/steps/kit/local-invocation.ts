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
   * Tests: each EMF line the handlers would print on Lambda (lambdas/private/run-metrics.ts).
   * @default - none: a local run prints no metrics, as its stdout is Nomad's lines
   */
  readonly metricLines?: (line: string) => void;
}

const LOCAL_INVOCATION = Symbol('nomad-restart.localInvocation');
type WithLocalInvocation = Context & { [LOCAL_INVOCATION]?: LocalInvocation };

/** The context, carrying `invocation` for the handler run with it. */
export function withLocalInvocation(context: Context, invocation: LocalInvocation): Context {
  return Object.assign(context, { [LOCAL_INVOCATION]: invocation });
}

/** Whether a local caller runs this invocation (the local engine at a terminal), not Lambda. */
export function isLocalInvocation(context: Context): boolean {
  return (context as WithLocalInvocation)[LOCAL_INVOCATION] !== undefined;
}

/** The EMF line sink attached to this invocation's context, if any (tests). */
export function metricLinesOf(context: Context): ((line: string) => void) | undefined {
  return (context as WithLocalInvocation)[LOCAL_INVOCATION]?.metricLines;
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
