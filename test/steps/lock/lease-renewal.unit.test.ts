/**
 * When a run renews its job's locks (lib/steps/lock/lease-renewal.ts): only when the lease needs
 * it, so a short run makes no renewal, and a long one renews before its lease can lapse.
 */
import { leaseNeedsRenewal, renewalDue, renewedAt } from '../../../lib/steps/lock/lease-renewal';
import { AWS_LONGEST_WAIT_SECONDS } from '../../../lib/stores/shared-lock-settings';

const DAY = 24 * 60 * 60;
const HOUR_MS = 60 * 60 * 1000;
const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const run = { runId: 'run-1', executionId: 'run-1', executionNumber: 1 };

describe('leaseNeedsRenewal', () => {
  it('renews a run whose state says no renewal (never, or the last one failed)', () => {
    // Arrange
    const failed = renewalDue(renewedAt(run, T0));

    // Act
    const needs = [leaseNeedsRenewal(run, DAY, T0, 'none'), leaseNeedsRenewal(failed, DAY, T0, 'none')];

    // Assert
    expect(needs).toEqual([true, true]);
  });

  it('leaves a lease with more than half left at a safe point, and renews it past half', () => {
    // Arrange
    const renewed = renewedAt(run, T0);

    // Act
    const atEleven = leaseNeedsRenewal(renewed, DAY, T0 + 11 * HOUR_MS, 'none');
    const atThirteen = leaseNeedsRenewal(renewed, DAY, T0 + 13 * HOUR_MS, 'none');

    // Assert
    expect([atEleven, atThirteen]).toEqual([false, true]);
  });

  it('renews before a wait once less is left than the longest wait may last', () => {
    // Arrange: a day's lease, a 23 h longest wait: an hour of the lease may go by first.
    const renewed = renewedAt(run, T0);
    const slack = DAY * 1000 - AWS_LONGEST_WAIT_SECONDS * 1000;

    // Act
    const justBefore = leaseNeedsRenewal(renewed, DAY, T0 + slack, 'longest');
    const justAfter = leaseNeedsRenewal(renewed, DAY, T0 + slack + 1, 'longest');

    // Assert
    expect([justBefore, justAfter]).toEqual([false, true]);
  });

  it('renews a lease shorter than the longest wait before every wait', () => {
    // Arrange
    const renewed = renewedAt(run, T0);

    // Act
    const needs = leaseNeedsRenewal(renewed, 300, T0 + 1, 'longest');

    // Assert
    expect(needs).toBe(true);
  });
});
