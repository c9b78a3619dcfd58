/**
 * A counting reverse proxy on 127.0.0.1: every request passes through unchanged to `upstream`
 * (the simulator or a Nomad agent), and is counted, so each CLI's requests are counted the same
 * way whichever binary made them.
 */
import { forward, type LoopbackProxy, startLoopbackProxy } from './forwarding-proxy';

export interface CountProxy extends LoopbackProxy {
  /** The requests counted since the last call (or the start), and the count starts again at 0. */
  take(): number;
}

/** Starts the proxy in front of `upstream` (`http://host:port`). */
export async function startCountProxy(upstream: string): Promise<CountProxy> {
  const target = new URL(upstream);
  let count = 0;
  const proxy = await startLoopbackProxy((req, res) => {
    count++;
    forward(target, req, res);
  });
  return {
    ...proxy,
    take: () => {
      const taken = count;
      count = 0;
      return taken;
    },
  };
}
