/**
 * The forwarding core shared by the bench's counting proxy (count-proxy.ts) and the end-to-end
 * tests' stub proxy (test/e2e/helpers/stub-proxy.ts): a server on 127.0.0.1 whose handler looks
 * at each request first and then, unless it answered the request itself, passes it unchanged to
 * the simulator or a Nomad agent. It lives in `bench/` because the tests already import the
 * bench's modules (test/bench/), never the other way round.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A proxy listening on 127.0.0.1. */
export interface LoopbackProxy {
  /** `http://127.0.0.1:<port>`: the `NOMAD_ADDR` to give a command. */
  readonly address: string;
  close(): Promise<void>;
}

/** What to send back for upstream's `answer`: by default the answer itself, status, headers and body. */
export type AnswerBack = (answer: IncomingMessage, res: ServerResponse) => void;

const pipeBack: AnswerBack = (answer, res) => {
  res.writeHead(answer.statusCode ?? 502, answer.headers);
  answer.pipe(res);
};

/**
 * Sends `req` to `upstream` (`http://host:port`) with its method, path, query, headers and body,
 * and `answerBack` upstream's answer on `res`; an upstream that cannot be reached is a 502.
 */
export function forward(
  upstream: URL,
  req: IncomingMessage,
  res: ServerResponse,
  answerBack: AnswerBack = pipeBack,
): void {
  const onward = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => answerBack(answer, res),
  );
  onward.on('error', () => res.writeHead(502).end());
  req.pipe(onward);
}

/** Starts a server on a free port of 127.0.0.1 that hands every request to `handle`. */
export async function startLoopbackProxy(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<LoopbackProxy> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        // A command that exits leaves its keep-alive sockets open here: close them, or close() waits.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
