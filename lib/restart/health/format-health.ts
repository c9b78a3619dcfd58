/**
 * The texts of the health gate's lines (`-wait-healthy`), in the style of Nomad's own: the one
 * formatter (format.ts) places them as header or detail lines, timestamps and colours included.
 */

import { goQuote } from '../../go/quote';
import type { ProgressEvent } from '../events';
import { plural } from '../text';

/** The events of the health gate. */
export type HealthEvent = Extract<
  ProgressEvent,
  {
    type:
      | 'health-waiting'
      | 'allocation-healthy'
      | 'health-no-checks'
      | 'health-reset'
      | 'health-still-waiting';
  }
>;

/** A health line before its timestamp: a `==>` header or a detail line, verbose-only or not. */
export interface HealthLine {
  readonly header: boolean;
  readonly verbose: boolean;
  readonly text: string;
}

/** The line of a health event; `id` shortens allocation IDs as the formatter does. */
export function healthLine(event: HealthEvent, id: (allocationId: string) => string): HealthLine {
  const detail = (text: string, verbose = false): HealthLine => ({ header: false, verbose, text });
  switch (event.type) {
    case 'health-waiting':
      return {
        header: true,
        verbose: false,
        text: `Waiting for ${plural(event.count, 'allocation', 'allocations')} to become healthy`,
      };
    case 'allocation-healthy':
      return detail(`Allocation ${goQuote(id(event.allocationId))} is healthy`);
    case 'health-no-checks':
      return detail(
        `Allocation ${goQuote(id(event.allocationId))} has no Nomad service checks: judged on its tasks alone`,
        true,
      );
    case 'health-reset':
      return detail(
        `Allocation ${goQuote(id(event.allocationId))} is unhealthy again, -min-healthy-time starts over: ${event.reason}`,
        true,
      );
    case 'health-still-waiting':
      return detail(
        `Still waiting for allocation ${goQuote(id(event.allocationId))} to become healthy: ${event.reason}`,
      );
  }
}
