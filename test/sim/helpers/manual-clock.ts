/** A simulated clock that moves only when a test says so, for assertions about what happens between runs. */
import type { SimClock } from '../../../sim/index';

/** A {@link SimClock} plus `advance(ms)`, which fires every timer due by then, in time order. */
export interface ManualClock extends SimClock {
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let now = start;
  let nextId = 0;
  const timers = new Map<number, { due: number; fn: () => void }>();
  return {
    now: () => now,
    setTimer(delayMs, fn) {
      const id = nextId++;
      timers.set(id, { due: now + Math.max(0, delayMs), fn });
      return () => timers.delete(id);
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const next = [...timers]
          .filter(([, t]) => t.due <= target)
          .sort(([a, x], [b, y]) => x.due - y.due || a - b)[0];
        if (next === undefined) break;
        timers.delete(next[0]);
        now = next[1].due;
        next[1].fn();
      }
      now = target;
    },
  };
}
