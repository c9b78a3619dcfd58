/**
 * A loopback proxy (HTTP, or HTTPS with the test CA's server certificate) in front of the
 * simulator or a real agent that records what every request carried: its query parameters,
 * token and basic-auth headers, and for HTTPS the server name (SNI) and client certificate the
 * client presented. It stands in for Nomad's region routing too: a request for a region other
 * than the agent's own gets Nomad's `500 No path to region`, as a one-region cluster answers.
 */
import { readFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';

/** The test-only CA, server and client certificates (see its README). */
export const TLS_DIR = fileURLToPath(new URL('../fixtures/tls', import.meta.url));

/** What one request carried, as the agent saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly token: string | undefined;
  readonly authorization: string | undefined;
  /** HTTPS only: the SNI name sent, or `false` when none was. */
  readonly serverName?: string | false;
  /** HTTPS only: the CN of the client certificate presented, or `undefined` when none was. */
  readonly clientCertCn?: string | undefined;
}

export interface RecordingProxy {
  readonly address: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

export interface RecordingProxyOptions {
  /** Serve HTTPS with the test CA's server certificate, asking for (not requiring) a client certificate. */
  readonly tls?: boolean;
  /** The agent's own region; other regions get `No path to region`. @default 'global' */
  readonly region?: string;
}

export async function startRecordingProxy(
  upstream: string,
  options: RecordingProxyOptions = {},
): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const ownRegion = options.region ?? 'global';
  const seen: SeenRequest[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const entry: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      token: header('x-nomad-token'),
      authorization: header('authorization'),
    };
    if (options.tls) {
      const socket = req.socket as TLSSocket;
      const cert = socket.getPeerCertificate();
      const cn = cert?.subject?.CN;
      Object.assign(entry, {
        serverName: socket.servername,
        clientCertCn: Array.isArray(cn) ? cn[0] : cn,
      });
    }
    seen.push(entry);
    const region = url.searchParams.get('region');
    if (region !== null && region !== '' && region !== ownRegion) {
      req.resume();
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end('No path to region');
      return;
    }
    const forward = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  };
  const server = options.tls
    ? createHttpsServer(
        {
          cert: readFileSync(join(TLS_DIR, 'server.pem')),
          key: readFileSync(join(TLS_DIR, 'server-key.pem')),
          ca: readFileSync(join(TLS_DIR, 'ca.pem')),
          requestCert: true,
          rejectUnauthorized: false,
        },
        handle,
      )
    : createHttpServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
