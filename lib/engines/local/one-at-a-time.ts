/**
 * Questions of a fleet's jobs asked one at a time (lib/engines/local/fleet-engine.ts): a reply
 * answers the question on screen, never one asked beside it.
 */

/** Runs `ask` after every question asked before it has its reply: one question at a time. */
export function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(ask: () => Promise<T>): Promise<T> => {
    const next = last.then(ask, ask);
    last = next.catch(() => undefined);
    return next;
  };
}
