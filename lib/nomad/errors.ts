/**
 * Errors of the Nomad client. Each class has a stable `name`, its class name, because Step
 * Functions `Retry`/`Catch` and our own retry policy match on it. No message ever contains the ACL
 * token or basic-auth password: messages are built from the method, the URL (which never
 * carries a secret) and the server's answer.
 */
import { NamedError } from '../errors/named-error';

/** Base class of every error the Nomad client throws. */
export class NomadError extends NamedError {}

/**
 * Nomad (or a proxy in front of it) answered with a status other than 200. The message is
 * exactly Nomad's: `Unexpected response code: <code> (<trimmed body>)`, or
 * `Unexpected response code: <code>` when the body is empty.
 */
export class UnexpectedResponseError extends NomadError {
  /** HTTP status code received. */
  public readonly statusCode: number;
  /** Response body, trimmed of surrounding whitespace. */
  public readonly body: string;

  public constructor(statusCode: number, body: string, options?: ErrorOptions) {
    const trimmed = body.trim();
    super(
      trimmed === ''
        ? `Unexpected response code: ${statusCode}`
        : `Unexpected response code: ${statusCode} (${trimmed})`,
      options,
    );
    this.statusCode = statusCode;
    this.body = trimmed;
  }
}

/** The connection failed: refused, reset, closed early, or the host name did not resolve. */
export class NomadConnectionError extends NomadError {
  /**
   * `false` only when the request provably never left this process (connection refused,
   * DNS failure), so even a write may be sent again; `true` whenever Nomad may have seen it.
   */
  public readonly sentRequest: boolean;
  /** The system error code, e.g. `ECONNREFUSED`, when one was given. */
  public readonly code: string | undefined;

  public constructor(
    message: string,
    sentRequest: boolean,
    code: string | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.sentRequest = sentRequest;
    this.code = code;
  }
}

/** The TLS handshake failed (untrusted or mismatched certificate, client certificate refused). Not transient. */
export class NomadTlsError extends NomadError {}

/** No complete answer arrived within the request's time limit (connect, headers or body). */
export class NomadTimeoutError extends NomadError {}

/** A 200 answer was not valid JSON or did not have the expected shape; the message names the endpoint. */
export class NomadDecodeError extends NomadError {}

/** The caller's `AbortSignal` fired. Never retried. */
export class NomadAbortedError extends NomadError {}

/**
 * The configuration is unusable (bad address, unreadable CA or certificate file, bad
 * `NOMAD_HTTP_AUTH`). Message: `Error initializing client: <reason>`, as Nomad's CLI prints it.
 */
export class NomadClientInitError extends NomadError {
  /** The reason alone, without the `Error initializing client: ` prefix. */
  public readonly reason: string;

  public constructor(reason: string, options?: ErrorOptions) {
    super(`Error initializing client: ${reason}`, options);
    this.reason = reason;
  }
}

/** The text Nomad's CLI looks for to decide that an ACL token lacks a capability (`api.PermissionDeniedErrorContent`). */
export const PERMISSION_DENIED = 'Permission denied';

/**
 * Whether `err` is a permission failure. Matches the text, as Nomad's CLI does
 * (`strings.Contains(err.Error(), "Permission denied")`), so it works on any error.
 */
export function isPermissionDenied(err: unknown): boolean {
  // Duck-typed: errors from another realm (a VM context, a test runner) fail `instanceof Error`.
  return (
    typeof err === 'object' &&
    err !== null &&
    'message' in err &&
    typeof err.message === 'string' &&
    err.message.includes(PERMISSION_DENIED)
  );
}

/** 5xx statuses a proxy or load balancer returns while Nomad is briefly unreachable. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * Texts of a Nomad 500 that come from the servers' RPC layer failing for the moment (a leader
 * election, a forwarded call whose connection dropped), not from the request: worth a retry.
 * Any other 500 (`No path to region`, `Unknown allocation`, ...) is Nomad's answer and is final.
 */
const TRANSIENT_500_TEXTS: readonly string[] = [
  'No cluster leader',
  'rpc error',
  'EOF',
  'i/o timeout',
  'connection reset',
  'connection refused',
  'context deadline exceeded',
];

/**
 * Whether a failed write provably was not applied, so sending it again is safe: it never reached
 * Nomad (connection refused, name not resolved), or the servers had no leader to apply it with
 * (`No cluster leader`, answered before any RPC runs). Anything else may have been applied: a
 * repeated restart restarts the tasks twice, a repeated stop could stop the replacement.
 */
export function isUnappliedWriteError(err: unknown): boolean {
  if (err instanceof NomadConnectionError) return !err.sentRequest;
  return (
    err instanceof UnexpectedResponseError && err.statusCode === 500 && err.body.includes('No cluster leader')
  );
}

/**
 * Names of the errors a Step Functions `Retry` should match: what {@link isTransientNomadError}
 * accepts, by class. `UnexpectedResponseError` is not listed because only some of its status
 * codes are transient; task handlers re-throw those as a transient error of their own.
 */
export const TRANSIENT_NOMAD_ERROR_NAMES = ['NomadConnectionError', 'NomadTimeoutError'] as const;

/**
 * Whether retrying the same request later can succeed: connection failures, timeouts,
 * 502/503/504, and a 500 from the servers' RPC layer (`No cluster leader`, `rpc error: EOF`,
 * ...: {@link TRANSIENT_500_TEXTS}). Aborts, TLS
 * failures, decode errors and other statuses are not transient.
 */
export function isTransientNomadError(err: unknown): boolean {
  if (err instanceof NomadConnectionError || err instanceof NomadTimeoutError) {
    return true;
  }
  if (err instanceof UnexpectedResponseError) {
    return (
      TRANSIENT_STATUSES.has(err.statusCode) ||
      (err.statusCode === 500 && TRANSIENT_500_TEXTS.some((text) => err.body.includes(text)))
    );
  }
  return false;
}
