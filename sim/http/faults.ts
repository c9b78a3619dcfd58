/**
 * Fault injection: which fault, if any, applies to a request (each counts its own matches),
 * and the control actions set off by a request (triggers).
 */
import type { Fault, RequestTrigger } from '../types';

interface Armed {
  fault: Fault;
  seen: number;
}

interface ArmedTrigger {
  trigger: RequestTrigger;
  action: () => void;
  seen: number;
}

export type FaultAction =
  | { kind: 'none'; latencyMs: number }
  | { kind: 'no-leader'; latencyMs: number }
  | { kind: 'reset'; latencyMs: number }
  | { kind: 'status'; latencyMs: number; status: number; body: string; afterHandling: boolean };

/** Whether a request is one a fault or trigger names (no suffix or method: any). */
function matches(selector: { pathSuffix?: string; method?: string }, method: string, path: string): boolean {
  if (selector.pathSuffix !== undefined && !path.endsWith(selector.pathSuffix)) return false;
  return selector.method === undefined || selector.method.toUpperCase() === method;
}

export class Faults {
  private armed: Armed[] = [];
  private triggers: ArmedTrigger[] = [];

  add(fault: Fault): void {
    this.armed.push({ fault, seen: 0 });
  }

  /** Arms `action` to run once, when the trigger's request arrives (see {@link decide}). */
  addTrigger(trigger: RequestTrigger, action: () => void): void {
    this.triggers.push({ trigger, action, seen: 0 });
  }

  /** Clears faults and triggers. */
  clear(): void {
    this.armed = [];
    this.triggers = [];
  }

  /**
   * Runs the actions whose request this is (before any fault applies and before the request
   * is handled), then counts the request against every matching fault and says what to do
   * with it.
   */
  decide(method: string, path: string): FaultAction {
    this.fire(method, path);
    let latencyMs = 0;
    let action: FaultAction = { kind: 'none', latencyMs: 0 };
    for (const armed of this.armed) {
      const { fault } = armed;
      if (fault.kind === 'no-leader') {
        if (action.kind === 'none') action = { kind: 'no-leader', latencyMs: 0 };
        continue;
      }
      if (!matches(fault, method, path)) continue;
      armed.seen += 1;
      if ('latencyMs' in fault) {
        latencyMs += fault.latencyMs;
        continue;
      }
      if (fault.nth !== undefined && fault.nth !== armed.seen) continue;
      if (action.kind !== 'none') continue;
      action =
        fault.kind === 'reset'
          ? { kind: 'reset', latencyMs: 0 }
          : {
              kind: 'status',
              latencyMs: 0,
              status: fault.status,
              body: fault.body ?? '',
              afterHandling: fault.afterHandling ?? false,
            };
    }
    return { ...action, latencyMs };
  }

  private fire(method: string, path: string): void {
    for (const armed of this.triggers) {
      if (!matches(armed.trigger, method, path)) continue;
      armed.seen += 1;
      if (armed.seen === (armed.trigger.nth ?? 1)) armed.action();
    }
  }
}
