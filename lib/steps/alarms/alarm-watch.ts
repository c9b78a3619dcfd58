/**
 * `-stop-on-alarm` during a health wait: the alarms are read while the wait runs, and the first one
 * in `ALARM` ends the wait at once (waiting on the health of a service its own alarm says is
 * degraded only delays the stop). The batch then settles as it stands and Decide finishes the run.
 */
import type { FiredAlarm } from '../../restart/events';
import type { RestartOptions } from '../../restart/options';
import type { StepKit } from '../kit/step-kit';
import { delay } from '../kit/watch-timing';
import { readFiredAlarm, watchesAlarms } from './alarm-stop';

/**
 * How often the alarms are read while a run waits (a health wait, a bake). CloudWatch evaluates a
 * standard alarm once a period (60 s at the least), so a read every 10 s sees a change within a
 * sixth of one, at 6 `DescribeAlarms` calls a minute per run, far below its limit (9 per second
 * per account, https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/cloudwatch_limits.html).
 */
export const ALARM_POLL_MS = 10_000;

/** A running watch of the run's alarms. */
export interface AlarmWatch {
  /** Aborts once an alarm fires (or a read fails), or `parent` aborts: the watched wait's signal. */
  readonly signal: AbortSignal;
  /**
   * Stops reading; answers the alarm that fired, if one did.
   * @throws what a read threw (AlarmNotFoundError, the SDK's errors): the step fails as it would
   *   at the guard
   */
  stop(): Promise<FiredAlarm | undefined>;
}

/** Starts watching the run's alarms; `undefined` without `-stop-on-alarm`. */
export function watchAlarms(
  kit: Pick<StepKit, 'alarms' | 'sleep'>,
  options: RestartOptions,
  parent: AbortSignal,
): AlarmWatch | undefined {
  if (!watchesAlarms(options)) return undefined;
  const wait = new AbortController();
  const stopped = new AbortController();
  const onParent = (): void => wait.abort();
  parent.addEventListener('abort', onParent, { once: true });
  if (parent.aborted) wait.abort();
  const sleep = kit.sleep ?? delay;
  const reads = (async (): Promise<FiredAlarm | undefined> => {
    try {
      while (!stopped.signal.aborted && !wait.signal.aborted) {
        const alarm = await readFiredAlarm(kit, options, stopped.signal);
        if (alarm !== undefined) return alarm;
        // Checked after the read, with no await between: a sleep begun on an aborted signal would
        // hold stop() for a whole poll interval after the wait it watched was over.
        const awake = AbortSignal.any([stopped.signal, wait.signal]);
        if (awake.aborted) break;
        await sleep(ALARM_POLL_MS, awake);
      }
      return undefined;
    } catch (err) {
      // A read cut short by stop() is no failure: the wait it watched is over.
      if (stopped.signal.aborted) return undefined;
      throw err;
    } finally {
      wait.abort();
    }
  })();
  // Seen by stop(); until then an early failure must not count as unhandled.
  reads.catch(() => undefined);
  return {
    signal: wait.signal,
    async stop() {
      stopped.abort();
      parent.removeEventListener('abort', onParent);
      return reads;
    },
  };
}
