/**
 * Scenario: a fleet run's run-control item in the lock table (lib/steps/fleet/fleet-control-item.ts),
 * on dynalite with each call checked against the calling function's role in the full stack's
 * template (emulated-aws.ts): "Plan fleet" takes it (again on a retried plan), a requester then
 * records the fleet's pause on it, each job's "Check deployments" reads it, and "Summarize fleet"
 * gives it back, after which a request for the fleet is refused as for an ended run. Another
 * run's item under the same name is never taken: Plan fleet fails naming its holder.
 */

import { describeRequester } from '../../lib/control/requests';
import {
  fleetStoppedBy,
  holdFleetControl,
  releaseFleetControl,
} from '../../lib/steps/fleet/fleet-control-item';
import { LockHeldError } from '../../lib/stores/errors';
import { fleetControlKey } from '../../lib/stores/fleet-control-key';
import { jobLockFromEnv } from '../../lib/stores/from-env';
import { PairedJobLock } from '../../lib/stores/paired-job-lock';
import { useEmulatedAws } from './helpers/emulated-aws';
import { asFunction } from './helpers/iam-check';

const aws = useEmulatedAws();
const FLEET_RUN = 'weekly-payments-2026-12-06';
const PAUSE = { verb: 'pause', requestedBy: 'U0AAAAAAA', via: 'slack', at: 1_796_000_000_000 } as const;

describe("a fleet's run-control item on DynamoDB, as AWS authorizes it", () => {
  it('is taken by Plan fleet, read by its jobs, and given back by Summarize fleet', async () => {
    // Arrange: Plan fleet, then its retry (Lambda's or the state machine's), hold it.
    await asFunction('plan-fleet', () => holdFleetControl(jobLockFromEnv(), FLEET_RUN));
    await asFunction('plan-fleet', () => holdFleetControl(jobLockFromEnv(), FLEET_RUN));
    const recorded = await jobLockFromEnv().requestControl(fleetControlKey(FLEET_RUN), FLEET_RUN, PAUSE);

    // Act
    const read = await asFunction('check-deployments', () =>
      new PairedJobLock(jobLockFromEnv(), undefined, { required: false }).fleetControlRequest(FLEET_RUN),
    );
    const stoppedBy = await asFunction('summarize-fleet', () => fleetStoppedBy(jobLockFromEnv(), FLEET_RUN));
    await asFunction('summarize-fleet', () => releaseFleetControl(jobLockFromEnv(), FLEET_RUN));
    const afterEnd = await jobLockFromEnv().requestControl(fleetControlKey(FLEET_RUN), FLEET_RUN, PAUSE);

    // Assert
    expect(aws.ledger.denied()).toEqual([]);
    expect(recorded).toBe(true);
    expect(read).toEqual(PAUSE);
    expect(afterEnd).toBe(false);
    expect(await aws.lockHolder(fleetControlKey(FLEET_RUN))).toBeUndefined();
    const actions = (fn: string) => [
      ...new Set(aws.ledger.calls.filter((c) => c.functionName === fn).map((c) => c.request.action)),
    ];
    expect(actions('plan-fleet').sort()).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(stoppedBy).toBeUndefined(); // a pause, not a stop
    expect(actions('summarize-fleet').sort()).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem']);
  });

  it("names who stopped the fleet to Summarize fleet, for the fleet's record", async () => {
    // Arrange
    const stop = { ...PAUSE, verb: 'stop' } as const;
    await asFunction('plan-fleet', () => holdFleetControl(jobLockFromEnv(), FLEET_RUN));
    await jobLockFromEnv().requestControl(fleetControlKey(FLEET_RUN), FLEET_RUN, stop);

    // Act
    const stoppedBy = await asFunction('summarize-fleet', () => fleetStoppedBy(jobLockFromEnv(), FLEET_RUN));

    // Assert
    expect(aws.ledger.denied()).toEqual([]);
    expect(stoppedBy).toBe(describeRequester(stop));
  });

  it('is refused to Plan fleet, naming its holder, when another run holds the name', async () => {
    // Arrange: another run holds the fleet's item (an execution name reused after 90 days, while
    // its first run's item waits for its TTL).
    await jobLockFromEnv().acquire(fleetControlKey(FLEET_RUN), { owner: 'earlier-run', ttlSeconds: 60 });

    // Act
    const error = await asFunction('plan-fleet', () => holdFleetControl(jobLockFromEnv(), FLEET_RUN)).catch(
      (e: unknown) => e,
    );

    // Assert
    expect(aws.ledger.denied()).toEqual([]);
    expect(error).toBeInstanceOf(LockHeldError);
    expect(error).toMatchObject({ holder: 'earlier-run' });
    // Read back where the failed condition returned no item (lib/stores/dynamodb-job-lock.ts heldError).
    const reads = aws.ledger.calls.filter(
      (c) => c.functionName === 'plan-fleet' && c.request.action === 'dynamodb:GetItem',
    );
    expect(reads.length).toBeGreaterThan(0);
  });
});
