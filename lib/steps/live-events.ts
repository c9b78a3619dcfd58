/**
 * A live view of a step's progress events, for a caller that runs the handler in-process (the
 * local engine at a terminal). On AWS nobody is attached: the events reach the user through the
 * step's result in the execution history, as they always do.
 *
 * The sink rides on the Lambda context, the one object the local engine hands each invocation
 * through the unchanged middy chain, so two runs in one process never see each other's events.
 */
import type { Context } from 'aws-lambda';
import type { ProgressEvent } from '../restart/events';

export type LiveEventSink = (event: ProgressEvent) => void;

const LIVE_EVENTS = Symbol('nomad-restart.liveEvents');
type WithLiveEvents = Context & { [LIVE_EVENTS]?: LiveEventSink };

/** The context, carrying `sink` for the steps run with it. */
export function withLiveEvents(context: Context, sink: LiveEventSink): Context {
  return Object.assign(context, { [LIVE_EVENTS]: sink });
}

/** The sink attached to this invocation's context, if any. */
export function liveEventsOf(context: Context): LiveEventSink | undefined {
  return (context as WithLiveEvents)[LIVE_EVENTS];
}
