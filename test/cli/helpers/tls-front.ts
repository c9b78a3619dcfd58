/**
 * An HTTPS front on 127.0.0.1 (test-only certificates) that forwards every request to a
 * simulator and records what each one carried: path and query, the token and basic-auth
 * headers, the TLS server name (SNI) the client asked for and the client certificate it
 * presented. The general-options test reads "what Nomad would have seen" from it.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

export const TLS_FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'tls');

/** One request as the front saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly token: string | undefined;
  readonly authorization: string | undefined;
  /** SNI sent by the client; `false` when it sent none (an IP address is never sent as SNI). */
  readonly serverName: string | false;
  /** Common name of the client certificate presented, if any. */
  readonly clientCertificate: string | undefined;
}

export interface TlsFront {
  readonly address: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Starts a front for the simulator at `target` (`http://127.0.0.1:port`). */
export async function startTlsFront(target: string): Promise<TlsFront> {
  const seen: SeenRequest[] = [];
  const upstream = new URL(target);
  const server: Server = createServer(
    {
      cert: readFileSync(join(TLS_FIXTURES, 'server.pem')),
      key: readFileSync(join(TLS_FIXTURES, 'server-key.pem')),
      ca: readFileSync(join(TLS_FIXTURES, 'ca.pem')),
      // Asked for, not required: a run without one must still reach Nomad so the row can say so.
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      const url = new URL(req.url ?? '/', 'https://front');
      const peer = socket.getPeerCertificate();
      seen.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        token: header(req, 'x-nomad-token'),
        authorization: header(req, 'authorization'),
        serverName: (socket as TLSSocket & { servername?: string | false }).servername ?? false,
        clientCertificate: [peer?.subject?.CN].flat()[0],
      });
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `https://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
