/**
 * What every local fleet run in the tests sets the same way: the simulator's address with the
 * README's fleet token, no question answered (a prompt reads end of input), and no real waiting
 * between batches or before a retry.
 */
import type { LocalFleetRequest } from '../../../../lib/engines/local/fleet-engine';
import { FlowStates, TASK_STATE_HANDLERS } from '../../../../lib/workflow/state-names';
import { OPERATOR_TOKEN } from '../../../fixtures/readme-policy';
import type { Harness } from '../../../steps/helpers/harness';

/** A fleet request's fixed parts; `emit` discards the events until a test gives its own. */
export type QuickFleetParts = Pick<
  LocalFleetRequest,
  'nomad' | 'emit' | 'prompt' | 'waitTimeOverrides' | 'retryIntervalOverrides'
>;

/**
 * The fixed parts of a fleet request against `h`'s simulator, for a test to spread under its own
 * input and overrides (`now` and `sleep` are the harness's only when the test passes them).
 */
export function quickFleetParts(h: Pick<Harness, 'sim'>): QuickFleetParts {
  return {
    nomad: { address: h.sim.address, token: OPERATOR_TOKEN },
    emit: () => {},
    prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
    waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
    // Step Functions' retry backoff (2 s, 4 s, ...) in real time would only slow the tests down.
    retryIntervalOverrides: Object.fromEntries(Object.keys(TASK_STATE_HANDLERS).map((name) => [name, 0])),
  };
}
