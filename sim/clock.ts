/**
 * Simulated time. Every delay the simulator models (task run times, scheduler delays,
 * shutdown delays, `lost_after`) is expressed in simulated milliseconds and goes through a
 * {@link SimClock}, so tests can run a 10 s scenario in 100 ms with `timeScale: 0.01`.
 */

/** The clock the simulator reads; inject your own for deterministic tests. */
export interface SimClock {
  /** Simulated Unix time, milliseconds. */
  now(): number;
  /** Runs `fn` after `delayMs` simulated milliseconds; returns a cancel function. */
  setTimer(delayMs: number, fn: () => void): () => void;
}

/**
 * A clock that follows wall time scaled by `timeScale` (real ms per simulated ms): with 0.01,
 * one simulated second passes in ten real milliseconds. Simulated time starts at the real
 * time of creation.
 */
export function createScaledClock(timeScale = 1): SimClock {
  const startWall = Date.now();
  const startPerf = performance.now();
  return {
    now: () => startWall + (performance.now() - startPerf) / timeScale,
    setTimer(delayMs, fn) {
      const handle = setTimeout(fn, Math.max(0, delayMs * timeScale));
      // Timers never keep a process alive on their own; the HTTP server does that.
      handle.unref();
      return () => clearTimeout(handle);
    },
  };
}

/**
 * Owns the timers a simulator set, so `reset()` and `close()` can cancel all of them at once.
 */
export class TimerSet {
  private readonly cancels = new Set<() => void>();
  constructor(private readonly clock: SimClock) {}

  /** Runs `fn` after `delayMs` simulated ms unless cancelled first. */
  after(delayMs: number, fn: () => void): () => void {
    const cancel = this.clock.setTimer(delayMs, () => {
      this.cancels.delete(cancel);
      fn();
    });
    this.cancels.add(cancel);
    return () => {
      cancel();
      this.cancels.delete(cancel);
    };
  }

  /** Resolves after `delayMs` simulated ms (immediately for 0 or less). */
  sleep(delayMs: number): Promise<void> {
    if (delayMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.after(delayMs, resolve);
    });
  }

  /** Cancels every pending timer. */
  cancelAll(): void {
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
  }
}
