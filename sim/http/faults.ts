/** Fault injection: which fault, if any, applies to a request (each counts its own matches). */
import type { Fault } from '../types';

interface Armed {
  fault: Fault;
  seen: number;
}

export type FaultAction =
  | { kind: 'none'; latencyMs: number }
  | { kind: 'no-leader'; latencyMs: number }
  | { kind: 'reset'; latencyMs: number }
  | { kind: 'status'; latencyMs: number; status: number; body: string; afterHandling: boolean };

export class Faults {
  private armed: Armed[] = [];

  add(fault: Fault): void {
    this.armed.push({ fault, seen: 0 });
  }

  clear(): void {
    this.armed = [];
  }

  /** Counts the request against every matching fault and says what to do with it. */
  decide(method: string, path: string): FaultAction {
    let latencyMs = 0;
    let action: FaultAction = { kind: 'none', latencyMs: 0 };
    for (const armed of this.armed) {
      const { fault } = armed;
      if (fault.kind === 'no-leader') {
        if (action.kind === 'none') action = { kind: 'no-leader', latencyMs: 0 };
        continue;
      }
      if (fault.pathSuffix !== undefined && !path.endsWith(fault.pathSuffix)) continue;
      if (fault.method !== undefined && fault.method.toUpperCase() !== method) continue;
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
}
