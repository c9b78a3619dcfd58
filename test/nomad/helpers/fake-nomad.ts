import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { TLSSocket } from 'node:tls';
import { gzipSync } from 'node:zlib';
import { NomadClient, type NomadClientConfig } from '../../../lib/nomad/index';
import { openedAroundEach } from '../../fixtures/opened-around';

/** One request as the fake Nomad saw it. */
export interface RecordedRequest {
  readonly method: string;
  /** Raw request target, e.g. `/v1/job/a%2Fb?namespace=prod`. */
  readonly url: string;
  /** Raw (still escaped) path. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Common name of the client certificate presented over TLS, if any. */
  readonly clientCertCN: string | undefined;
}

/** How to answer one request. */
export interface Reply {
  /** @default 200 */
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. @default '' */
  body?: unknown;
  /** Compress the body and set `Content-Encoding: gzip`. */
  gzip?: boolean;
  /** Never answer (a held blocking query); the connection is closed when the server stops. */
  hold?: boolean;
  /** Destroy the socket without answering (a crashed proxy). */
  destroy?: boolean;
}

export type Handler = (req: RecordedRequest) => Reply;

/**
 * A stand-in Nomad agent on 127.0.0.1, port 0: records every request and answers from a
 * queue of replies, then from a default handler. Real sockets, no mocked fetch.
 */
export class FakeNomad {
  public readonly requests: RecordedRequest[] = [];
  private readonly queue: Reply[] = [];
  private readonly held: ServerResponse[] = [];
  private handler: Handler = () => ({ status: 404, body: 'no reply configured' });

  private constructor(
    private readonly server: Server,
    public readonly address: string,
  ) {}

  /** Starts an HTTP server, or an HTTPS one with `tls`. */
  public static async start(tls?: ServerOptions): Promise<FakeNomad> {
    let fake: FakeNomad | undefined;
    const listener = (req: import('node:http').IncomingMessage, res: ServerResponse): void => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => fake?.answer(req, Buffer.concat(chunks).toString('utf8'), res));
    };
    const server = tls === undefined ? createHttpServer(listener) : createHttpsServer(tls, listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeNomad(server, `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`);
    return fake;
  }

  /** Answers the next requests with these replies, in order, before falling back to the handler. */
  public enqueue(...replies: Reply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Answers every request not served from the queue. */
  public setHandler(handler: Handler): this {
    this.handler = handler;
    return this;
  }

  /** Answers the oldest held request (one whose reply was `hold`) with `reply`. */
  public answerHeld(reply: Reply): void {
    const res = this.held.shift();
    if (res === undefined) throw new Error('no request is held');
    this.write(res, reply);
  }

  /** Stops listening and drops every open connection (held requests included). */
  public async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: import('node:http').IncomingMessage, body: string, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      url,
      path: q < 0 ? url : url.slice(0, q),
      query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
      headers: req.headers,
      body,
      clientCertCN: peerCommonName(req.socket),
    };
    this.requests.push(recorded);
    const reply = this.queue.shift() ?? this.handler(recorded);
    if (reply.destroy === true) {
      req.socket.destroy();
      return;
    }
    if (reply.hold === true) {
      this.held.push(res);
      return;
    }
    this.write(res, reply);
  }

  private write(res: ServerResponse, reply: Reply): void {
    const text =
      typeof reply.body === 'string'
        ? reply.body
        : reply.body === undefined
          ? ''
          : JSON.stringify(reply.body);
    const payload = reply.gzip === true ? gzipSync(text) : Buffer.from(text);
    res.writeHead(reply.status ?? 200, {
      'content-type': typeof reply.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
      ...(reply.gzip === true ? { 'content-encoding': 'gzip' } : {}),
      ...reply.headers,
    });
    res.end(payload);
  }
}

function peerCommonName(socket: unknown): string | undefined {
  if (!(socket instanceof TLSSocket)) return undefined;
  const subject: unknown = socket.getPeerCertificate().subject;
  if (typeof subject !== 'object' || subject === null || !('CN' in subject)) return undefined;
  return typeof subject.CN === 'string' ? subject.CN : undefined;
}

/** A port on 127.0.0.1 with nothing listening: connections to it are refused. */
export async function refusedAddress(): Promise<string> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A fake Nomad and a client configured with `config` and pointed at it, fresh for each test. */
export function fakeNomadPerTest(config: Omit<NomadClientConfig, 'address'> = {}): {
  readonly nomad: FakeNomad;
  readonly client: NomadClient;
} {
  return openedAroundEach(
    async () => {
      const nomad = await FakeNomad.start();
      return { nomad, client: NomadClient.create({ ...config, address: nomad.address }) };
    },
    async ({ nomad, client }) => {
      await client.close();
      await nomad.stop();
    },
  );
}
