/**
 * The ONE place the handlers get their `RestartSteps` implementation from. The restart engine
 * (`lib/restart/engine/`) replaces this body with its own factory; nothing else changes.
 */
import type { RestartSteps, RestartStepsDeps } from '../../lib/workflow/steps';

/** Builds the steps for one invocation (deps carry that invocation's deadline signal). */
export function createRestartSteps(_deps: RestartStepsDeps): RestartSteps {
  throw new Error('restart engine not implemented yet');
}
