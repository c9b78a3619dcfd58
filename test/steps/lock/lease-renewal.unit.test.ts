/**
 * When a run renews its job's locks (lib/steps/lock/lease-renewal.ts): only when the lease needs
 * it, so a short run makes no renewal, and a long one renews before its lease can lapse.
 */
import {
  type ComingWait,
  leaseNeedsRenewal,
  renewalDue,
  renewedAt,
} from '../../../lib/steps/lock/lease-renewal';
import { AWS_LONGEST_WAIT_SECONDS } from '../../../lib/stores/shared-lock-settings';
import type { RunRef } from '../../../lib/workflow/payloads';

const DAY = 24 * 60 * 60;
const HOUR_MS = 60 * 60 * 1000;
const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const run: RunRef = { runId: 'run-1', executionId: 'run-1', executionNumber: 1 };
const renewed = renewedAt(run, T0);
/** A day's lease, a 23 h longest wait: an hour of the lease may go by before a wait must renew. */
const SLACK_MS = DAY * 1000 - AWS_LONGEST_WAIT_SECONDS * 1000;

interface Row {
  readonly name: string;
  readonly state: RunRef;
  readonly leaseSeconds: number;
  readonly at: number;
  readonly wait: ComingWait;
  readonly expected: boolean;
}

describe('leaseNeedsRenewal', () => {
  it.each<Row>([
    { name: 'a run never renewed', state: run, leaseSeconds: DAY, at: T0, wait: 'none', expected: true },
    {
      name: 'a run whose last renewal failed',
      state: renewalDue(renewed),
      leaseSeconds: DAY,
      at: T0,
      wait: 'none',
      expected: true,
    },
    {
      name: 'a safe point with more than half the lease left',
      state: renewed,
      leaseSeconds: DAY,
      at: T0 + 11 * HOUR_MS,
      wait: 'none',
      expected: false,
    },
    {
      name: 'a safe point with less than half the lease left',
      state: renewed,
      leaseSeconds: DAY,
      at: T0 + 13 * HOUR_MS,
      wait: 'none',
      expected: true,
    },
    {
      name: 'a wait with exactly the longest wait left',
      state: renewed,
      leaseSeconds: DAY,
      at: T0 + SLACK_MS,
      wait: 'longest',
      expected: false,
    },
    {
      name: 'a wait with less left than the longest wait',
      state: renewed,
      leaseSeconds: DAY,
      at: T0 + SLACK_MS + 1,
      wait: 'longest',
      expected: true,
    },
    {
      name: 'a wait on a lease shorter than the longest wait, just renewed',
      state: renewed,
      leaseSeconds: 300,
      at: T0 + 1,
      wait: 'longest',
      expected: true,
    },
  ])('answers $expected for $name', ({ state, leaseSeconds, at, wait, expected }) => {
    // Act
    const needs = leaseNeedsRenewal(state, leaseSeconds, at, wait);

    // Assert
    expect(needs).toBe(expected);
  });
});
