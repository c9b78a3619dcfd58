/**
 * A counting reverse proxy on 127.0.0.1: every request passes through unchanged to `upstream`
 * (the simulator or a Nomad agent), and is counted, so each CLI's requests are counted the same
 * way whichever binary made them.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountProxy {
  /** `http://127.0.0.1:<port>`: the `NOMAD_ADDR` to give a command. */
  readonly address: string;
  /** The requests counted since the last call (or the start), and the count starts again at 0. */
  take(): number;
  close(): Promise<void>;
}

/** Starts the proxy in front of `upstream` (`http://host:port`). */
export async function startCountProxy(upstream: string): Promise<CountProxy> {
  const target = new URL(upstream);
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    const forward = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
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
    take: () => {
      const taken = count;
      count = 0;
      return taken;
    },
    close: () =>
      new Promise((resolve) => {
        // A command that exits leaves its keep-alive sockets open here: close them, or close() waits.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
