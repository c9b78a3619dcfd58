/**
 * Scenario: on AWS, a fleet execution that ends without "Summarize fleet" (stopped in the console,
 * past its time limit, a step that failed) leaves the provisional record "Plan fleet" wrote. The
 * `end-fleet-record` handler, invoked as EventBridge invokes it with the execution's status change,
 * ends that record in the fleets' history of the namespace the fleet's input selected, against the
 * simulator over HTTP with ACLs on and the README's fleet policy as the function's token. A record
 * already final (the fleet's summary wrote it) is left as it is.
 */
import { handler } from '../../lambdas/end-fleet-record';
import type { HistoryPlace } from '../../lib/history/run-history';
import { NomadClient } from '../../lib/nomad/client';
import { NomadRunHistory } from '../../lib/stores/nomad-run-history';
import { MANAGEMENT_TOKEN, OPERATOR_TOKEN, readmeFleetPolicyToken } from '../fixtures/readme-policy';
import { provisionalRecord, runRecord } from '../fixtures/run-records';
import { withEnvironment } from '../iam/helpers/with-environment';
import { type Harness, harnessPerTest } from '../steps/helpers/harness';
import { lambdaContext } from './helpers/fixtures';

const FLEET_MACHINE = 'arn:aws:states:us-east-1:123456789012:execution:NomadRestartStack-Fleet';
const PAYMENTS: HistoryPlace = { namespace: 'payments', fleets: true };

/** A fleet record of run `n` in namespace `payments`. */
const fleetRecord = (n: number, final: boolean) =>
  (final ? runRecord : provisionalRecord)(n, { kind: 'fleet', jobId: '', namespace: 'payments' });

/** The fleets' history of `payments`, read with a management token. */
function history(h: Harness): NomadRunHistory {
  return new NomadRunHistory(NomadClient.create({ address: h.sim.address, token: MANAGEMENT_TOKEN }));
}

/** The handler run as Lambda runs it, with the README fleet policy's token in its environment. */
function endFleet(h: Harness, detail: Record<string, unknown>) {
  return withEnvironment({ NOMAD_ADDR: h.sim.address, NOMAD_TOKEN: OPERATOR_TOKEN }, () =>
    handler({ detail }, lambdaContext()),
  );
}

describe('end-fleet-record handler', () => {
  const harness = harnessPerTest();
  const startNomad = () =>
    harness.start({
      jobs: [],
      acl: {
        enabled: true,
        tokens: [readmeFleetPolicyToken(['payments']), { secret: MANAGEMENT_TOKEN, management: true }],
      },
    });

  it.each([
    { status: 'ABORTED', extra: {}, expected: { outcome: 'aborted', errors: [] } },
    { status: 'TIMED_OUT', extra: {}, expected: { outcome: 'timed-out', errors: [] } },
    {
      status: 'FAILED',
      extra: { error: 'StepFailed', cause: 'Summarize fleet: the plan bucket refused the report' },
      expected: {
        outcome: 'error',
        errors: ['StepFailed: Summarize fleet: the plan bucket refused the report'],
      },
    },
  ])(
    'ends the provisional record of a fleet execution that ended $status',
    async ({ status, extra, expected }) => {
      // Arrange
      const h = await startNomad();
      await history(h).put(PAYMENTS, fleetRecord(1, false));

      // Act
      const out = await endFleet(h, {
        executionArn: `${FLEET_MACHINE}:run-0001`,
        status,
        input: JSON.stringify({ namespace: 'payments', filter: 'Type == "service"' }),
        ...extra,
      });

      // Assert
      expect(out).toEqual({ namespace: 'payments' });
      const { records } = await history(h).read(PAYMENTS);
      expect(records).toEqual([
        expect.objectContaining({ runId: 'run-0001', ...expected, endedAt: expect.any(Number) }),
      ]);
    },
  );

  it('leaves a record the summary already made final', async () => {
    // Arrange: the fleet failed in its last state, after "Summarize fleet" wrote its record.
    const h = await startNomad();
    const final = { ...fleetRecord(1, true), outcome: 'failed' as const };
    await history(h).put(PAYMENTS, final);

    // Act
    await endFleet(h, {
      executionArn: `${FLEET_MACHINE}:run-0001`,
      status: 'FAILED',
      input: JSON.stringify({ namespace: 'payments' }),
      error: 'FleetRestartFinishedWithErrors',
      cause: 'Fleet restart finished with errors: 0 jobs restarted, 1 failed, 0 skipped',
    });

    // Assert
    expect((await history(h).read(PAYMENTS)).records).toEqual([final]);
  });

  it('refuses an event that is not an execution status change', async () => {
    // Arrange
    const h = await startNomad();

    // Act
    const error = await endFleet(h, { executionArn: `${FLEET_MACHINE}:run-0001`, status: 'RUNNING' }).catch(
      (err: unknown) => err,
    );

    // Assert
    expect(error).toMatchObject({ message: 'Event is not a fleet execution status change' });
  });
});
