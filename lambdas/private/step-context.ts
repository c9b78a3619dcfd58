import type { RestartSteps } from '../../lib/workflow/steps';
import { deadlineSignal } from './deadline';
import type { NomadContext } from './nomad-client-middleware';
import { createRestartSteps } from './steps-factory';
import { planStoreFromEnv } from './stores';

/** The engine for this invocation, with its deadline taken from the Lambda context. */
export function stepsFor(context: NomadContext): RestartSteps {
  return createRestartSteps({
    nomad: context.nomad,
    planStore: planStoreFromEnv(),
    now: Date.now,
    signal: deadlineSignal(context),
  });
}
