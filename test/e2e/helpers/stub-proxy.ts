/**
 * A reverse proxy on 127.0.0.1 in front of the simulator or a real agent (as upstream's T14
 * puts one in front of its agent) that answers some GET paths with fixed JSON bodies, e.g. the
 * upstream T13 allocation stubs, can fail chosen requests, counts what passes through it, and
 * forwards everything else unchanged.
 */
import {
  type AnswerBack,
  forward,
  type LoopbackProxy,
  startLoopbackProxy,
} from '../../../bench/forwarding-proxy';

/**
 * The `nth` request (1-based) whose path ends in `pathSuffix` gets `status` and `body`. With
 * `forward`, the request reaches Nomad first and only its answer is replaced (upstream T14's
 * proxy error); without, Nomad never sees it.
 */
export interface ProxyFault {
  readonly pathSuffix: string;
  readonly nth: number;
  readonly status: number;
  readonly body: string;
  readonly forward: boolean;
}

export interface StubProxy extends LoopbackProxy {
  /** Requests seen so far whose method is `method` and whose path ends in `pathSuffix`. */
  requests(method: string, pathSuffix: string): number;
}

/** Starts the proxy; `stubs` maps a path (without query) to the JSON value served for it. */
export async function startStubProxy(
  target: string,
  stubs: Record<string, unknown> = {},
  faults: readonly ProxyFault[] = [],
): Promise<StubProxy> {
  const upstream = new URL(target);
  const seen: { method: string; path: string }[] = [];
  const proxy = await startLoopbackProxy((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    seen.push({ method, path });
    if (method === 'GET' && path in stubs) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Nomad-Index': '10' });
      res.end(JSON.stringify(stubs[path]));
      return;
    }
    const fault = faults.find(
      (f) =>
        path.endsWith(f.pathSuffix) && seen.filter((s) => s.path.endsWith(f.pathSuffix)).length === f.nth,
    );
    if (fault && !fault.forward) {
      req.resume();
      res.writeHead(fault.status).end(fault.body);
      return;
    }
    // A forwarded fault: Nomad acts on the request, and only its answer is replaced.
    const replaced: AnswerBack | undefined =
      fault &&
      ((answer) => {
        answer.resume();
        res.writeHead(fault.status).end(fault.body);
      });
    forward(upstream, req, res, replaced);
  });
  return {
    ...proxy,
    requests: (method, pathSuffix) =>
      seen.filter((s) => s.method === method && s.path.endsWith(pathSuffix)).length,
  };
}
