/**
 * What the await steps' watches (replacements, health) share: how close to the Lambda's end a
 * slice stops, how soon an unmoved blocking query is sent again, an abortable sleep, and a
 * promise turned into a value the watch loop can race without a rejection escaping.
 */

/** Time kept back before a slice's deadline to return its cursor. */
export const RETURN_MARGIN_MS = 250;
/** A query whose index did not move is not re-sent sooner than this (a server without `X-Nomad-Index` must not make us spin). */
export const STALL_BACKOFF_MS = 1_000;

/** A promise's outcome as a value. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Resolves with the outcome of `promise`, never rejects. */
export const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/**
 * Waits `ms` on the clock the watch reads (`now`), or less when `signal` aborts. Tests that run the
 * watch on the simulator's clock hand the simulator's timers, so a stalled event loop moves both.
 */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** Resolves after `ms` real ms, or at once when `signal` aborts: the {@link Sleep} of `Date.now`. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
