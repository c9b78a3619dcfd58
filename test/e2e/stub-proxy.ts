/**
 * A reverse proxy on 127.0.0.1 in front of the simulator (as upstream's T14 puts one in front
 * of its agent) that answers some GET paths with fixed JSON bodies, e.g. the upstream T13
 * allocation stubs, and forwards everything else unchanged.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubProxy {
  readonly address: string;
  close(): Promise<void>;
}

/** Starts the proxy; `stubs` maps a path (without query) to the JSON value served for it. */
export async function startStubProxy(target: string, stubs: Record<string, unknown>): Promise<StubProxy> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && path in stubs) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Nomad-Index': '10' });
      res.end(JSON.stringify(stubs[path]));
      return;
    }
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
