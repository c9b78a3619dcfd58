/**
 * The handlers' one middleware chain: each link is there when a handler asks for it and only then.
 * A handler without a Nomad client (input validation, the question) cannot reach one, so it never
 * reads the token's secret; an error keeps its own name where no state routes on it.
 */
import type { Context } from 'aws-lambda';
import { nomadClientOf } from '../../../lambdas/private/nomad-client-middleware';
import { stepHandler } from '../../../lambdas/private/step-handler';
import { NomadConnectionError } from '../../../lib/nomad/errors';
import { withLocalInvocation } from '../../../lib/steps/kit/local-invocation';
import { captureOutput, lambdaContext, plannedState } from '../helpers/fixtures';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

/** A context as the local engine hands it: the Nomad configuration on it, no secret to read. */
const localContext = (): Context =>
  withLocalInvocation(lambdaContext(), { liveEvents: () => {}, nomad: { address: 'http://127.0.0.1:1' } });

const refused = () =>
  new NomadConnectionError('Get "http://127.0.0.1:1/v1/jobs": connection refused', false, 'ECONNREFUSED');

describe('stepHandler', () => {
  it.each([
    {
      name: 'gives a Nomad client only to a handler that asks for one',
      options: { nomad: true },
      hasClient: true,
    },
    { name: 'leaves the Nomad client out by default', options: {}, hasClient: false },
  ])('$name', async ({ options, hasClient }) => {
    // Arrange
    const handler = stepHandler(async (_event: unknown, context: Context) => {
      nomadClientOf(context);
      return 'reached';
    }, options);

    // Act
    const { result, error } = await captureOutput(() => handler({}, localContext()));

    // Assert
    expect(result === 'reached').toBe(hasClient);
    if (!hasClient) expect(error).toMatchObject({ name: 'HandlerConfigError' });
  });

  it.each([
    {
      name: 'names a transient Nomad failure for Retry in a state',
      options: {},
      expected: 'NomadTransientError',
    },
    {
      name: 'keeps the error’s own name where no state routes on it',
      options: { workflowErrors: false },
      expected: 'NomadConnectionError',
    },
  ])('$name', async ({ options, expected }) => {
    // Arrange
    const handler = stepHandler(async () => {
      throw refused();
    }, options);

    // Act
    const { error } = await captureOutput(() => handler({}, localContext()));

    // Assert
    expect(error).toMatchObject({ name: expected });
  });

  it('charges the history estimate of the state a handler returns, starting afresh when asked', async () => {
    // Arrange
    const state = plannedState();
    const counted = { ...state, progress: { ...state.progress, historyEvents: 1_000 } };
    // The budget middleware writes into the state it is handed: each handler returns its own copy.
    const carry = stepHandler(async () => structuredClone(counted), { state: 'restart-batch' });
    const fresh = stepHandler(async () => structuredClone(counted), {
      state: 'restart-batch',
      freshHistory: true,
    });

    // Act
    const carried = await carry(structuredClone(counted), localContext());
    const restarted = await fresh(structuredClone(counted), localContext());

    // Assert
    const events = (s: unknown) => (s as { progress: { historyEvents: number } }).progress.historyEvents;
    expect(events(carried)).toBeGreaterThan(1_000);
    expect(events(restarted)).toBe(events(carried) - 1_000);
  });
});
