/**
 * A fake Slack Web API on 127.0.0.1: answers `chat.postMessage`, `chat.update`,
 * `chat.postEphemeral` and `views.open` as Slack does (form-encoded in, `{ ok: true, ... }` out)
 * and records each call with its arguments (`blocks` and `view` decoded), so a test reads what
 * people would have seen; a test may have a call answered with a 429 and `Retry-After`. Calls without the expected bot token are refused like Slack's
 * `invalid_auth`.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { closeServer, listenOnLoopback } from '../../fixtures/loopback';
import { openedAroundAll } from '../../fixtures/opened-around';

/** One recorded call. */
export interface SlackCall {
  readonly method: string;
  readonly args: Record<string, unknown>;
}

/** A running fake. */
export interface FakeSlack {
  /** Give to `WebClient` as `slackApiUrl`. */
  readonly apiUrl: string;
  readonly calls: SlackCall[];
  /** Resolves when a call to `method` has been recorded `count` times. */
  waitFor(method: string, count?: number): Promise<SlackCall>;
  /**
   * Answers the next call `matches` picks with Slack's rate limit: HTTP 429 and `Retry-After:
   * <seconds>` (https://api.slack.com/apis/rate-limits). Such a call is recorded in `limited`, not
   * in `calls`.
   */
  rateLimitNext(matches: (call: SlackCall) => boolean, retryAfterSeconds: number): void;
  /** The calls answered with a 429, with when (Unix ms). */
  readonly limited: (SlackCall & { readonly at: number })[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function decode(body: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.startsWith('application/json')) return JSON.parse(body) as Record<string, unknown>;
  const args: Record<string, unknown> = Object.fromEntries(new URLSearchParams(body));
  for (const key of ['blocks', 'view']) {
    if (typeof args[key] === 'string') args[key] = JSON.parse(args[key] as string) as unknown;
  }
  return args;
}

/** The fake, open around the file's (or the `describe`'s) tests; only `botToken` is served. */
export function fakeSlackAroundAll(botToken: string): FakeSlack {
  return openedAroundAll(
    () => startFakeSlack(botToken),
    (opened) => opened.close(),
  );
}

/** Starts the fake; only requests bearing `botToken` are served. */
export async function startFakeSlack(botToken: string): Promise<FakeSlack> {
  const calls: SlackCall[] = [];
  const limited: (SlackCall & { at: number })[] = [];
  const limits: { matches: (call: SlackCall) => boolean; retryAfterSeconds: number }[] = [];
  const waiters: { method: string; count: number; resolve: (call: SlackCall) => void }[] = [];
  let ts = 1_700_000_000;
  const server: Server = createServer(async (request, response) => {
    const method = (request.url ?? '').replace(/^\/api\//, '');
    const body = await readBody(request);
    response.setHeader('content-type', 'application/json');
    if (request.headers.authorization !== `Bearer ${botToken}`) {
      response.end(JSON.stringify({ ok: false, error: 'invalid_auth' }));
      return;
    }
    const args = decode(body, request.headers['content-type']);
    const limit = limits.find((l) => l.matches({ method, args }));
    if (limit !== undefined) {
      limits.splice(limits.indexOf(limit), 1);
      limited.push({ method, args, at: Date.now() });
      response.statusCode = 429;
      response.setHeader('retry-after', String(limit.retryAfterSeconds));
      response.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
      return;
    }
    calls.push({ method, args });
    for (const w of [...waiters]) {
      const seen = calls.filter((c) => c.method === w.method);
      if (seen.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(seen[w.count - 1] as SlackCall);
      }
    }
    if (method === 'chat.postMessage') ts += 1;
    const reply =
      method === 'chat.postMessage'
        ? { ok: true, channel: args['channel'], ts: `${ts}.000100` }
        : method === 'chat.update'
          ? { ok: true, channel: args['channel'], ts: args['ts'] }
          : { ok: true };
    response.end(JSON.stringify(reply));
  });
  const port = await listenOnLoopback(server);
  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    calls,
    limited,
    rateLimitNext: (matches, retryAfterSeconds) => void limits.push({ matches, retryAfterSeconds }),
    waitFor: (method, count = 1) => {
      const seen = calls.filter((c) => c.method === method);
      if (seen.length >= count) return Promise.resolve(seen[count - 1] as SlackCall);
      return new Promise((resolve) => waiters.push({ method, count, resolve }));
    },
    close: () => closeServer(server),
  };
}
