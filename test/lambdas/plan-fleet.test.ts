/**
 * Scenario: the "Plan fleet" function through its whole middleware chain, against the simulator
 * over HTTP with ACLs on: the Nomad client comes from the invocation, the item list lands in the
 * plan store the function is configured with, the `fleet-planned` event reaches the local caller,
 * and bad input ends in `InvalidInputError` before any Nomad request.
 */
import { fleetKeys } from '../../lib/fleet/items';
import { withLocalInvocation } from '../../lib/steps/kit/local-invocation';
import { planStoreFromEnv } from '../../lib/stores/from-env';
import type { FleetState } from '../../lib/workflow/fleet-state-names';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { group, job } from '../sim/helpers/fixtures';
import { harnessPerTest, waitAllRunning } from '../steps/helpers/harness';
import { lambdaContext } from './helpers/fixtures';

const { handler: planFleet } = await import('../../lambdas/plan-fleet');

const envBefore = { ...process.env };
afterEach(() => {
  process.env = { ...envBefore };
});

describe('the Plan fleet handler', () => {
  const harness = harnessPerTest();

  async function invoke(input: unknown, executionName: string) {
    const h = await harness.start(
      {
        jobs: [job('web', 'service', [group('web', 2, {}, '1h')], { Meta: { team: 'payments' } })],
        acl: readmePolicyAcl(['default']),
      },
      { token: OPERATOR_TOKEN },
    );
    await waitAllRunning(h, 'web', 2);
    h.sim.control.resetCounters();
    const events: unknown[] = [];
    const context = withLocalInvocation(lambdaContext(), {
      liveEvents: () => {},
      fleetEvents: (event) => events.push(event),
      nomad: { address: h.sim.address, token: OPERATOR_TOKEN },
    });
    const payload = {
      input,
      executionId: `arn:aws:states:us-east-1:123456789012:execution:fleet:${executionName}`,
      executionName,
      startTime: '2026-12-07T05:00:00Z',
    };
    return { h, events, run: () => planFleet(payload, context) as Promise<FleetState> };
  }

  it('plans the fleet into the plan store and hands back its state', async () => {
    // Arrange
    const { events, run } = await invoke({ filter: 'Meta.team == "payments"', yes: true }, 'handler-plan-1');

    // Act
    const state = await run();

    // Assert
    const keys = fleetKeys('handler-plan-1');
    expect(state.plan).toMatchObject({
      jobs: 1,
      allocations: 2,
      itemsKey: keys.items,
      namespaces: ['default'],
    });
    expect(await planStoreFromEnv().get(keys.items)).toEqual([
      expect.objectContaining({
        input: { job: 'web', namespace: 'default', fleet: { runId: 'handler-plan-1', index: 1, of: 1 } },
      }),
    ]);
    expect(events).toEqual([expect.objectContaining({ type: 'fleet-planned', jobs: 1 })]);
  });

  it('ends bad input in InvalidInputError before any Nomad request', async () => {
    // Arrange
    const { h, run } = await invoke({ yes: true, tasks: ['main'] }, 'handler-plan-2');

    // Act
    const planning = run();

    // Assert
    await expect(planning).rejects.toMatchObject({
      name: 'InvalidInputError',
      message: expect.stringMatching(/^Invalid input field "tasks": got \["main"\], expected nothing/),
    });
    expect(h.sim.control.requestLog()).toEqual([]);
  });
});
