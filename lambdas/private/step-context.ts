/**
 * Builds the restart steps for one invocation from its Lambda context (client, deadline, live events).
 */
import type { Context } from 'aws-lambda';
import { clockOf, liveEventsOf } from '../../lib/steps/kit/local-invocation';
import { createRestartSteps } from '../../lib/steps/kit/steps-factory';
import { planStoreFromEnv } from '../../lib/stores/from-env';
import type { RestartSteps } from '../../lib/workflow/restart-steps';
import { consulReaderOf } from './consul-reader';
import { deadlineSignal } from './deadline';
import { nomadClientOf } from './nomad-client-middleware';

/** The engine for this invocation, with its deadline (and any live event sink) taken from the Lambda context. */
export function stepsFor(context: Context): RestartSteps {
  const onEvent = liveEventsOf(context);
  return createRestartSteps({
    nomad: nomadClientOf(context),
    planStore: planStoreFromEnv(),
    now: clockOf(context),
    signal: deadlineSignal(context),
    consul: consulReaderOf(context),
    ...(onEvent === undefined ? {} : { onEvent }),
  });
}
